/** The product's name, as the logo, titles and legal pages say it. */
export const brandName = "Crate";

/**
 * Business constants from the spec (section 9), written once and used by every page that states them. The
 * artist's shares are the database's (private.artist_share_percent, which prices every cart); the limits
 * test holds these to it.
 */
export const artistShare = { digitalPercent: 88, physicalPercent: 92 } as const;
/**
 * What the database's checks allow, as the app reads them (tests/integration/limits.test.ts holds each to
 * its check): the kinds of thing a cart holds and an order sells, an order's states, and a payout's
 * states and methods.
 */
export const cartKinds = ["track", "album", "merch"] as const;
/** A cart's kinds, and memberships: each paid period is an order of its own, joined from the artist page, never through a cart. */
export const soldKinds = [...cartKinds, "membership"] as const;
export const orderStates = ["open", "pending", "paid", "failed", "expired"] as const;
export const payoutStates = ["sending", "paid", "failed"] as const;
export const payoutMethods = ["paypal", "stripe"] as const;
/** The artist's percent of what a fan pays for each kind sold: digital or physical. */
export const artistPercentOf = {
  track: artistShare.digitalPercent,
  album: artistShare.digitalPercent,
  merch: artistShare.physicalPercent,
  membership: artistShare.digitalPercent,
} as const satisfies Record<(typeof soldKinds)[number], number>;
export const processorFeeRange = "4-6%";
export const minimumAge = 13;
export const legalLastUpdated = { iso: "2024-01-15", label: "January 15, 2024" } as const;
export const minimumPasswordLength = 8;
/** The lowest price of a track or merch item (spec section 5: minimum 0.99, step 0.01). */
export const minimumPrice = 0.99;
/**
 * How long each text may be, in characters. The database holds every one as a check constraint, so the
 * API cannot go around the forms (supabase/migrations/*_catalog_rules.sql).
 */
export const textLimits = {
  title: 200,
  description: 5000,
  subgenre: 100,
  label: 100,
  artistName: 100,
  shortDescription: 200,
  artistBio: 5000,
  website: 2000,
  username: 50,
  fanBio: 2000,
  newsTitle: 200,
  newsContent: 2000,
  tierName: 100,
  tierDescription: 500,
  discountCode: 40,
  venue: 120,
  city: 120,
  /** A carrier's tracking number, given when merch is marked shipped. */
  tracking: 100,
  /** A gift's message to its recipient. */
  giftMessage: 500,
} as const;

/** A gift is mailed on its send date: today, or up to so many days ahead (the database holds the same). */
export const giftDaysAhead = 30;
/**
 * An artist's membership tiers: how many, how long a name and description, and a month's and a year's
 * price in cents (22_memberships.sql holds each).
 */
export const membershipLimits = {
  tiers: 5,
  name: 60,
  description: 1000,
  monthlyCents: { min: 100, max: 50_000 },
  yearlyCents: { min: 100, max: 500_000 },
} as const;

/** Release dates run from 1900 to two years ahead (a back catalogue, or a release announced early). */
export const releaseDates = { earliest: "1900-01-01", yearsAhead: 2 } as const;

/** The most rows one read of the hosted API answers (Supabase's default `max_rows`): what a long list is read in pages of. */
export const backendMaxRows = 1000;

/** The highest price of a track or merch item; the database holds the same range. */
export const maximumPrice = 1000;
/** The most tracks an album holds, and so the highest track number (the database holds the same). */
export const albumTrackLimit = 100;
export const genres = [
  "Rock",
  "Pop",
  "Hip Hop",
  "Electronic",
  "Jazz",
  "Classical",
  "R&B",
  "Folk",
  "Metal",
  "Country",
  "Blues",
  "Indie",
] as const;
export type Genre = (typeof genres)[number];
/** The header's artist search: typing settles this long before a search, which shows at most this many. */
export const artistSearch = { delayMs: 300, maxResults: 10 } as const;
export const newsRotationMs = 8000;
export const newsletterThanksMs = 3000;
/** What the newsletter forms say once an address is taken (the spec's words). */
export const newsletterThanks = "Thanks for subscribing! 🎵";
/**
 * What an artist's newsletter form says once an address is asked for: the same whether it was new, pending
 * or subscribed already, so the form tells nobody who signed up.
 */
export const newsletterCheckInbox = "Check your inbox to confirm your subscription.";
/** The newsletter signups the database takes (it refuses more, 54000): an address's a day, a client's an hour. */
export const newsletterLimits = { perAddressDaily: 5, perClientHourly: 20 } as const;
/** Comments on a track: shown newest first, this many at a time; at most this long. */
export const commentsPageSize = 5;
export const commentMaxLength = 2000;
/** The site's player: its volume at first (spec), and the track page's waveform height in pixels. */
export const playerDefaults = { volume: 0.7, waveformHeight: 80 } as const;

/** The currencies artists and fans choose between for prices and payouts (spec section 5, Payments). */
export const currencies = ["USD", "EUR", "GBP"] as const;
/**
 * The smallest payment in each currency, in cents (Stripe's minimum charge amounts), as the database
 * holds every checkout to it (private.minimum_charge_cents; the limits test holds the two together).
 */
export const minimumChargeCents = { USD: 50, EUR: 50, GBP: 30 } as const satisfies Record<(typeof currencies)[number], number>;

/** Automatic withdrawals: the least threshold and its step, in whole dollars (spec section 5, Payments). */
export const withdrawThreshold = { minimum: 50, step: 10 } as const;

/** A playlist's name and description lengths, and how many playlists a user and tracks a playlist may have (the database checks the same). */
export const playlistLimits = { name: 100, description: 500, playlists: 200, tracks: 500 } as const;

/**
 * An artist's catalogue bounds (the database holds them, code 54000): tracks an artist, tracks one
 * request publishes (an album's), merch items, and comments one user posts on one track in a minute.
 */
export const catalogLimits = { artistTracks: 5000, tracksAtOnce: albumTrackLimit, merchItems: 500, commentsPerMinute: 5 } as const;

/** The releases a fan's wishlist holds at most (the database holds it, code 54000). */
export const wishlistLimit = 1000;

/**
 * Download codes' bounds (the database holds them): made at a time, a release's in all, and redemption
 * attempts an account may make in an hour.
 */
export const codeLimits = { atOnce: 1000, perRelease: 10_000, perHour: 3000, attemptsPerHour: 10 } as const;

/**
 * What listeners see in place of Play while a track's stream is being made (seconds after it is
 * published): the audio URL function's `audio_preparing`. Here, so the track page's player box and the
 * error messages share it without the box loading the messages.
 */
export const audioPreparing = "Preparing the audio";

/** How long notifications are kept and shown (the database's private.notification_days()). */
export const notificationDays = 90;

/** A ban's length in days, as the Ban dialog offers it: its default and its bounds (the form's schema holds them). */
export const banDays = { default: 30, minimum: 1, maximum: 36_500 } as const;
