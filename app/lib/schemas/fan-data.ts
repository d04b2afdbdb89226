import * as v from "valibot";
import { ArtistSummarySchema, ReleaseCardSchema } from "./catalog-data";
import { count, nullableText, numeric } from "./columns";

// What the fan space reads (supabase/migrations/*_fan_space.sql and table reads), checked at the loader.

/** A recommended release and why (`private.recommended_releases`): what the fan bought, follows, liked, or plays most. */
const RecommendedReleaseSchema = v.object({
  ...ReleaseCardSchema.entries,
  reason: v.picklist(["bought", "follow", "like", "genre"]),
  because: v.string(),
  because_id: nullableText,
});
export type RecommendedRelease = v.InferOutput<typeof RecommendedReleaseSchema>;

/** `fan_dashboard()`: the three counts, the library panel and the recommendations. */
export const FanDashboardSchema = v.object({
  purchased_count: count,
  following_count: count,
  recent_count: count,
  library: v.array(
    v.object({ id: v.string(), title: v.string(), artwork_url: nullableText, artist_id: v.string(), artist_name: v.string() }),
  ),
  recommendations: v.array(v.object({ ...ArtistSummarySchema.entries, because: nullableText })),
  recommended_releases: v.array(RecommendedReleaseSchema),
});

/** A track as the fan's lists embed it (`track:tracks(…)`): null when the reader may no longer see it. */
export const trackSummaryColumns = "id, title, artwork_url, artwork_small_url, artist:artist_profiles(id, artist_name)";
const TrackSummarySchema = v.object({
  id: v.string(),
  title: v.string(),
  artwork_url: nullableText,
  artwork_small_url: nullableText,
  artist: v.object({ id: v.string(), artist_name: v.string() }),
});
export type TrackSummary = v.InferOutput<typeof TrackSummarySchema>;

/** `owned_releases(page, page_size)`: what the fan bought, a page of releases, each with the tracks bought of it. */
export const OwnedReleasesSchema = v.object({
  release_count: count,
  releases: v.array(
    v.object({
      id: v.string(),
      kind: v.picklist(["album", "single"]),
      title: v.string(),
      bought_at: v.string(),
      amount: numeric,
      /** What it was paid in: its artist's currency. */
      currency: v.string(),
      artist: v.object({ id: v.string(), artist_name: v.string() }),
      // Every track of it came with a download code: no sale, shown as such.
      from_code: v.boolean(),
      // Kept off the fan's page and out of the release's "supported by".
      hidden: v.boolean(),
      tracks: v.pipe(
        v.array(
          v.object({
            id: v.string(),
            title: v.string(),
            track_number: v.nullable(count),
            duration_seconds: v.nullable(numeric),
            artwork_url: nullableText,
            artwork_small_url: nullableText,
            has_audio: v.boolean(),
            // Its master's format and the MP3 it warrants: the formats on offer.
            master_format: nullableText,
            mp3_kbps: v.nullable(count),
          }),
        ),
        v.minLength(1),
      ),
    }),
  ),
});
export type OwnedRelease = v.InferOutput<typeof OwnedReleasesSchema>["releases"][number];
export const PlaysSchema = v.array(v.object({ id: v.string(), created_at: v.string(), track: v.nullable(TrackSummarySchema) }));
export const LikesSchema = v.array(v.object({ created_at: v.string(), track: v.nullable(TrackSummarySchema) }));

export const FollowedArtistsSchema = v.array(
  v.object({
    created_at: v.string(),
    artist: v.object({
      id: v.string(),
      artist_name: v.string(),
      profile_image_url: nullableText,
      short_description: nullableText,
      follower_count: count,
    }),
  }),
);

export type FollowedArtistSummary = v.InferOutput<typeof FollowedArtistsSchema>[number]["artist"];

/** The fan's own profile row, as Edit Profile shows it. */
export const FanProfileRowSchema = v.object({
  username: v.string(),
  bio: nullableText,
  profile_image_url: nullableText,
  favorite_genres: v.array(v.string()),
  show_collection: v.boolean(),
  show_wishlist: v.boolean(),
});

/** The fan's own payout row (owner only). */
export const FanPayoutSchema = v.object({
  payment_settings: v.object({ paypal_email: v.nullish(v.string(), null), default_currency: v.string() }),
});
