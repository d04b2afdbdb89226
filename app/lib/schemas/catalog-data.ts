import * as v from "valibot";
import { count, nullableText, numeric, pixels, ReleaseRowSchema } from "./columns";

// The shapes the catalog's page functions and views answer (supabase/migrations/*_catalog_pages.sql,
// *_catalog_views.sql), checked once at the loader so a schema change fails a test, not a page. Loaders
// parse with these; components import only the types.

/** An artist as every directory card shows them. */
export const ArtistSummarySchema = v.object({
  id: v.string(),
  artist_name: v.string(),
  short_description: nullableText,
  profile_image_url: nullableText,
  genres: v.array(v.string()),
  follower_count: count,
  track_count: v.optional(count),
});
export type ArtistSummary = v.InferOutput<typeof ArtistSummarySchema>;
export const ArtistSummariesSchema = v.array(ArtistSummarySchema);

/** `artist_directory()`: one page of the directory and how many artists match in all. */
export const ArtistDirectorySchema = v.object({ total: count, artists: ArtistSummariesSchema });

/** A track of a release on its artist's page. */
const ReleaseTrackSchema = v.object({
  id: v.string(),
  title: v.string(),
  track_number: v.nullable(count),
  genre: v.string(),
  price: v.number(),
  artwork_url: nullableText,
  artwork_small_url: nullableText,
  release_date: v.string(),
  /** Not released yet: only its artist sees it. */
  upcoming: v.boolean(),
  duration_seconds: v.nullable(v.number()),
});

/** A release card on its artist's page: the release, its date and artwork, its first tracks in their order and how many it has. */
const ArtistReleaseSchema = v.object({
  ...ReleaseRowSchema.entries,
  /** Its newest track's. */
  release_date: v.string(),
  /** Not released yet: only its artist sees it, unless it is on pre-order. */
  upcoming: v.boolean(),
  /** On pre-order: sold before its day (its album page plays its instant tracks). */
  preorder: v.boolean(),
  /** Its first track's that has one (the small rendition where there is one). */
  artwork_url: nullableText,
  track_count: count,
  tracks: v.tupleWithRest([ReleaseTrackSchema], ReleaseTrackSchema),
});
export type ArtistRelease = v.InferOutput<typeof ArtistReleaseSchema>;

const NewsItemSchema = v.object({
  id: v.string(),
  title: v.string(),
  content: v.string(),
  type: v.picklist(["info", "update", "announcement"]),
});
export type NewsItem = v.InferOutput<typeof NewsItemSchema>;

const HomeTrackSchema = v.object({
  id: v.string(),
  title: v.string(),
  artwork_url: nullableText,
  artwork_small_url: nullableText,
  artist_id: v.string(),
  artist_name: v.string(),
  release_date: v.string(),
});

/** `home_page()`. */
export const HomePageSchema = v.object({
  news: v.array(NewsItemSchema),
  featured: v.nullable(
    v.object({
      artist: ArtistSummarySchema,
      track: v.object({
        id: v.string(),
        title: v.string(),
        artwork_url: nullableText,
        artwork_small_url: nullableText,
        release_date: v.string(),
        release: ReleaseRowSchema,
      }),
      is_following: v.boolean(),
    }),
  ),
  new_artists: ArtistSummariesSchema,
  popular_artists: ArtistSummariesSchema,
  genres: v.array(v.object({ genre: v.string(), track_count: count, tracks: v.array(HomeTrackSchema) })),
});

