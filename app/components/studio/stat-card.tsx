import { formatTrend } from "~/lib/format";

/** One figure of a statistics row: its total and its trend as a signed percentage, with what it compares. */
export function StatCard({ label, value, trend, against }: { label: string; value: string; trend: number | null; against: string }) {
  return (
    <li className="rounded-2xl border border-stage-700 bg-stage-850 p-5">
      <p className="text-sm text-ink-muted">{label}</p>
      <p className="mt-1 text-3xl font-bold tabular-nums">{value}</p>
      <p className={trend === null || trend > 0 ? "mt-1 text-sm text-accent" : "mt-1 text-sm text-ink-faint"}>
        {formatTrend(trend)} <span className="text-ink-faint">{against}</span>
      </p>
    </li>
  );
}
