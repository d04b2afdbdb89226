import type { ReactNode } from "react";

type FiguresRow = { key: string; label: ReactNode; figures: string[] };

/**
 * A table of figures: each row named by its first cell (a day, a track, a country), then its figures,
 * right-aligned. `caption` names the table for screen readers when no heading does.
 */
export function FiguresTable({ caption, columns, rows }: { caption?: string; columns: string[]; rows: FiguresRow[] }) {
  const [first, ...figures] = columns;
  return (
    <table className="w-full text-left text-sm tabular-nums">
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead className="text-ink-muted">
        <tr>
          <th scope="col" className="py-2 pr-2 font-semibold sm:pr-4">
            {first}
          </th>
          {figures.map((column) => (
            <th key={column} scope="col" className="py-2 pl-2 text-right font-semibold sm:pl-4">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-t border-stage-700">
            <th scope="row" className="py-2 pr-2 font-normal [overflow-wrap:anywhere] sm:pr-4">
              {row.label}
            </th>
            {row.figures.map((figure, index) => (
              <td key={figures[index]} className="py-2 pl-2 text-right sm:pl-4">
                {figure}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
