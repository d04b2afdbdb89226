import * as v from "valibot";

// The pieces the form schemas share: ids, trimmed text within its length, and calendar dates.

/** An id field, checked the way the Edge Functions check one. */
export { idSchema } from "../../../supabase/functions/_shared/ids";

/** "Title can be at most 200 characters". */
export const atMost = (max: number, what: string) => v.maxLength<string, number, string>(max, `${what} can be at most ${max} characters`);

/** A required text, trimmed, within its length. */
export const requiredText = (message: string, max: number, what: string) =>
  v.pipe(v.optional(v.string(), ""), v.trim(), v.nonEmpty(message), atMost(max, what));

/** An optional text, trimmed, within its length; empty is null. */
export const optionalText = (max: number, what: string) =>
  v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    atMost(max, what),
    v.transform((value) => value || null),
  );

/** `YYYY-MM-DD` naming a day that exists (2024-02-30 does not). */
export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/** A required calendar date. */
export const calendarDate = (required: string, invalid: string) =>
  v.pipe(v.optional(v.string(), ""), v.trim(), v.nonEmpty(required), v.check(isCalendarDate, invalid));
