import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { DataTable, type Column } from "~/components/ui/data-table";
import { EmptyState } from "~/components/ui/empty-state";
import { formatCountry, formatDate, formatMoney } from "~/lib/format";
import { itemLabel } from "~/lib/payments/cart";
import type { Sale } from "~/lib/schemas/checkout";

/**
 * Sales, newest first, each with its refund: a disclosure that asks once more before the money goes back
 * (a plain form post, so it works without JavaScript). `everyone`: an administrator's list, which names the
 * artist and the buyer.
 */
export function SalesTable({
  sales,
  action,
  locale,
  everyone = false,
}: {
  sales: Sale[];
  action: string;
  locale: string;
  everyone?: boolean;
}) {
  if (sales.length === 0) return <EmptyState title="No sales yet" />;
  const money = (sale: Sale, cents: number) => formatMoney(cents, sale.currency);
  const itemOf = (sale: Sale) => (everyone ? `${sale.title} · ${sale.artist_name}` : sale.title);
  const columns: Column<Sale>[] = [
    {
      heading: "Item",
      cell: (sale) => (
        <>
          {itemOf(sale)}
          <span className="block text-xs font-normal text-ink-faint">
            {itemLabel(sale.kind, sale.quantity)} · order {sale.order_reference}
            {sale.gift ? " · bought as a gift" : null}
          </span>
        </>
      ),
    },
    ...(everyone ? [{ heading: "Buyer", className: "break-all text-ink-muted", cell: (sale: Sale) => sale.buyer_email }] : []),
    {
      heading: "Date",
      className: "text-ink-muted",
      cell: (sale) => <time dateTime={sale.paid_at}>{formatDate(sale.paid_at.slice(0, 10), locale)}</time>,
    },
    { heading: "Country", className: "text-ink-muted", cell: (sale) => formatCountry(sale.country) },
    { heading: "Price", figures: true, cell: (sale) => money(sale, sale.amount) },
    {
      heading: "Discount",
      figures: true,
      className: "text-ink-muted",
      cell: (sale) => (sale.discount > 0 ? `−${money(sale, sale.discount)}` : "—"),
    },
    { heading: "Paid", figures: true, cell: (sale) => money(sale, sale.total) },
    { heading: "Artist’s share", figures: true, className: "font-semibold", cell: (sale) => money(sale, sale.artist_share) },
    {
      heading: "Refund",
      hideHeading: true,
      cell: (sale) =>
        sale.refunded_at ? (
          <Badge tone="danger">Refunded</Badge>
        ) : (
          <details className="text-right">
            <summary className="cursor-pointer rounded text-sm font-semibold text-accent focus-visible:outline-2 focus-visible:outline-accent">
              Refund<span className="sr-only"> {itemOf(sale)}</span>
            </summary>
            <Form method="post" action={action} className="mt-2">
              <input type="hidden" name="intent" value="refund" />
              <input type="hidden" name="lineId" value={sale.line_id} />
              <Button type="submit" variant="danger" size="sm">
                Refund {money(sale, sale.total)} to the buyer
              </Button>
            </Form>
          </details>
        ),
    },
  ];
  return <DataTable caption="Sales, newest first" columns={columns} rows={sales} rowKey={(sale) => sale.line_id} />;
}
