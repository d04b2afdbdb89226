import * as v from "valibot";
import { peakCount } from "../../../supabase/functions/_shared/waveform";
import { safeHttpUrl, socialProfile, type SocialNetwork } from "~/lib/catalog/artist-profile";
import {
  albumTrackLimit,
  codeLimits,
  currencies,
  genres,
  maximumPrice,
  minimumPrice,
  releaseDates,
  textLimits,
  withdrawThreshold,
} from "~/lib/constants";
import { shippingCountries } from "~/lib/payments/shipping";
import { audioFiles } from "~/lib/media/media-files";
import { calendarDate, isCalendarDate, optionalText, requiredText } from "./text";

// The studio's forms (spec section 5, Uploads: required title, genre, price, release date, description;
// subgenre and label optional). One schema per form.

/** A number typed into a field: empty is "required"; anything that is not a finite number is `invalid`. */
const typedNumber = (required: string, invalid: string) =>
  v.pipe(v.optional(v.string(), ""), v.trim(), v.nonEmpty(required), v.transform(Number), v.number(invalid), v.finite(invalid));
const checkbox = v.pipe(
  v.optional(v.string(), ""),
  v.transform((value) => value === "on" || value === "true"),
);

/**
 * An amount as messages write it ("1,000.00"): in no currency, since each artist's prices are in their own
 * (the fields beside them name it).
 */
const amountText = (amount: number) => amount.toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** A dollar amount in whole cents (no fractions of a cent), within float error. */
const inCents = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

const priceMessage = `Price must be at least ${amountText(minimumPrice)}`;
const price = v.pipe(
  typedNumber("Price is required", priceMessage),
  v.minValue(minimumPrice, priceMessage),
  v.maxValue(maximumPrice, `Price can be at most ${amountText(maximumPrice)}`),
  v.check(inCents, "Price can have at most two decimals"),
);

const albumPriceMessage = `Album price must be at least ${amountText(minimumPrice)}, or empty`;
/** An album's own price, or empty for the sum of its tracks' prices. */
const albumPrice = v.pipe(
  v.optional(v.string(), ""),
  v.trim(),
  v.transform((value) => (value === "" ? null : Number(value))),
  v.nullable(
    v.pipe(
      v.number(albumPriceMessage),
      v.finite(albumPriceMessage),
      v.minValue(minimumPrice, albumPriceMessage),
      v.maxValue(maximumPrice, `Album price can be at most ${amountText(maximumPrice)}`),
      v.check(inCents, "Album price can have at most two decimals"),
    ),
  ),
);

/** Today plus the years a release may be announced ahead, as `YYYY-MM-DD`. */
function latestReleaseDate(today = new Date()): string {
  const latest = new Date(today);
  latest.setUTCFullYear(latest.getUTCFullYear() + releaseDates.yearsAhead);
  return latest.toISOString().slice(0, 10);
}

const releaseDateRangeMessage = `Release date must be between 1900 and ${releaseDates.yearsAhead} years from today`;
const releaseDate = v.pipe(
  calendarDate("Release date is required", "Release date must be a date"),
  v.check((date) => date >= releaseDates.earliest && date <= latestReleaseDate(), releaseDateRangeMessage),
);

/** What every track of a release shares (spec section 5, Uploads). */
const releaseDetails = {
  genre: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.nonEmpty("Genre is required"),
    v.picklist(genres, "Please choose a genre from the list"),
  ),
  subgenre: optionalText(textLimits.subgenre, "Subgenre"),
  label: optionalText(textLimits.label, "Label"),
  price,
  allowPayMore: checkbox,
  releaseDate,
  description: requiredText("Description is required", textLimits.description, "Description"),
};

const title = requiredText("Title is required", textLimits.title, "Title");
export const tooManyTracks = `An album can have at most ${albumTrackLimit} tracks`;

/** The details every track has, whether uploaded as a single or edited. */
/**
 * The release details' field for each column the database holds a rule on, for `refusedWrite`: the upload
 * and track edit forms name them alike (a track's own title is an album's track title, so it is not here).
 */
export const releaseDetailFields = {
  genre: "genre",
  subgenre: "subgenre",
  label: "label",
  price: "price",
  release_date: "releaseDate",
  description: "description",
};

export const TrackDetailsSchema = v.object({ title, ...releaseDetails });

