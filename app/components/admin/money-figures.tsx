import { Link, href } from "react-router";
import { EmptyState } from "~/components/ui/empty-state";
import { PillNav } from "~/components/ui/pill-nav";
import { TableScroll } from "~/components/ui/table-scroll";
import { formatCount, formatDate, formatMoney } from "~/lib/format";
import type { AdminMoney } from "~/lib/schemas/admin";

type Period = { id: string; label: string };

/**
 * The marketplace's money for administrators: per currency, what sold in the period and Crate's part of
 * it, refunds and payouts (paid and failed), and as it stands now what is due to artists and in open
 * disputes; then the artists who must fix their payout details. The period is a link, as in analytics.
 */
export function MoneyFigures({
  money,
  periods,
  period,
  pathOf,
  locale,
}: {
  money: AdminMoney;
  periods: readonly Period[];
  period: Period;
  pathOf: (period: string) => string;
  locale: string;
}) {
  return (
    <>
      <PillNav
        label="Period of the figures"
        className="mt-3"
        items={periods.map((choice) => ({ to: pathOf(choice.id), label: choice.label, current: choice.id === period.id }))}
      />
      {money.currencies.length === 0 ? (
        <EmptyState title="No sales yet" />
      ) : (
        <TableScroll label="Money per currency" className="mt-4">
          <table className="w-full min-w-[48rem] text-left text-sm">
            <caption className="sr-only">Money per currency: {period.label.toLowerCase()}, and due now</caption>
            <thead className="bg-stage-800 text-ink-muted">
              <tr>
                {[
                  "Currency",
                  "Gross sales",
                  "Crate’s part",
                  "Refunded",
                  "Paid out",
                  "Failed payouts",
                  "Due to artists",
                  "Open disputes",
                ].map((heading, index) => (
                  <th key={heading} scope="col" className={`px-4 py-3 font-medium ${index > 0 ? "text-right" : ""}`}>
                    {heading}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {money.currencies.map((figures) => {
                const money = (cents: number) => formatMoney(cents, figures.currency);
                return (
                  <tr key={figures.currency} className="border-t border-stage-700">
                    <th scope="row" className="px-4 py-3 font-semibold">
                      {figures.currency}
                    </th>
                    <td className="px-4 py-3 text-right tabular-nums">{money(figures.gross)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{money(figures.crate)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{money(figures.refunded)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{money(figures.paid_out)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">
                      {money(figures.failed)} ({formatCount(figures.failed_count)})
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{money(figures.due)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">
                      {money(figures.disputed)} ({formatCount(figures.dispute_count)})
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
      <h3 className="mt-6 font-semibold">Artists whose payout details need fixing</h3>
      {money.attention.length === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">None: every artist with money waiting can be paid.</p>
      ) : (
        <ul className="mt-2 grid gap-2 text-sm">
          {money.attention.map((artist) => (
            <li key={`${artist.artist_id}-${artist.currency}`}>
              <Link to={href("/artist/:id", { id: artist.artist_id })} className="font-semibold hover:underline">
                {artist.artist_name}
              </Link>
              : {formatMoney(artist.available, artist.currency)} waiting
              {artist.failed_at ? `; their payout failed on ${formatDate(artist.failed_at.slice(0, 10), locale)}` : ""}
              {artist.failure ? ` (${artist.failure})` : ""}.
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
