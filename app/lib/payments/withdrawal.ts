// The EU's right of withdrawal (Directive 2011/83/EU, art. 16(m)): a buyer of digital content may cancel
// within 14 days unless they asked for it at once and acknowledged they lose that right once it starts.
// A download starts at once, so buyers where the right applies tick the box that says so; the order keeps
// it and the return page repeats it.

/** The EU's 27 and the EEA's three, where the Directive applies. */
const withdrawalCountries = new Set([
  "AT",
  "BE",
  "BG",
  "HR",
  "CY",
  "CZ",
  "DK",
  "EE",
  "FI",
  "FR",
  "DE",
  "GR",
  "HU",
  "IE",
  "IT",
  "LV",
  "LT",
  "LU",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SK",
  "SI",
  "ES",
  "SE",
  "IS",
  "LI",
  "NO",
]);

/** Whether a buyer in `country` must waive the right before downloading; asked too where the country is unknown. */
export const waiverNeeded = (country: string | null) => country === null || withdrawalCountries.has(country);

export const waiverLabel =
  "Download now: I understand that I lose my 14-day right to withdraw from this purchase once the download starts.";

export const waiverRequired = "To download at once, please confirm that you give up the 14-day right to withdraw.";

/** What the cart says beside its box when Buy Now brought the buyer there without it ticked. */
export const waiverForBuyNow = "Tick this to download at once and pay now, or keep the item in your cart for later.";

/** What the return page says of a waived right. */
export const waiverRecord = "You asked for your downloads at once and gave up your 14-day right to withdraw from this purchase.";
