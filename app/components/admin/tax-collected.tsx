import { DataTable, type Column } from "~/components/ui/data-table";
import { EmptyState } from "~/components/ui/empty-state";
import { formatCountry, formatMoney, formatTax } from "~/lib/format";
import type { TaxCollected as Rows } from "~/lib/schemas/admin";

type Row = Rows[number];

const columns: Column<Row>[] = [
  { heading: "Country", cell: (row) => formatCountry(row.country) },
  { heading: "Tax", cell: (row) => formatTax({ name: row.tax_name, country: null, rate: row.rate }) },
  { heading: "Sales before tax", figures: true, cell: (row) => formatMoney(row.sales, row.currency) },
  { heading: "Tax collected", figures: true, cell: (row) => formatMoney(row.tax, row.currency) },
  { heading: "Given back with refunds", figures: true, cell: (row) => formatMoney(row.refunded_tax, row.currency) },
  { heading: "Tax owed", figures: true, cell: (row) => formatMoney(row.tax - row.refunded_tax, row.currency) },
];

/**
 * The tax Crate collected as the seller over the figures' period, per country, tax and rate, for its returns;
 * the same as a CSV.
 */
export function TaxCollected({ rows, periodLabel, csvPath }: { rows: Rows; periodLabel: string; csvPath: string }) {
  return (
    <section aria-labelledby="tax-heading" className="mt-10">
      <h2 id="tax-heading" className="text-xl font-bold">
        Tax collected
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        The tax buyers paid where Crate collects it, by the day orders were paid, and the tax refunds gave back, by the day of the refund:{" "}
        {periodLabel.toLowerCase()}. For the returns beside Stripe Tax&apos;s own reports.{" "}
        <a href={csvPath} className="font-semibold text-accent underline" download>
          Download as CSV
        </a>
      </p>
      {rows.length === 0 ? (
        <div className="mt-3">
          <EmptyState title="No tax collected in this period" />
        </div>
      ) : (
        <DataTable
          caption={`Tax collected: ${periodLabel.toLowerCase()}`}
          className="mt-3"
          columns={columns}
          rows={rows}
          rowKey={(row) => `${row.country}-${row.tax_name}-${row.rate}-${row.currency}`}
        />
      )}
    </section>
  );
}
