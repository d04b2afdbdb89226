// CSV files the studio and administrators export (download codes, sales, tax collected): one way to write
// a field, an amount, a moment and the file.
import { uncached } from "~/lib/http/http-cache";
import { attachment } from "./downloads";

/**
 * A field of a CSV: quoted where it holds a comma, a semicolon (the separator spreadsheets take in much of
 * Europe), a quote or a line break, and never read as a formula by a spreadsheet (a redeemer's name or a
 * title may start with `=`).
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * A moment in UTC as spreadsheets read a date and time (Excel, Numbers and Google Sheets each take
 * `2026-11-28 14:05:09` as one, where an ISO moment or a trailing "UTC" stays text); the column's header
 * says UTC (`csvTimeHeader`).
 */
export const csvTime = (timestamp: string | null) => (timestamp ? new Date(timestamp).toISOString().slice(0, 19).replace("T", " ") : "");

/** An amount in cents as a spreadsheet reads money: in the currency's units, two decimals (`12.34`). */
export const csvCents = (amount: number) => (amount / 100).toFixed(2);

/** A time column's header: `made (UTC)`. */
export const csvTimeHeader = (name: string) => `${name} (UTC)`;

/**
 * A CSV file of `rows` (each its fields) under `header`, downloaded as `fileName`; never cached, it is its
 * reader's alone. UTF-8 with a byte order mark: without one, Excel reads the file in the computer's legacy
 * code page, and "Winter Études" shows as "Winter Ã‰tudes".
 */
export function csvResponse(header: string[], rows: string[][], fileName: string): Response {
  const lines = [header, ...rows].map((fields) => fields.map(csvField).join(","));
  return new Response(`\uFEFF${lines.join("\r\n")}\r\n`, {
    headers: { ...uncached, "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": attachment(fileName) },
  });
}
