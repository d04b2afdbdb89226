import { csvResponse } from "~/lib/media/csv.server";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { salesRows, soldItemOf } from "./sales.server";
import type { Route } from "./+types/sales-export";

/**
 * The artist's sales as CSV (date, order, item, kind, quantity, country, currency, price, discount, shipping,
 * paid, their share, refunded), newest first, of one release or item where `?item=` names it: their own
 * alone, as the database judges.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  const { header, rows } = await salesRows(context.get(supabaseContext), soldItemOf(request));
  return csvResponse(header, rows, "Crate sales.csv");
}
