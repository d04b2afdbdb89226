import * as v from "valibot";

// How column values arrive in the JSON the backend answers, for the page-data schemas.

export const nullableText = v.nullable(v.string());
export const count = v.pipe(v.number(), v.integer());
/** An image's width or height in pixels, as read from its bytes at upload; null when unknown. */
export const pixels = v.nullable(count);
/** A numeric column: a JSON number from the page functions, a string from some table reads. */
export const numeric = v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.number());
