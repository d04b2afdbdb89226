import * as v from "valibot";
import { genres, minimumPasswordLength, textLimits } from "~/lib/constants";
import { atMost } from "./text";

// One schema per form, used by the route action; the messages are the spec's (section 5).

export const email = v.pipe(v.string(), v.trim(), v.nonEmpty("Email is required"), v.email("Please enter a valid email address"));
const password = v.pipe(v.string(), v.nonEmpty("Password is required"));
const newPassword = v.pipe(
  v.string(),
  v.nonEmpty("Password is required"),
  v.minLength(minimumPasswordLength, `Password must be at least ${minimumPasswordLength} characters`),
);
const checkbox = v.optional(v.picklist(["on", "true"]));
const termsAccepted = v.pipe(
  v.optional(v.string(), ""),
  v.check((value) => value === "on" || value === "true", "You must agree to the Terms of Use and Privacy Policy"),
);
const genreList = v.optional(v.array(v.picklist(genres, "Please choose genres from the list")), []);

const passwordsDoNotMatch = "Passwords do not match";
const samePasswords = (input: { password: string; confirmPassword: string }) => input.password === input.confirmPassword;

export const LoginSchema = v.object({
  email,
  password,
  remember: checkbox,
  redirectTo: v.optional(v.string()),
});

export const ArtistSignUpSchema = v.pipe(
  v.object({
    email,
    password: newPassword,
    confirmPassword: v.pipe(v.string(), v.nonEmpty("Please confirm your password")),
    artistName: v.pipe(v.string(), v.trim(), v.nonEmpty("Artist name is required"), atMost(textLimits.artistName, "Artist name")),
    paypalEmail: v.pipe(
      v.string(),
      v.trim(),
      v.nonEmpty("PayPal email is required"),
      v.email("PayPal email must be a valid email address"),
    ),
    bio: v.optional(v.pipe(v.string(), v.trim(), atMost(textLimits.artistBio, "Bio")), ""),
    genres: genreList,
    terms: termsAccepted,
  }),
  v.forward(v.partialCheck([["password"], ["confirmPassword"]], samePasswords, passwordsDoNotMatch), ["confirmPassword"]),
);

export const FanSignUpSchema = v.pipe(
  v.object({
    email,
    username: v.pipe(v.string(), v.trim(), v.nonEmpty("Username is required"), atMost(textLimits.username, "Username")),
    password: newPassword,
    confirmPassword: v.pipe(v.string(), v.nonEmpty("Please confirm your password")),
    favoriteGenres: genreList,
    terms: termsAccepted,
  }),
  v.forward(v.partialCheck([["password"], ["confirmPassword"]], samePasswords, passwordsDoNotMatch), ["confirmPassword"]),
);

export const ForgotPasswordSchema = v.object({ email });

export const ResetPasswordSchema = v.pipe(
  v.object({
    password: newPassword,
    confirmPassword: v.pipe(v.string(), v.nonEmpty("Please confirm your password")),
  }),
  v.forward(v.partialCheck([["password"], ["confirmPassword"]], samePasswords, passwordsDoNotMatch), ["confirmPassword"]),
);

/** Account settings: a new password needs the current one (checked again by Auth). */
export const ChangePasswordSchema = v.pipe(
  v.object({
    currentPassword: v.pipe(v.string(), v.nonEmpty("Please enter your current password")),
    password: newPassword,
    confirmPassword: v.pipe(v.string(), v.nonEmpty("Please confirm your password")),
  }),
  v.forward(v.partialCheck([["password"], ["confirmPassword"]], samePasswords, passwordsDoNotMatch), ["confirmPassword"]),
);

/** Account settings: the new address, confirmed by a link to it and one to the current address. */
export const ChangeEmailSchema = v.object({ email });

/** The account settings' Emails form: release mail on or off, at once or weekly; an artist's "you sold" on or off. */
export const EmailSettingsSchema = v.object({
  releaseEmails: checkbox,
  releaseDigest: v.picklist(["immediate", "weekly"], "Choose when release emails come"),
  saleEmails: checkbox,
});

/** `email_settings` as the settings pages read it (no row: everything on, at once). */
export const EmailSettingsRowSchema = v.object({
  release_emails: v.boolean(),
  release_digest: v.picklist(["immediate", "weekly"]),
  sale_emails: v.boolean(),
});
export type EmailSettings = v.InferOutput<typeof EmailSettingsRowSchema>;