/** An album: its title and what its tracks share; each track's title comes with its file. */
export const AlbumUploadSchema = v.object({
  albumTitle: requiredText("Album title is required", textLimits.title, "Album title"),
  albumPrice,
  ...releaseDetails,
  // Counted before any title is looked at.
  trackTitles: v.pipe(
    v.optional(v.array(v.string()), []),
    v.maxLength(albumTrackLimit, tooManyTracks),
    v.array(
      v.pipe(
        v.string(),
        v.trim(),
        v.nonEmpty("Every track needs a title"),
        v.maxLength(textLimits.title, `Track titles can be at most ${textLimits.title} characters`),
      ),
    ),
  ),
});

/**
 * What the upload form sends with JavaScript: the files it already uploaded (their paths in Storage) and,
 * for each track, what the browser read of it while uploading: its waveform and length.
 */
const uploadedTrack = v.message(
  v.pipe(
    v.string(),
    v.parseJson(),
    v.object({
      path: v.string(),
      peaks: v.pipe(v.array(v.pipe(v.number(), v.minValue(0), v.maxValue(1))), v.length(peakCount)),
      durationSeconds: v.pipe(v.number(), v.gtValue(0), v.maxValue(24 * 60 * 60)),
    }),
  ),
  audioFiles.undecodable,
);

export const UploadedFilesSchema = v.object({
  uploadedArtwork: v.optional(v.string(), ""),
  /** The artwork's small rendition, where the browser could make one. */
  uploadedArtworkSmall: v.optional(v.string(), ""),
  // Counted before any track's waveform is read.
  uploadedTracks: v.pipe(v.optional(v.array(v.string()), []), v.maxLength(albumTrackLimit, tooManyTracks), v.array(uploadedTrack)),
});

export type UploadedFiles = v.InferOutput<typeof UploadedFilesSchema>;

/** Removing a file the form uploaded ahead of publishing, when the artist takes it out again. */
export const DiscardUploadSchema = v.object({
  bucket: v.picklist(["tracks", "artwork"]),
  path: v.string(),
});

const stockMessage = "Stock must be a whole number from 0 to 100,000, or empty";
/** How many of a merch item the artist has: empty keeps no count (it never sells out). */
const stock = v.pipe(
  v.optional(v.string(), ""),
  v.trim(),
  v.transform((value) => (value === "" ? null : value)),
  v.nullable(v.pipe(v.string(), v.regex(/^\d{1,6}$/, stockMessage), v.transform(Number), v.maxValue(100_000, stockMessage))),
);

/** A shipping price: empty is free. */
const shippingPrice = (label: string) => {
  const message = `${label} must be an amount from 0 to ${amountText(maximumPrice)}`;
  return v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.transform((value) => (value === "" ? "0" : value)),
    v.regex(/^\d{1,4}(\.\d{1,2})?$/, message),
    v.transform(Number),
    v.maxValue(maximumPrice, message),
  );
};

/** Merchandise: no genre, release date or audio; a stock, where it ships from, and its shipping there and elsewhere. */
export const MerchUploadSchema = v.object({
  title,
  price,
  allowPayMore: checkbox,
  description: releaseDetails.description,
  stock,
  shipsFrom: v.picklist(shippingCountries, "Please choose the country it ships from"),
  shippingHome: shippingPrice("Shipping in that country"),
  shippingElsewhere: shippingPrice("Shipping elsewhere"),
});
export type MerchDetails = v.InferOutput<typeof MerchUploadSchema>;

/** A merch item's stock changed in the studio (restocked, or counted again). */
export const MerchStockSchema = v.object({
  merchId: v.pipe(v.string(), v.uuid("Unknown item")),
  stock,
});

const trackNumberMessage = `Track number must be a whole number from 1 to ${albumTrackLimit}`;

/** Editing a published track: its details, and for an album track its album (title, price) and position. */
export const EditTrackSchema = v.object({
  ...TrackDetailsSchema.entries,
  albumTitle: optionalText(textLimits.title, "Album title"),
  albumPrice,
  trackNumber: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.transform((value) => (value === "" ? null : Number(value))),
    v.nullable(
      v.pipe(
        v.number(trackNumberMessage),
        v.integer(trackNumberMessage),
        v.minValue(1, trackNumberMessage),
        v.maxValue(albumTrackLimit, trackNumberMessage),
      ),
    ),
  ),
});

/** Removing a media file: its name in the artist's folder, and the box that confirms it. */
export const RemoveMediaSchema = v.object({
  name: v.pipe(
    v.optional(v.string(), ""),
    v.check((name) => /^[^/\\]+$/.test(name) && name !== "." && name !== "..", "This file no longer exists"),
  ),
  confirm: v.pipe(
    v.optional(v.string(), ""),
    v.check((value) => value === "on", "Tick the box to confirm you want to remove this file"),
  ),
});

