import { useId } from "react";

type ChartBar = { label: string; value: number };

const width = 640;
const height = 200;
const axisWidth = 56;
const baseline = height - 24;
const top = 12;

/**
 * A bar chart drawn on the server as SVG: no chart runtime in the browser, and it works without
 * JavaScript. Screen readers get the summary in its name; the exact figures are in the table the page
 * puts beside it.
 */
export function HistoryChart({
  title,
  bars,
  format,
  summary,
}: {
  title: string;
  bars: ChartBar[];
  format: (value: number) => string;
  summary: string;
}) {
  const titleId = useId();
  const highest = Math.max(0, ...bars.map((bar) => bar.value));
  const scale = highest > 0 ? (baseline - top) / highest : 0;
  const slot = (width - axisWidth) / Math.max(bars.length, 1);
  const barWidth = Math.max(2, slot * 0.7);
  const first = bars[0];
  const last = bars.at(-1);
  return (
    <figure className="rounded-2xl border border-stage-700 bg-stage-850 p-5">
      <figcaption id={titleId} className="font-semibold">
        {title}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="mt-3 h-auto w-full"
        role="img"
        aria-labelledby={titleId}
        aria-describedby={`${titleId}-summary`}
      >
        <line x1={axisWidth} x2={width} y1={baseline} y2={baseline} className="stroke-stage-600" />
        <line x1={axisWidth} x2={width} y1={top} y2={top} className="stroke-stage-700" strokeDasharray="4 4" />
        <text x={axisWidth - 8} y={top + 4} textAnchor="end" className="fill-ink-faint text-[11px]">
          {format(highest)}
        </text>
        <text x={axisWidth - 8} y={baseline + 4} textAnchor="end" className="fill-ink-faint text-[11px]">
          {format(0)}
        </text>
        {bars.map((bar, index) => {
          const barHeight = bar.value * scale;
          return (
            <rect
              key={bar.label}
              x={axisWidth + index * slot + (slot - barWidth) / 2}
              y={baseline - barHeight}
              width={barWidth}
              height={Math.max(barHeight, 0)}
              rx={Math.min(3, barWidth / 2)}
              className="fill-accent"
            >
              <title>{`${bar.label}: ${format(bar.value)}`}</title>
            </rect>
          );
        })}
        {first ? (
          <text x={axisWidth} y={height - 4} className="fill-ink-faint text-[11px]">
            {first.label}
          </text>
        ) : null}
        {last && last !== first ? (
          <text x={width} y={height - 4} textAnchor="end" className="fill-ink-faint text-[11px]">
            {last.label}
          </text>
        ) : null}
      </svg>
      <p id={`${titleId}-summary`} className="mt-2 text-sm text-ink-muted">
        {summary}
      </p>
    </figure>
  );
}
