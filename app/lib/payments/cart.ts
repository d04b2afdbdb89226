// The cart: what a line is (a track, an album or merch, with the amount a fan chose where the item lets
// fans pay more, and how many of merch), where each kind's item has its page and its download, how a
// visitor's cart, anyone's typed codes and where merch ships ride in cookies until checkout, how a priced
// cart reads (priced_cart, 16_cart.sql), and what each refusal says.
import * as v from "valibot";
import { href } from "react-router";
import { albumPath, isUuid, trackPath } from "~/lib/catalog/catalog";
import { cartKinds, minimumChargeCents, type soldKinds } from "~/lib/constants";
import { formatCountry, formatMoney } from "~/lib/format";

/** The most a cart holds (the database holds the same). */
export const cartLimit = 50;
/** The most codes a cart keeps typed. */
export const codeLimit = 10;
/** The catalog's highest price, in cents: what a fan may choose to pay at most. */
export const highestAmountCents = 100_000;
/** The most of one merch item a line holds (the database holds the same); a download is bought once. */
export const merchQuantityLimit = 10;

/** A cart holds every kind of thing sold but a membership (joined from the artist page). */
export { cartKinds };
export type CartKind = (typeof cartKinds)[number];
/** What an order's line sells: a cart's kinds, or a membership's paid period. */
export type SoldKind = (typeof soldKinds)[number];

/** A cart's line: its item, the amount in cents the fan chose for one (null: the price), and how many. */
export type CartLine = { kind: CartKind; id: string; amount: number | null; quantity: number };

const minimumCharges = new Map<string, number>(Object.entries(minimumChargeCents));

/** The smallest payment in `currency`, in cents: a total under it (but free) cannot be paid. */
export const minimumChargeOf = (currency: string) => minimumCharges.get(currency) ?? minimumChargeCents.USD;

/** What the cart says of a total under the smallest payment, and a checkout for one is refused with. */
export const smallestPayment = (currency: string) => `The smallest payment is ${formatMoney(minimumChargeOf(currency), currency)}.`;

/** Where an item of each kind has its page (merch has none of its own). */
const itemPages: Record<SoldKind, ((id: string) => string) | null> = { track: trackPath, album: albumPath, merch: null, membership: null };
/** Where what an item of each kind gives is downloaded (merch is sent instead). */
const downloadPages: Record<SoldKind, ((id: string) => string) | null> = {
  track: (id) => href("/track/:id/download", { id }),
  album: (id) => href("/album/:id/download", { id }),
  merch: null,
  membership: null,
};

/** A line's item's page, as an order or a receipt links it; null for an item with none, or gone (`id` null). */
export const itemPath = (kind: SoldKind, id: string | null) => (id === null ? null : (itemPages[kind]?.(id) ?? null));

/** Whether an item of the kind is downloaded (merch is sent instead). */
export const isDownload = (kind: SoldKind) => downloadPages[kind] !== null;

/** Where a line's item is downloaded; null for what is not downloaded, or an item gone. */
export const downloadPath = (kind: SoldKind, id: string | null) => (id === null ? null : (downloadPages[kind]?.(id) ?? null));

/** What a line is, as a cart, an order or a receipt says it ("Album", "Merch × 2"). */
export function itemLabel(kind: SoldKind, quantity = 1): string {
  const label = { track: "Track", album: "Album", merch: "Merch", membership: "Membership" }[kind];
  return quantity > 1 ? `${label} × ${quantity}` : label;
}

/** Where an order's merch goes, as its return page, receipt page and receipt mail say it. */
export const shippingNote = (shipTo: string) =>
  `The merch ships to the address you gave in ${formatCountry(shipTo)}; its artist sends it and we email you when it is on its way.`;

/**
 * An address a payment collected, as lines of text (none where it collected none): mails and the studio
 * write it so. The postcode goes before the town, as most of Europe writes it ("10115 Berlin"), but in the
 * United Kingdom, where Royal Mail asks for the town on a line of its own and the postcode on the next.
 */
export function addressLines(
  address: {
    name?: string | null;
    line1?: string | null;
    line2?: string | null;
    city?: string | null;
    postal_code?: string | null;
    state?: string | null;
    country?: string | null;
  } | null,
): string[] {
  if (!address) return [];
  const place =
    address.country === "GB" ? [address.city, address.postal_code] : [[address.postal_code, address.city].filter(Boolean).join(" ")];
  return [
    address.name,
    address.line1,
    address.line2,
    ...place,
    address.state,
    address.country ? formatCountry(address.country) : null,
  ].filter((part): part is string => Boolean(part));
}

/** The cookies: a visitor's lines (a signed-in fan's are in the database), the codes typed, and where merch ships. */
export const cartCookie = "crate-cart";
export const codesCookie = "crate-cart-codes";
export const shipToCookie = "crate-ship-to";

/** Whether a request carries a visitor's cart: its pages are theirs alone (private, never kept by the edge cache). */
export const hasCartCookie = (request: Request) => new RegExp(`(?:^|;\\s*)${cartCookie}=[^;\\s]`).test(request.headers.get("Cookie") ?? "");

const kindLetters: Record<CartKind, string> = { track: "t", album: "a", merch: "m" };
const kindOfLetter: Record<string, CartKind> = { t: "track", a: "album", m: "merch" };

/** A visitor's lines as their cookie holds them: `t.{id}.{cents}`, `a.{id}` or `m.{id}*{quantity}`, joined by `~`. */
export function encodeCartLines(lines: readonly CartLine[]): string {
  return lines
    .slice(0, cartLimit)
    .map(
      (line) =>
        [kindLetters[line.kind], line.id, ...(line.amount === null ? [] : [line.amount])].join(".") +
        (line.quantity === 1 ? "" : `*${line.quantity}`),
    )
    .join("~");
}