/** Retry on a track's failed stream (Your Tracks, the edit page). */
export const RetryStreamSchema = v.object({ trackId: v.pipe(v.string(), v.uuid("Track not found")) });

/**
 * A release put on pre-order, or its pre-order changed (issue 69, Pre-orders): the day it comes out, still
 * ahead, for every track of it; and which of its tracks are instant downloads (played and the buyer's at
 * once). A release already out is refused by the database (releases_preorder_dated_ahead).
 */
export const PreorderSchema = v.object({
  releaseId: v.pipe(v.string(), v.uuid("Release not found")),
  preorderDate: v.pipe(
    releaseDate,
    v.check((date) => date > new Date().toISOString().slice(0, 10), "A pre-order's release date must be after today"),
  ),
  instant: v.pipe(
    v.array(v.pipe(v.string(), v.uuid("Choose the instant downloads from the release's tracks"))),
    v.maxLength(albumTrackLimit),
  ),
});

/** Withdrawing a pre-order refunds every buyer: asked for twice, the button and the box. */
export const WithdrawPreorderSchema = v.object({
  releaseId: v.pipe(v.string(), v.uuid("Release not found")),
  confirm: v.pipe(
    v.optional(v.string(), ""),
    v.check((value) => value === "on", "Tick the box to confirm every buyer is refunded"),
  ),
});

/** Deleting a track is asked for twice: the button, and the box that says it cannot be undone. */
export const DeleteTrackSchema = v.object({
  confirm: v.pipe(
    v.optional(v.string(), ""),
    v.check((value) => value === "on", "Tick the box to confirm you want to delete this track"),
  ),
});

const thresholdMessage = `Withdrawal threshold must be a whole number of at least $${withdrawThreshold.minimum}, in steps of $${withdrawThreshold.step}`;

/**
 * The artist's payout settings (spec section 5, Payments): PayPal email (changed only with the current
 * password), the default minimum price (at least 0, in cents) and its currency, and automatic withdrawals
 * with their threshold. The threshold is read only when withdrawals are on; otherwise the stored one is kept.
 */
export const ArtistPaymentsSchema = v.pipe(
  v.object({
    paypalEmail: v.pipe(
      requiredText("PayPal email is required", 254, "PayPal email"),
      v.email("PayPal email must be a valid email address"),
    ),
    minimumPrice: v.pipe(
      typedNumber("Minimum price is required", "Minimum price must be at least 0.00"),
      v.minValue(0, "Minimum price must be at least 0.00"),
      v.maxValue(maximumPrice, `Minimum price can be at most ${amountText(maximumPrice)}`),
      v.check(inCents, "Minimum price can have at most two decimals"),
    ),
    currency: v.picklist(currencies, "Choose USD, EUR or GBP"),
    /** Where payouts go: PayPal unless the artist chose their connected Stripe account. */
    payoutMethod: v.optional(v.picklist(["paypal", "stripe"], "Choose PayPal or Stripe"), "paypal"),
    autoWithdraw: checkbox,
    withdrawThreshold: v.optional(v.string(), ""),
    /**
     * Asked only when the PayPal email or the payout method changes (checked by the database,
     * change_paypal_email and choose_payout_method).
     */
    currentPassword: v.optional(v.string(), ""),
  }),
  v.forward(
    v.partialCheck(
      [["autoWithdraw"], ["withdrawThreshold"]],
      ({ autoWithdraw, withdrawThreshold: threshold }) => !autoWithdraw || isThreshold(Number(threshold.trim() || NaN)),
      thresholdMessage,
    ),
    ["withdrawThreshold"],
  ),
  v.transform(({ withdrawThreshold: threshold, ...settings }) => ({
    ...settings,
    withdrawThreshold: settings.autoWithdraw ? Number(threshold) : null,
  })),
);

/**
 * Payment Settings' Stripe form: on to Stripe's onboarding with the current password (checked by the
 * database, connect_stripe), for the account connected or, asked (`connection: "another"`), a new one in
 * its place.
 */
export const StripeConnectionSchema = v.object({
  connection: v.optional(v.picklist(["this", "another"]), "this"),
  currentPassword: v.optional(v.string(), ""),
  /** Where the artist's bank is, for an account made now (unset: the platform's country). */
  country: v.optional(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/, "Choose the country of your bank account"))),
});

