import type { ReactNode } from "react";
import { cx } from "~/lib/ui/cx";

/** One column: its heading, and what each row shows in it. */
export type Column<Row> = {
  /** The column's heading; `hideHeading` keeps it for screen readers alone (a column of actions). */
  heading: string;
  hideHeading?: boolean;
  /** Figures: right-aligned, each digit the same width, so a column of money reads down. */
  figures?: boolean;
  /** More classes for the column's cells (their colour, how a long word wraps). */
  className?: string;
  cell: (row: Row) => ReactNode;
};

/**
 * The studio's and the administrators' tables, one markup for all: a caption that names the table (shown,
 * or for screen readers alone), headings for each column, and each row named by its first cell (a row
 * header), so a screen reader reads a figure with its row and its column. `framed`: a table standing on its
 * own, in a bordered box that scrolls sideways on a narrow screen (at least `minWidth` wide) and takes focus
 * so a keyboard can scroll it too; without it, a table of figures inside a card, as wide as the card.
 */
export function DataTable<Row>({
  caption,
  showCaption = false,
  columns,
  rows,
  rowKey,
  framed = true,
  minWidth = "48rem",
  className,
}: {
  caption?: string;
  showCaption?: boolean;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  framed?: boolean;
  minWidth?: keyof typeof minWidths;
  className?: string;
}) {
  // Framed, cells have room all round; in a card, the first column starts at the card's edge.
  const cellPadding = (index: number) => (framed ? "px-4 py-3" : index === 0 ? "py-2 pr-2 sm:pr-4" : "py-2 pl-2 sm:pl-4");
  const table = (
    <table className={cx("w-full text-left text-sm", framed && minWidths[minWidth], !framed && "tabular-nums")}>
      {caption ? <caption className={showCaption ? "px-4 pt-3 text-left font-semibold" : "sr-only"}>{caption}</caption> : null}
      <thead className={cx("text-ink-muted", framed && "bg-stage-800")}>
        <tr>
          {columns.map((column, index) => (
            <th
              key={column.heading}
              scope="col"
              className={cx(cellPadding(index), framed ? "font-medium" : "font-semibold", column.figures && "text-right")}
            >
              {column.hideHeading ? <span className="sr-only">{column.heading}</span> : column.heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} className="border-t border-stage-700">
            {columns.map((column, index) => {
              const Cell = index === 0 ? "th" : "td";
              return (
                <Cell
                  key={column.heading}
                  scope={index === 0 ? "row" : undefined}
                  className={cx(
                    cellPadding(index),
                    index === 0 && (framed ? "font-medium text-ink" : "font-normal [overflow-wrap:anywhere]"),
                    column.figures && "text-right tabular-nums",
                    column.className,
                  )}
                >
                  {column.cell(row)}
                </Cell>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
  if (!framed) return table;
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className={cx(
        "relative overflow-x-auto rounded-2xl border border-stage-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent",
        className,
      )}
    >
      {table}
    </div>
  );
}

// Whole class names, so the stylesheet's build finds them.
const minWidths = { "40rem": "min-w-[40rem]", "48rem": "min-w-[48rem]" } as const;
