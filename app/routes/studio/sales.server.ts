// An artist's sales beyond the Payments page's newest: filtered to one release or merch item, and all of
// them as a CSV file.
import { readOrThrow } from "~/lib/backend/backend.server";
import { isUuid } from "~/lib/catalog/catalog";
import { backendMaxRows } from "~/lib/constants";
import { csvCents, csvTime, csvTimeHeader } from "~/lib/media/csv.server";
import { itemLabel } from "~/lib/payments/cart";
import { SalesSchema } from "~/lib/schemas/checkout";
import type { SupabaseClient } from "~/lib/backend/supabase.server";

/** The release or merch item the sales are filtered to (`?item=`), where the address names a real id. */
export function soldItemOf(request: Request): string | null {
  const item = new URL(request.url).searchParams.get("item");
  return isUuid(item) ? item : null;
}

/** The most sales one export holds: the newest this many. */
const exportLimit = 10_000;

/** The caller's sales (of `item`, or all), newest first, as the CSV's header and rows: amounts in the currency's units. */
export async function salesRows(supabase: SupabaseClient, item: string | null) {
  const rows: string[][] = [];
  for (let skip = 0; skip < exportLimit; skip += backendMaxRows) {
    const page = readOrThrow(await supabase.rpc("sales", { how_many: backendMaxRows, item: item ?? undefined, skip }), {
      what: "sales to export",
      schema: SalesSchema,
    });
    for (const sale of page) {
      rows.push([
        csvTime(sale.paid_at),
        sale.order_reference,
        sale.title,
        itemLabel(sale.kind),
        String(sale.quantity),
        sale.country ?? "",
        sale.currency,
        csvCents(sale.amount),
        csvCents(sale.discount),
        csvCents(sale.shipping),
        csvCents(sale.total),
        csvCents(sale.artist_share),
        csvTime(sale.refunded_at),
      ]);
    }
    if (page.length < backendMaxRows) break;
  }
  const header = [
    csvTimeHeader("date"),
    "order",
    "item",
    "kind",
    "quantity",
    "country",
    "currency",
    "price",
    "discount",
    "shipping",
    "paid",
    "your share",
    csvTimeHeader("refunded"),
  ];
  return { header, rows };
}
