import * as v from "valibot";
import { currencies, genres } from "~/lib/constants";

// The fan space's forms (spec section 5; the fan's payment settings and profile). One schema per form.

const optionalText = v.pipe(
  v.optional(v.string(), ""),
  v.trim(),
  v.transform((value) => value || null),
);

/** PayPal email (optional: a fan may only ever buy) and the preferred currency. */
export const FanPaymentsSchema = v.object({
  paypalEmail: v.pipe(
    optionalText,
    v.check((value) => value === null || v.is(v.pipe(v.string(), v.email()), value), "PayPal email must be a valid email address"),
  ),
  currency: v.picklist(currencies, "Please choose USD, EUR or GBP"),
});

/** Username (required, as at sign-up), bio with emoji, favourite genres from the spec's list. */
export const FanProfileSchema = v.object({
  username: v.pipe(
    v.optional(v.string(), ""),
    v.trim(),
    v.nonEmpty("Username is required"),
    v.maxLength(50, "Username can be at most 50 characters"),
  ),
  bio: v.pipe(
    optionalText,
    v.check((value) => (value ?? "").length <= 2000, "Bio can be at most 2000 characters"),
  ),
  favoriteGenres: v.optional(v.array(v.picklist(genres, "Please choose genres from the list")), []),
});

/** The Like toggle on a track page. */
export const LikeSchema = v.object({ intent: v.picklist(["like", "unlike"], "Choose like or unlike") });
