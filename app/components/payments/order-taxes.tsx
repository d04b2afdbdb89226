import { formatTax } from "~/lib/format";
import type { OrderTax } from "~/lib/schemas/checkout";

/** The taxes an order's payment added on top of its prices, each as a receipt names it ("VAT (DE) 19%: €0.21"). */
export function OrderTaxes({ taxes, money }: { taxes: readonly OrderTax[]; money: (cents: number) => string }) {
  if (taxes.length === 0) return null;
  return (
    <ul className="mt-3 grid gap-1 border-t border-stage-700 pt-3 text-sm text-ink-muted">
      {taxes.map((tax) => (
        <li key={formatTax(tax)} className="flex justify-between gap-3">
          <span>{formatTax(tax)}</span>
          <span className="shrink-0">{money(tax.amount)}</span>
        </li>
      ))}
    </ul>
  );
}
