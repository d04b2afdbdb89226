import * as v from "valibot";

// How column values arrive in the JSON the backend answers, for the page-data schemas.

export const nullableText = v.nullable(v.string());
export const count = v.pipe(v.number(), v.integer());
/** An image's width or height in pixels, as read from its bytes at upload; null when unknown. */
export const pixels = v.nullable(count);
/** A numeric column: a JSON number from the page functions, a string from some table reads. */
export const numeric = v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.number());

/**
 * A track's release as every read names it (`release:releases(id, kind, title)` in a select, or the page
 * functions' `release` object): an album or a single, and its title. What the spec calls a track's type
 * and album title.
 */
export const ReleaseRowSchema = v.object({ id: v.string(), kind: v.picklist(["album", "single"]), title: v.string() });
export type ReleaseRow = v.InferOutput<typeof ReleaseRowSchema>;
/** The columns of ReleaseRowSchema, as a PostgREST select embeds them. */
export const releaseRowColumns = "release:releases(id, kind, title)";
