import * as v from "valibot";

// What the artist's studio reads (supabase/migrations/*_studio_catalog.sql), checked at the loader.

const nullableText = v.nullable(v.string());
const count = v.pipe(v.number(), v.integer());
/** numeric columns: JSON numbers from the page functions, strings from some table reads. */
const money = v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.number());

/** `studio_catalog(kind, page, page_size)`: a page of the artist's own tracks, and their merch. */
export const StudioCatalogSchema = v.object({
  track_count: count,
  tracks: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      type: v.picklist(["album", "single", "other"]),
      album_title: nullableText,
      track_number: v.nullable(count),
      price: money,
      artwork_url: nullableText,
      release_date: v.string(),
      upcoming: v.boolean(),
      plays: count,
    }),
  ),
  merch: v.array(v.object({ id: v.string(), title: v.string(), price: money, image_url: nullableText })),
});
export type StudioCatalog = v.InferOutput<typeof StudioCatalogSchema>;

/** One of the artist's tracks, as its edit form shows it. */
export const EditableTrackSchema = v.object({
  id: v.string(),
  title: v.string(),
  type: v.picklist(["album", "single", "other"]),
  album_title: nullableText,
  track_number: v.nullable(count),
  genre: v.string(),
  subgenre: nullableText,
  label: nullableText,
  price: money,
  allow_pay_more: v.boolean(),
  release_date: v.string(),
  description: v.string(),
});
export type EditableTrack = v.InferOutput<typeof EditableTrackSchema>;
