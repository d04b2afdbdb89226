// CSV files the studio exports (download codes, sales): one way to write a field, a moment and the file.
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

/** A moment as people read it in a spreadsheet: `2026-11-28 14:05 UTC`. */
export const csvTime = (timestamp: string | null) =>
  timestamp ? `${new Date(timestamp).toISOString().slice(0, 16).replace("T", " ")} UTC` : "";

/** A CSV file of `rows` (each its fields) under `header`, downloaded as `fileName`; never cached, it is its reader's alone. */
export function csvResponse(header: string[], rows: string[][], fileName: string): Response {
  const lines = [header, ...rows].map((fields) => fields.map(csvField).join(","));
  return new Response(`${lines.join("\r\n")}\r\n`, {
    headers: { ...uncached, "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": attachment(fileName) },
  });
}
