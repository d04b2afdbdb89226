import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
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
  return (
    <div className="relative overflow-x-auto rounded-2xl border border-stage-700">
      <table className="w-full min-w-[48rem] text-left text-sm">
        <caption className="sr-only">Sales, newest first</caption>
        <thead className="bg-stage-800 text-ink-muted">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Item
            </th>
            {everyone ? (
              <th scope="col" className="px-4 py-3 font-medium">
                Buyer
              </th>
            ) : null}
            <th scope="col" className="px-4 py-3 font-medium">
              Date
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Country
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Price
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Discount
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Paid
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Artist’s share
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              <span className="sr-only">Refund</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-stage-700">
          {sales.map((sale) => {
            const money = (cents: number) => formatMoney(cents, sale.currency);
            const item = everyone ? `${sale.title} · ${sale.artist_name}` : sale.title;
            return (
              <tr key={sale.line_id}>
                <th scope="row" className="px-4 py-3 font-medium text-ink">
                  {item}
                  <span className="block text-xs font-normal text-ink-faint">
                    {itemLabel(sale.kind, sale.quantity)} · order {sale.order_reference}
                  </span>
                </th>
                {everyone ? <td className="px-4 py-3 break-all text-ink-muted">{sale.buyer_email}</td> : null}
                <td className="px-4 py-3 text-ink-muted">
                  <time dateTime={sale.paid_at}>{formatDate(sale.paid_at.slice(0, 10), locale)}</time>
                </td>
                <td className="px-4 py-3 text-ink-muted">{formatCountry(sale.country)}</td>
                <td className="px-4 py-3 text-right">{money(sale.amount)}</td>
                <td className="px-4 py-3 text-right text-ink-muted">{sale.discount > 0 ? `−${money(sale.discount)}` : "—"}</td>
                <td className="px-4 py-3 text-right">{money(sale.total)}</td>
                <td className="px-4 py-3 text-right font-semibold">{money(sale.artist_share)}</td>
                <td className="px-4 py-3">
                  {sale.refunded_at ? (
                    <Badge tone="danger">Refunded</Badge>
                  ) : (
                    <details className="text-right">
                      <summary className="cursor-pointer rounded text-sm font-semibold text-accent focus-visible:outline-2 focus-visible:outline-accent">
                        Refund<span className="sr-only"> {item}</span>
                      </summary>
                      <Form method="post" action={action} className="mt-2">
                        <input type="hidden" name="intent" value="refund" />
                        <input type="hidden" name="lineId" value={sale.line_id} />
                        <Button type="submit" variant="danger" size="sm">
                          Refund {money(sale.total)} to the buyer
                        </Button>
                      </Form>
                    </details>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