/** `artist_page(artist_id, release_page, release_page_size)`. */
export const ArtistPageSchema = v.object({
  ...ArtistSummarySchema.entries,
  bio: nullableText,
  website: nullableText,
  profile_image_width: pixels,
  profile_image_height: pixels,
  social_links: v.object({ twitter: v.nullish(v.string()), instagram: v.nullish(v.string()) }),
  /** What the artist's prices are in. */
  currency: v.string(),
  is_following: v.boolean(),
  latest_followers: v.array(v.object({ id: v.string(), display_name: v.string(), profile_image_url: nullableText, is_fan: v.boolean() })),
  upcoming_shows: v.array(v.object({ date: v.string(), venue: v.string(), city: v.string() })),
  release_count: count,
  releases: v.array(ArtistReleaseSchema),
  merch: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      price: v.number(),
      allow_pay_more: v.boolean(),
      description: v.string(),
      image_url: nullableText,
      image_small_url: nullableText,
      /** How many are left to sell (null: the artist keeps no count). */
      units_left: v.nullable(v.number()),
    }),
  ),
  /** Its open membership tiers, cheapest first. */
  membership_tiers: v.array(
    v.object({
      id: v.string(),
      name: v.string(),
      description: v.string(),
      monthly_price_cents: v.number(),
      yearly_price_cents: v.nullable(v.number()),
      currency: v.string(),
      allow_pay_more: v.boolean(),
      grants_new_releases: v.boolean(),
      grants_back_catalogue: v.boolean(),
    }),
  ),
  /** The tier's name of the caller's own membership of the artist (null: not a member). */
  membership: v.nullable(v.string()),
});
export type ArtistPageData = v.InferOutput<typeof ArtistPageSchema>;
export type ArtistMerch = v.InferOutput<typeof ArtistPageSchema>["merch"][number];
export type ArtistMembershipTier = v.InferOutput<typeof ArtistPageSchema>["membership_tiers"][number];

/** `fan_page(fan_id)`. */
export const FanPageSchema = v.object({
  id: v.string(),
  username: v.string(),
  bio: nullableText,
  profile_image_url: nullableText,
  profile_image_width: pixels,
  profile_image_height: pixels,
  favorite_genres: v.array(v.string()),
  /** Whether others see the collection and the wishlist (the fan always does). */
  show_collection: v.boolean(),
  show_wishlist: v.boolean(),
  collection: v.lazy(() => FanShelfSchema),
  wishlist: v.lazy(() => FanShelfSchema),
  following: ArtistSummariesSchema,
});

/** The `genre_counts` view, busiest first. */
export const GenreCountsSchema = v.array(v.object({ genre: v.string(), artist_count: count, track_count: count }));

/** `genre_page()`: the genre as the catalog spells it (null if nothing is called that) and its artists. */
export const GenrePageSchema = v.object({
  genre: v.nullable(v.string()),
  artists: v.array(
    v.pipe(
      v.object({
        id: v.string(),
        artist_name: v.string(),
        short_description: nullableText,
        profile_image_url: nullableText,
        follower_count: count,
        track_count: count,
      }),
      v.transform((artist): ArtistSummary => ({ ...artist, genres: [] })),
    ),
  ),
});

/** The header search's results. */
export const ArtistSearchResultsSchema = v.array(
  v.object({ id: v.string(), artist_name: v.string(), profile_image_url: nullableText, genres: v.array(v.string()) }),
);
type ArtistSearchResult = v.InferOutput<typeof ArtistSearchResultsSchema>[number];

/** The track page's track, with its artist. `price` and `duration_seconds` are numeric columns. */
export const TrackPageSchema = v.object({
  id: v.string(),
  /** Its master's format (its file ending) and the MP3 it warrants: what it downloads in. */
  master_format: nullableText,
  mp3_kbps: v.nullable(count),
  title: v.string(),
  /** Its release, with how many of its tracks the reader may see (a computed field), for the album embed's height. */
  release: v.object({ ...ReleaseRowSchema.entries, track_count: count, preorder: v.boolean() }),
  /** A pre-order's instant download: playable before its day. */
  instant: v.boolean(),
  track_number: v.nullable(count),
  genre: nullableText,
  subgenre: nullableText,
  price: numeric,
  /** Whether fans may pay more than its price. */
  allow_pay_more: v.boolean(),
  description: nullableText,
  label: nullableText,
  release_date: v.string(),
  artwork_url: nullableText,
  artwork_width: pixels,
  artwork_height: pixels,
  peaks: v.nullable(v.array(v.number())),
  duration_seconds: v.nullable(numeric),
  /** Its artist, with the currency their prices are in. */
  artist: v.object({ id: v.string(), artist_name: v.string(), profile_image_url: nullableText, currency: v.string() }),
});
/** What the track page shows. */
export type TrackPage = v.InferOutput<typeof TrackPageSchema>;

