import * as v from "valibot";
import { currencies, genres, textLimits } from "~/lib/constants";
import { optionalText, requiredText } from "./text";

// The fan space's forms (spec section 5; the fan's payment settings and profile). One schema per form.

/** PayPal email (optional: a fan may only ever buy; changed only with the current password) and the preferred currency. */
export const FanPaymentsSchema = v.object({
  paypalEmail: v.pipe(
    optionalText(254, "PayPal email"),
    v.check((value) => value === null || v.is(v.pipe(v.string(), v.email()), value), "PayPal email must be a valid email address"),
  ),
  currency: v.picklist(currencies, "Please choose USD, EUR or GBP"),
  currentPassword: v.optional(v.string(), ""),
});

/** A checkbox: sent ("on") when ticked, absent (so empty) when not. */
const checkbox = v.pipe(
  v.optional(v.string(), ""),
  v.transform((value) => value === "on" || value === "true"),
);

/** Username (required, as at sign-up), bio with emoji, favourite genres from the spec's list. */
export const FanProfileSchema = v.object({
  username: requiredText("Username is required", textLimits.username, "Username"),
  bio: optionalText(textLimits.fanBio, "Bio"),
  favoriteGenres: v.optional(v.array(v.picklist(genres, "Please choose genres from the list")), []),
});

/** The profile's "On your page" form: whether others see the fan's collection and wishlist. */
export const FanPageShownSchema = v.object({
  showCollection: checkbox,
  showWishlist: checkbox,
});

/**
 * "Add to wishlist" / "Remove from wishlist" on a release's page; `track` names the single's track page the
 * form was sent from (an album's page is the release's own).
 */
export const WishlistSchema = v.object({
  intent: v.picklist(["add", "remove"], "Choose add or remove"),
  track: v.optional(v.pipe(v.string(), v.uuid("Track not found"))),
});

/** "Hide from my page" / "Show on my page" on a release in Purchased. */
export const HidePurchaseSchema = v.object({
  releaseId: v.pipe(v.string(), v.uuid("This purchase no longer exists")),
  hide: v.picklist(["hide", "show"], "Choose hide or show"),
});

/** The Like toggle on a track page. */
export const LikeSchema = v.object({ intent: v.picklist(["like", "unlike"], "Choose like or unlike") });

/** A download code as typed: case, spaces and dashes do not matter; 12 characters of the codes' alphabet. */
export const RedeemCodeSchema = v.object({
  code: v.pipe(
    v.optional(v.string(), ""),
    v.transform((typed) => typed.toUpperCase().replace(/[\s-]/g, "")),
    v.nonEmpty("Enter your download code"),
    // The codes' alphabet leaves out what reads alike: a typed 0, O, 1, I or L is a misreading, and named.
    v.check((typed) => !/[01OIL]/.test(typed), "Codes have no 0, O, 1, I or L: check those characters."),
    v.regex(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{12}$/, "A download code has 12 letters and numbers, like ABCD-EFGH-JKMN"),
  ),
});