const CookieLine = v.pipe(
  v.string(),
  v.regex(/^[tam]\.[0-9a-f-]{36}(\.\d{1,6})?(\*\d{1,2})?$/),
  v.transform((text): CartLine => {
    const [item = "", quantity = "1"] = text.split("*");
    const [letter = "", id = "", cents] = item.split(".");
    return { kind: kindOfLetter[letter]!, id, amount: cents === undefined ? null : Number(cents), quantity: Number(quantity) };
  }),
);

/** The lines a cookie holds; whatever is not a line is dropped (a cookie is the visitor's to change). */
export function decodeCartLines(cookie: string | null | undefined): CartLine[] {
  const lines: CartLine[] = [];
  for (const part of (cookie ?? "").split("~").slice(0, cartLimit)) {
    const line = v.safeParse(CookieLine, part);
    if (line.success && isUuid(line.output.id) && !lines.some((kept) => sameItem(kept, line.output))) lines.push(line.output);
  }
  return lines;
}

export const sameItem = (a: { kind: string; id: string }, b: { kind: string; id: string }) => a.kind === b.kind && a.id === b.id;

/** Typed codes as their cookie holds them. */
export const encodeCodes = (codes: readonly string[]) => codes.slice(0, codeLimit).map(encodeURIComponent).join(",");

export function decodeCodes(cookie: string | null | undefined): string[] {
  const codes: string[] = [];
  for (const part of (cookie ?? "").split(",").slice(0, codeLimit)) {
    let code: string;
    try {
      code = decodeURIComponent(part).trim();
    } catch {
      continue;
    }
    if (code && code.length <= 40 && !codes.some((kept) => kept.toLowerCase() === code.toLowerCase())) codes.push(code);
  }
  return codes;
}

const cents = v.pipe(v.number(), v.integer());

/** A priced line, as price_cart answers it. */
export const PricedLineSchema = v.object({
  n: v.number(),
  kind: v.picklist(cartKinds),
  id: v.nullable(v.string()),
  title: v.nullable(v.string()),
  artwork_url: v.nullable(v.string()),
  artist_id: v.nullable(v.string()),
  artist_name: v.nullable(v.string()),
  currency: v.string(),
  minimum: v.nullable(cents),
  allow_pay_more: v.boolean(),
  /** The artist's pricing tiers at or above the price, where fans may pay more: presets. */
  tiers: v.array(v.object({ name: v.string(), amount: cents, description: v.optional(v.nullable(v.string()), null) })),
  /** What the fan pays for one, how many, and what those cost. */
  unit: v.nullable(cents),
  quantity: cents,
  amount: v.nullable(cents),
  /** Merch: how many are left to sell (null: no count kept, or not merch). */
  units_left: v.nullable(cents),
  /** Merch: the shipping to the cart's country, for every one the line holds. */
  shipping: cents,
  discount_code: v.nullable(v.string()),
  code_discount: cents,
  bundle_discount: cents,
  total: v.nullable(cents),
  artist_share: v.nullable(cents),
  crate_part: v.nullable(cents),
  problem: v.nullable(
    v.picklist(["unavailable", "yours", "owned", "quantity", "sold_out", "ship_to", "below_minimum", "above_maximum", "fixed_price"]),
  ),
});
export type PricedLine = v.InferOutput<typeof PricedLineSchema>;

export const PricedCartSchema = v.object({
  lines: v.array(PricedLineSchema),
  codes: v.array(
    v.object({
      code: v.string(),
      artist_name: v.nullable(v.string()),
      status: v.picklist(["applied", "inactive", "used_up", "expired", "unknown", "too_many"]),
    }),
  ),
  bundles: v.array(v.object({ artist_id: v.string(), percentage: v.number(), applies: v.boolean() })),
});
export type PricedCart = v.InferOutput<typeof PricedCartSchema>;

/** What a price under the item's own is told: `minimum` as written. */
export const belowMinimum = (minimum: string) => `The price is at least ${minimum}.`;

/** What keeps a line from being bought, beside it. */
export function problemMessage(line: PricedLine, money: (cents: number) => string): string | null {
  switch (line.problem) {
    case null:
      return null;
    case "unavailable":
      return "This is no longer for sale. Please remove it.";
    case "yours":
      return "This is your own release.";
    case "owned":
      return "You own this already.";
    case "quantity":
      return line.kind === "merch" ? `Choose from 1 to ${merchQuantityLimit}.` : "A download is bought once.";
    case "sold_out":
      return line.units_left ? `Only ${line.units_left} left: please choose fewer.` : "Sold out. Please remove it.";
    case "ship_to":
      return "Choose the country it ships to.";
    case "below_minimum":
      return belowMinimum(money(line.minimum ?? 0));
    case "above_maximum":
      return `The most you can pay is ${money(highestAmountCents)}.`;
    case "fixed_price":
      return `This has a fixed price of ${money(line.minimum ?? 0)}.`;
  }
}

/** What a typed code did. */
export function codeMessage({ code, status, artist_name }: PricedCart["codes"][number]): string {
  switch (status) {
    case "applied":
      return `${code}: applied to ${artist_name ?? "its artist"}'s items.`;
    case "inactive":
      return `${code} is not active.`;
    case "used_up":
      return `${code} has been used up.`;
    case "expired":
      return `${code} has expired.`;
    case "unknown":
      return `${code} is not a discount code for anything in your cart.`;
    case "too_many":
      return `${code}: ${tooManyCodes}`;
  }
}

/** Past the limit on typing codes (price_cart: 30 an account and 60 an address in 10 minutes). */
export const tooManyCodes = "Too many codes tried. Please wait a few minutes.";
