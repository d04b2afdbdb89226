import type { ReactNode } from "react";

export type FiguresRow = { key: string; label: ReactNode; figures: string[] };

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
          <th scope="col" className="py-2 pr-4 font-semibold">
            {first}
          </th>
          {figures.map((column) => (
            <th key={column} scope="col" className="py-2 pl-4 text-right font-semibold">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key} className="border-t border-stage-700">
            <th scope="row" className="py-2 pr-4 font-normal">
              {row.label}
            </th>
            {row.figures.map((figure, index) => (
              <td key={figures[index]} className="py-2 pl-4 text-right">
                {figure}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