function isThreshold(value: number): boolean {
  return Number.isInteger(value) && value >= withdrawThreshold.minimum && value % withdrawThreshold.step === 0;
}

/** How many pricing tiers and discount codes a store keeps at most (the database holds the same limits). */
export const storeLimits = { tiers: 20, discounts: 50 } as const;

const cents = (message: string) =>
  v.pipe(typedNumber(message, message), v.minValue(0, message), v.maxValue(maximumPrice, message), v.check(inCents, message));

const percentage = (message: string, whole: boolean) =>
  v.pipe(
    typedNumber(message, message),
    v.minValue(0, message),
    v.maxValue(100, message),
    v.check((value) => !whole || Number.isInteger(value), message),
  );

const PricingTierSchema = v.object({
  id: v.pipe(v.string(), v.nonEmpty()),
  name: requiredText("Every tier needs a name", textLimits.tierName, "Tier names"),
  price: cents(`Price must be from 0.00 to ${amountText(maximumPrice)}, in cents`),
  description: optionalText(textLimits.tierDescription, "Tier descriptions"),
});

const DiscountSchema = v.object({
  id: v.pipe(v.string(), v.nonEmpty()),
  code: requiredText("Every discount needs a code", textLimits.discountCode, "Codes"),
  percentage: percentage("Discount must be a whole percentage from 0 to 100", true),
  validUntil: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.check((value) => value === "" || isCalendarDate(value), "Valid until must be a date"),
    v.transform((value) => value || null),
  ),
  active: v.boolean(),
  /** How many orders may take the code (empty: no end). */
  maxUses: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.check((value) => value === "" || /^[1-9]\d{0,5}$|^1000000$/.test(value), "Uses must be a whole number from 1 to 1,000,000"),
    v.transform((value) => (value === "" ? null : Number(value))),
  ),
});

const StoreRowsSchema = v.object({
  tiers: v.array(PricingTierSchema),
  discounts: v.array(DiscountSchema),
  bundling: v.object({ enabled: v.boolean(), discountPercentage: percentage("Bundle discount must be a percentage from 0 to 100", false) }),
});

/** The Store Settings form's lists arrive as parallel fields, one value per row. */
const column = v.optional(v.array(v.string()), []);

/**
 * A list's ids, one per row: its length is the list's, checked before any row is looked at, so a form
 * with thousands of rows is refused at once. The message is keyed by the id field (`tierId`).
 */
const rowIds = (limit: number, message: string) => v.pipe(column, v.maxLength(limit, message));

/**
 * Store settings (spec section 5): pricing tiers, discount codes (unique per artist whatever their case)
 * and bundling. Errors are by row (`tiers.1.price`, `discounts.0.code`), next to the field they are about.
 */
export const StoreSettingsSchema = v.pipe(
  v.object({
    tierId: rowIds(storeLimits.tiers, `At most ${storeLimits.tiers} pricing tiers`),
    tierName: column,
    tierPrice: column,
    tierDescription: column,
    discountId: rowIds(storeLimits.discounts, `At most ${storeLimits.discounts} discount codes`),
    discountCode: column,
    discountPercentage: column,
    discountValidUntil: column,
    discountMaxUses: column,
    /** The ids of the codes ticked active (a checkbox per code sends its id only when ticked). */
    discountActive: column,
    bundlingEnabled: checkbox,
    bundlingPercentage: v.optional(v.string(), ""),
  }),
  v.transform((form): v.InferInput<typeof StoreRowsSchema> => ({
    tiers: form.tierId.map((id, row) => ({
      id,
      name: form.tierName[row] ?? "",
      price: form.tierPrice[row] ?? "",
      description: form.tierDescription[row] ?? "",
    })),
    discounts: form.discountId.map((id, row) => ({
      id,
      code: form.discountCode[row] ?? "",
      percentage: form.discountPercentage[row] ?? "",
      validUntil: form.discountValidUntil[row] ?? "",
      active: form.discountActive.includes(id),
      maxUses: form.discountMaxUses[row] ?? "",
    })),
    bundling: { enabled: form.bundlingEnabled, discountPercentage: form.bundlingPercentage },
  })),
  StoreRowsSchema,
  v.rawCheck<v.InferOutput<typeof StoreRowsSchema>>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const seen = new Set<string>();
    dataset.value.discounts.forEach((discount, row) => {
      const code = discount.code.toLowerCase();
      if (seen.has(code)) {
        addIssue({
          message: "You already have a discount with this code",
          path: [
            { type: "object", origin: "value", input: dataset.value, key: "discounts", value: dataset.value.discounts },
            { type: "array", origin: "value", input: dataset.value.discounts, key: row, value: discount },
            { type: "object", origin: "value", input: discount, key: "code", value: discount.code },
          ],
        });
      }
      seen.add(code);
    });
  }),
);

