// Gifts: what a gift's form offers and says, shared by the purchase dialog, the cart and their schema,
// without the form's validators (valibot stays out of the pages' chunks).
import { giftDaysAhead } from "~/lib/constants";

/** The days a gift may be sent on, as `YYYY-MM-DD` in UTC (the database's `current_date`): today, and up to 30 days ahead. */
export function giftDates(now = new Date()) {
  const day = (ahead: number) => new Date(now.getTime() + ahead * 86_400_000).toISOString().slice(0, 10);
  return { first: day(0), last: day(giftDaysAhead) };
}

/** Why a gift cannot hold merch, wherever it is asked. */
export const merchNotGiftable = "Merch cannot be given as a gift: buy it for yourself, or take it out of this checkout.";
