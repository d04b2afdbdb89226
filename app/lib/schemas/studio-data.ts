import * as v from "valibot";
import { currencies } from "~/lib/constants";
import { count, nullableText, numeric, ReleaseRowSchema } from "./columns";

// What the artist's studio reads (supabase/migrations/*_studio_catalog.sql), checked at the loader.

/** A track's stream, as its artist watches it: null for a track without audio. */
export const StreamStateSchema = v.nullable(v.picklist(["preparing", "ready", "failed"]));
export type StreamState = v.InferOutput<typeof StreamStateSchema>;
const streamFields = { stream_state: StreamStateSchema, stream_failure: nullableText };

/** `studio_catalog(kind, page, page_size)`: a page of the artist's own tracks, and their merch. */
/** A release's or merch item's sales as the ledger counts them, and the artist's revenue from them (in units). */
const ItemSalesSchema = v.object({ sales: count, revenue: numeric });

export const StudioCatalogSchema = v.object({
  /** What the artist's prices are in. */
  currency: v.string(),
  track_count: count,
  tracks: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      release: ReleaseRowSchema,
      track_number: v.nullable(count),
      price: numeric,
      artwork_url: nullableText,
      artwork_small_url: nullableText,
      release_date: v.string(),
      upcoming: v.boolean(),
      plays: count,
      ...streamFields,
    }),
  ),
  /** Each shown release's sales (lines sold less those refunded) and revenue (the artist's share), by its id. */
  release_sales: v.record(v.string(), ItemSalesSchema),
  merch: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      price: numeric,
      image_url: nullableText,
      image_small_url: nullableText,
      /** The stock the artist set (null: no count kept), and what is left of it to sell. */
      stock: v.nullable(v.number()),
      units_left: v.nullable(v.number()),
      ...ItemSalesSchema.entries,
    }),
  ),
});
export type StudioCatalog = v.InferOutput<typeof StudioCatalogSchema>;

/** One of the artist's tracks, as its edit form shows it. */
export const EditableTrackSchema = v.object({
  id: v.string(),
  title: v.string(),
  track_number: v.nullable(count),
  genre: v.string(),
  subgenre: nullableText,
  label: nullableText,
  price: numeric,
  allow_pay_more: v.boolean(),
  release_date: v.string(),
  description: v.string(),
  file_url: nullableText,
  master_format: nullableText,
  duration_seconds: v.nullable(numeric),
  artwork_url: nullableText,
  /** Its release, with an album's own price (null: the sum of its tracks'). */
  release: v.object({ ...ReleaseRowSchema.entries, price: v.nullable(numeric) }),
});
/** A track's stream as its artist sees it (track_stream): its state (null without audio) and why it failed. */
export const TrackStreamSchema = v.object({ state: StreamStateSchema, failure: nullableText });
/** The artist's payout row (owner only), as the Payment Settings form shows it. */
export const ArtistPayoutSchema = v.object({
  paypal_email: v.string(),
  /** Where payouts go, and the artist's Stripe account (null: not connected) and whether it takes transfers. */
  payout_method: v.picklist(["paypal", "stripe"]),
  stripe_account: v.nullable(v.string()),
  stripe_ready: v.boolean(),
  payment_settings: v.object({
    minimum_price: v.number(),
    default_currency: v.picklist(currencies),
    auto_withdraw: v.boolean(),
    withdraw_threshold: v.number(),
  }),
});

/** The artist's store settings row (owner only), as the Store Settings form shows it. */
export const StoreSettingsRowSchema = v.object({
  pricing_tiers: v.array(v.object({ id: v.string(), name: v.string(), price: v.number(), description: v.optional(nullableText, null) })),
  discounts: v.array(
    v.object({
      id: v.string(),
      code: v.string(),
      percentage: v.number(),
      validUntil: v.optional(nullableText, null),
      active: v.boolean(),
      maxUses: v.optional(v.nullable(v.number()), null),
    }),
  ),
  bundling: v.object({ enabled: v.boolean(), discountPercentage: v.number() }),
});

/** A trend is null where there was nothing before (shown as "New"). */
const statistic = v.object({ total: numeric, trend: v.nullable(numeric) });

/** `artist_dashboard()`: the statistics row, the library preview and the Recent Activity feed. */
export const ArtistDashboardSchema = v.object({
  /** What the revenue and the sales' amounts are in: the artist's currency. */
  currency: v.string(),
  stats: v.object({ revenue: statistic, downloads: statistic, streams: statistic, followers: statistic }),
  library: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      artwork_url: nullableText,
      release_date: v.string(),
    }),
  ),
  activity: v.array(
    v.object({
      id: v.string(),
      // `purchase`: a line sold (an album once, merch with its quantity); `code`: a release given with a
      // download code (no sale, no amount); `gift`: a line sold as a gift (by its giver).
      type: v.picklist(["purchase", "gift", "code", "play", "download", "comment"]),
      title: nullableText,
      // Where it links: a track's page or an album's (neither for merch).
      track_id: nullableText,
      album_id: nullableText,
      quantity: v.pipe(v.number(), v.integer(), v.minValue(1)),
      username: nullableText,
      amount: v.nullable(numeric),
      // A sale's own currency (null: the artist's).
      currency: nullableText,
      refunded: v.boolean(),
      content: nullableText,
      created_at: v.string(),
    }),
  ),
});
export type ArtistDashboard = v.InferOutput<typeof ArtistDashboardSchema>;

/** The artist's own profile row, as the Edit Profile form shows it. */
export const ArtistProfileRowSchema = v.object({
  artist_name: v.string(),
  short_description: nullableText,
  bio: nullableText,
  website: nullableText,
  genres: v.array(v.string()),
  profile_image_url: nullableText,
  social_links: v.object({ twitter: v.nullish(v.string(), null), instagram: v.nullish(v.string(), null) }),
  tour_dates: v.array(v.object({ date: v.string(), venue: v.string(), city: v.string() })),
});

/** `studio_releases(page, page_size)`: the artist's releases with their download codes counted. */
export const StudioReleasesSchema = v.object({
  release_count: count,
  releases: v.array(
    v.object({
      id: v.string(),
      kind: v.picklist(["album", "single"]),
      title: v.string(),
      created_at: v.string(),
      track_count: count,
      codes: count,
      redeemed: count,
    }),
  ),
});

/** `release_codes(release_id, page, page_size)`: a page of a release's download codes, and its counts. */
export const ReleaseCodesSchema = v.object({
  total: count,
  redeemed: count,
  disabled: count,
  codes: v.array(
    v.object({
      id: v.string(),
      code: v.string(),
      created_at: v.string(),
      disabled_at: nullableText,
      redeemed_at: nullableText,
      redeemed_by: nullableText,
    }),
  ),
});
export type ReleaseCode = v.InferOutput<typeof ReleaseCodesSchema>["codes"][number];