export type StoreSettings = v.InferOutput<typeof StoreSettingsSchema>;

/** How many upcoming shows a profile lists at most. */
export const tourDateLimit = 50;

/** A handle ('@name' or 'name') or a link to the profile on that network; kept as typed, checked as the public page reads it. */
const socialLink = (network: SocialNetwork, message: string) =>
  v.pipe(
    optionalText(200, "Links"),
    v.check((value) => value === null || socialProfile(network, value) !== null, message),
  );

const ShowSchema = v.object({
  id: v.pipe(v.string(), v.nonEmpty()),
  date: calendarDate("Every show needs a date", "Every show needs a date"),
  venue: requiredText("Every show needs a venue", textLimits.venue, "Venue"),
  city: requiredText("Every show needs a city", textLimits.city, "City"),
});

/**
 * The artist's public profile (spec section 5, Profile: the website is a URL; only http and https are
 * taken): name, short description, bio, website, social links, genres and tour dates. Shows arrive as
 * parallel fields, one value per row; errors are by row (`shows.1.venue`), next to their field.
 */
const ProfileFieldsSchema = v.object({
  artistName: requiredText("Artist name is required", textLimits.artistName, "Artist name"),
  shortDescription: optionalText(textLimits.shortDescription, "Short description"),
  bio: optionalText(textLimits.artistBio, "Bio"),
  website: v.pipe(
    optionalText(textLimits.website, "Website"),
    v.check((value) => value === null || safeHttpUrl(value) !== null, "Website must be a web address starting with http:// or https://"),
  ),
  twitter: socialLink("twitter", "Enter a Twitter handle like @name, or a link to your Twitter profile"),
  instagram: socialLink("instagram", "Enter an Instagram handle like @name, or a link to your Instagram profile"),
  genres: v.array(v.picklist(genres)),
  shows: v.array(ShowSchema),
});

export const ArtistProfileSchema = v.pipe(
  v.object({
    artistName: v.optional(v.string()),
    shortDescription: v.optional(v.string()),
    bio: v.optional(v.string()),
    website: v.optional(v.string()),
    twitter: v.optional(v.string()),
    instagram: v.optional(v.string()),
    genres: v.optional(v.array(v.picklist(genres, "Please choose genres from the list")), []),
    showId: rowIds(tourDateLimit, `At most ${tourDateLimit} shows`),
    showDate: column,
    showVenue: column,
    showCity: column,
  }),
  v.transform(({ showId, showDate, showVenue, showCity, ...profile }): v.InferInput<typeof ProfileFieldsSchema> => ({
    ...profile,
    shows: showId.map((id, row) => ({ id, date: showDate[row] ?? "", venue: showVenue[row] ?? "", city: showCity[row] ?? "" })),
  })),
  ProfileFieldsSchema,
);

/** The profile picture chosen with JavaScript: uploaded already, named by its path in the artist's folder. */
export const ProfilePictureSchema = v.object({ path: v.pipe(v.string(), v.nonEmpty("Please choose an image")) });

const codeCountMessage = `Make from 1 to ${codeLimits.atOnce.toLocaleString("en-US")} codes at a time`;
/** A release's codes are bounded in all, and an artist's making of them by the hour (the database refuses more, 54000). */
export const tooManyCodes = `A release has at most ${codeLimits.perRelease.toLocaleString("en-US")} codes`;
export const tooManyCodesThisHour = `You can make at most ${codeLimits.perHour.toLocaleString("en-US")} codes an hour. Please try again later.`;

/** Making download codes for a release: how many, 1 to 1,000 at a time. */
export const CreateCodesSchema = v.object({
  count: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.nonEmpty("Enter how many codes to make"),
    // Whole numbers as people write them: digits (`0x10` or `1e3` is no count).
    v.regex(/^\d{1,7}$/, codeCountMessage),
    v.transform(Number),
    v.minValue(1, codeCountMessage),
    v.maxValue(codeLimits.atOnce, codeCountMessage),
  ),
});

/** Disabling one unused download code, or enabling it again. */
export const SwitchCodeSchema = v.object({
  intent: v.picklist(["disable", "enable"], "Choose to disable or enable the code"),
  codeId: v.pipe(v.string(), v.uuid("This code no longer exists")),
});
