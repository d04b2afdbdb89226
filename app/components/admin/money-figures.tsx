import { Link, href } from "react-router";
import { Badge } from "~/components/ui/badge";
import { DataTable, type Column } from "~/components/ui/data-table";
import { EmptyState } from "~/components/ui/empty-state";
import { PillNav } from "~/components/ui/pill-nav";
import { formatCount, formatDate, formatMoney } from "~/lib/format";
import { formatDaysLeftToClaim } from "~/lib/payouts/claim";
import type { AdminMoney } from "~/lib/schemas/admin";

type Period = { id: string; label: string };
type CurrencyFigures = AdminMoney["currencies"][number];

const inCurrency = (figures: CurrencyFigures, cents: number) => formatMoney(cents, figures.currency);
const currencyColumns: Column<CurrencyFigures>[] = [
  { heading: "Currency", cell: (figures) => figures.currency },
  { heading: "Gross sales", figures: true, cell: (figures) => inCurrency(figures, figures.gross) },
  { heading: "Crate’s part", figures: true, cell: (figures) => inCurrency(figures, figures.crate) },
  { heading: "Refunded", figures: true, cell: (figures) => inCurrency(figures, figures.refunded) },
  { heading: "Paid out", figures: true, cell: (figures) => inCurrency(figures, figures.paid_out) },
  {
    heading: "Failed payouts",
    figures: true,
    cell: (figures) => `${inCurrency(figures, figures.failed)} (${formatCount(figures.failed_count)})`,
  },
  { heading: "Due to artists", figures: true, cell: (figures) => inCurrency(figures, figures.due) },
  {
    heading: "Open disputes",
    figures: true,
    cell: (figures) => `${inCurrency(figures, figures.disputed)} (${formatCount(figures.dispute_count)})`,
  },
];

/**
 * The marketplace's money for administrators: per currency, what sold in the period and Crate's part of
 * it, refunds and payouts (paid and failed), and as it stands now what is due to artists and in open
 * disputes; then the payouts that need a person, counted in their heading: the artists who must fix their
 * payout details, and the payouts waiting for their artist to claim them at PayPal. The period is a link,
 * as in analytics.
 */
export function MoneyFigures({
  money,
  periods,
  period,
  pathOf,
  now,
  locale,
}: {
  money: AdminMoney;
  periods: readonly Period[];
  period: Period;
  pathOf: (period: string) => string;
  now: number;
  locale: string;
}) {
  const needing = money.attention.length + money.unclaimed.length;
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
        <DataTable
          caption={`Money per currency: ${period.label.toLowerCase()}, and due now`}
          className="mt-4"
          columns={currencyColumns}
          rows={money.currencies}
          rowKey={(figures) => figures.currency}
        />
      )}
      <h3 className="mt-6 font-semibold">
        Payouts that need a person <Badge tone={needing > 0 ? "danger" : "neutral"}>{formatCount(needing)}</Badge>
      </h3>
      {needing === 0 ? (
        <p className="mt-2 text-sm text-ink-muted">None: every artist with money waiting can be paid.</p>
      ) : (
        <ul className="mt-2 grid gap-2 text-sm">
          {money.attention.map((artist) => (
            <li key={`${artist.artist_id}-${artist.currency}`}>
              <ArtistLink id={artist.artist_id} name={artist.artist_name} />: {formatMoney(artist.available, artist.currency)} waiting
              {artist.failed_at ? `; their payout failed on ${formatDate(artist.failed_at.slice(0, 10), locale)}` : ""}
              {artist.failure ? ` (${artist.failure})` : ""}.
            </li>
          ))}
          {money.unclaimed.map((payout) => (
            <li key={`${payout.artist_id}-${payout.currency}-unclaimed`}>
              <ArtistLink id={payout.artist_id} name={payout.artist_name} />: {formatMoney(payout.amount, payout.currency)} unclaimed at
              PayPal by {payout.recipient} since {formatDate(payout.unclaimed_at.slice(0, 10), locale)} (
              {formatDaysLeftToClaim(payout.unclaimed_at, now)} before PayPal returns it).
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function ArtistLink({ id, name }: { id: string; name: string }) {
  return (
    <Link to={href("/artist/:id", { id })} className="font-semibold hover:underline">
      {name}
    </Link>
  );
}