/** `album_page(release_id)`: an album (or a single, whose page is its track's), its artist and tracks in order. */
export const AlbumPageSchema = v.object({
  id: v.string(),
  kind: v.picklist(["album", "single"]),
  title: v.string(),
  price: numeric,
  /** What its price is in: its artist's currency. */
  currency: v.string(),
  /** Whether fans may pay more than its price (its first track's say). */
  allow_pay_more: v.boolean(),
  release_date: v.string(),
  /** Not released yet: only its artist sees it, unless it is on pre-order. */
  upcoming: v.boolean(),
  /** On pre-order: sold before its day, its instant tracks alone playable. */
  preorder: v.boolean(),
  /** The reader pre-ordered it: its instant tracks are theirs, the rest on its day. */
  preordered: v.boolean(),
  duration_seconds: v.nullable(numeric),
  genre: v.string(),
  label: nullableText,
  description: nullableText,
  artwork_url: nullableText,
  artwork_width: pixels,
  artwork_height: pixels,
  artist: v.object({ id: v.string(), artist_name: v.string(), profile_image_url: nullableText }),
  /** Its masters' formats and the MP3 each warrants: what its downloads are. */
  masters: v.array(v.object({ format: nullableText, mp3_kbps: v.nullable(count) })),
  /** The reader bought every track of it they see. */
  owned: v.boolean(),
  /** The reader is its artist. */
  own_release: v.boolean(),
  tracks: v.pipe(
    v.array(
      v.object({
        id: v.string(),
        title: v.string(),
        track_number: v.nullable(count),
        price: numeric,
        duration_seconds: v.nullable(numeric),
        artwork_url: nullableText,
        artwork_small_url: nullableText,
        upcoming: v.boolean(),
        /** A pre-order's instant download: playable and its buyer's before its day. */
        instant: v.boolean(),
        /** The reader bought it. */
        owned: v.boolean(),
      }),
    ),
    v.minLength(1),
  ),
});
/** What the album page shows: its masters stay with the loader, which states their formats. */
export type AlbumPage = Omit<v.InferOutput<typeof AlbumPageSchema>, "masters">;

/** A comment as the `track_comments` view shows it, with its author. */
export const TrackCommentsSchema = v.array(
  v.object({
    id: v.string(),
    user_id: v.string(),
    content: v.string(),
    created_at: v.string(),
    author_name: nullableText,
    author_image_url: nullableText,
    author_kind: v.nullable(v.picklist(["artist", "fan"])),
    /** For a reply, whom it answers as the reader may see them (never a banned user); null otherwise. */
    reply_to_user_id: nullableText,
    reply_to_name: nullableText,
    reply_to_kind: v.nullable(v.picklist(["artist", "fan"])),
  }),
);
export type TrackComment = v.InferOutput<typeof TrackCommentsSchema>[number];

/** What `/search/artists` answers the header search. */
export type ArtistSearchReply = { query: string; artists: ArtistSearchResult[]; error: string | null };

/** A release as a recommendation shows it (`private.release_card`): its cover, title and artist. */
export const ReleaseCardSchema = v.object({
  id: v.string(),
  kind: v.picklist(["album", "single"]),
  title: v.string(),
  artist_id: v.string(),
  artist_name: v.string(),
  artwork_url: nullableText,
  first_track_id: nullableText,
});
export type ReleaseCard = v.InferOutput<typeof ReleaseCardSchema>;

/**
 * A page of a fan's collection or wishlist (`fan_page()`'s `collection`, `wishlist`): how many releases the
 * reader may see, and this page's, newest first; `hidden` marks, for the fan alone, a purchase kept off
 * their page.
 */
export const FanShelfSchema = v.object({
  count,
  releases: v.array(v.object({ ...ReleaseCardSchema.entries, added_at: v.string(), hidden: v.boolean() })),
});
export type FanShelf = v.InferOutput<typeof FanShelfSchema>;

/** `supported_by()`: the newest 20 fans who bought a release (or a track), and how many more did. */
export const SupportedBySchema = v.object({
  fans: v.array(v.object({ id: v.string(), username: v.string(), profile_image_url: nullableText })),
  more: count,
});
export type SupportedBy = v.InferOutput<typeof SupportedBySchema>;

/** `also_bought(release_id)`: what the release's buyers bought besides it. */
export const AlsoBoughtSchema = v.array(ReleaseCardSchema);
