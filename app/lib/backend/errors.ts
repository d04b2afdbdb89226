// The one place where backend failures become the messages people read (spec section 8).
// Raw errors go to the log; users see these.
import { captchaFailedMessage } from "../http/captcha";
import { audioPreparing } from "~/lib/constants";
import { sqlState } from "./sqlstate";

export type BackendError = { code?: string | null; message?: string; status?: number; name?: string };

const tooManyAttempts = "Too many attempts. Please wait a few minutes and try again.";
const accountSuspended = (until: string | null) =>
  `This account has been suspended${until ? ` until ${until}` : ""}. If you think this is a mistake, please contact support.`;

const isRateLimited = (error: BackendError) =>
  error.status === 429 || error.code === "over_request_rate_limit" || error.code === "over_email_send_rate_limit";
const isUnavailable = (error: BackendError) => error.name === "AuthRetryableFetchError" || (error.status ?? 0) >= 500;

/** `suspendedUntil`: the end of a ban as the page shows dates, when the account is banned. */
export function signInErrorMessage(error: BackendError, suspendedUntil: string | null = null): string {
  if (error.code === "invalid_credentials" || error.message === "Invalid login credentials") return "Invalid email or password";
  if (error.code === "captcha_failed") return captchaFailedMessage;
  if (isRateLimited(error)) return tooManyAttempts;
  if (error.code === "user_banned") return accountSuspended(suspendedUntil);
  if (error.code === "email_not_confirmed") return "Please confirm your email address, then sign in.";
  if (isUnavailable(error)) return "Failed to sign in";
  return error.message || "Failed to sign in";
}

export function signUpErrorMessage(error: BackendError): string {
  if (error.code === "captcha_failed") return captchaFailedMessage;
  if (error.code === "weak_password") return error.message || "Please choose a stronger password";
  if (error.status === 422 || error.code === "user_already_exists" || error.code === "email_exists") {
    return "An account with this email already exists. Please log in instead.";
  }
  if (isRateLimited(error)) return tooManyAttempts;
  // The database refused to create the profile that goes with the account.
  if (isUnavailable(error) || error.code === "unexpected_failure") return "Registration failed. Please try again.";
  return error.message || "Registration failed. Please try again.";
}

export function passwordResetErrorMessage(error: BackendError): string {
  if (error.code === "captcha_failed") return captchaFailedMessage;
  if (isRateLimited(error)) return tooManyAttempts;
  if (error.code === "same_password") return "Your new password must be different from your current one.";
  if (error.code === "weak_password") return error.message || "Please choose a stronger password";
  return "We couldn't update your password. Please try again.";
}

/** Auth refused a new password because the current one (required outside a reset link) was wrong or missing. */
export function isWrongCurrentPassword(error: BackendError): boolean {
  return error.code === "current_password_invalid" || error.code === "current_password_required";
}

export function emailChangeErrorMessage(error: BackendError): string {
  if (error.code === "email_exists" || error.code === "user_already_exists") return "An account with this email already exists.";
  if (error.code === "validation_failed") return "Please enter a valid email address";
  if (isRateLimited(error)) return tooManyAttempts;
  return "We couldn't change your email. Please try again.";
}

// User administration: the admin-users and ban-user Edge Functions answer with a `code`.
const administrationMessages: Record<string, string> = {
  cannot_ban_yourself: "You cannot ban yourself",
  user_not_found: "This user no longer exists",
  not_an_admin: "You do not have permission to access this page",
  not_signed_in: "Your session has ended. Please log in again.",
  over_email_send_rate_limit: tooManyAttempts,
};

export function administrationErrorMessage(code: string | null): string {
  return (code && administrationMessages[code]) || "Something went wrong. Please try again.";
}

const databaseMessages: Record<string, string> = {
  [sqlState.notNullViolation]: "Data validation failed",
  [sqlState.uniqueViolation]: "A record with this information already exists",
  [sqlState.foreignKeyViolation]: "Referenced record does not exist",
  [sqlState.checkViolation]: "Data validation failed",
  [sqlState.insufficientPrivilege]: "You don't have permission to perform this action",
  // a bound of the catalog (the row names which; each form that can meet one says it in its own words)
  [sqlState.limitReached]: "You have reached a limit of the catalog",
  PGRST204: "Database schema has changed. Please refresh the page",
  [sqlState.undefinedTable]: "Database table not found",
  [sqlState.undefinedColumn]: "Database column not found",
};

/**
 * The spec's message for a database code. A value the database refused as out of its range or shape (class
 * 22: a number too large, a day that does not exist) reads as a validation failure. Any other failure
 * says only that it was the database's: its raw text goes to the log, never to the page.
 */
export function databaseErrorMessage(error: BackendError): string {
  if (error.code && databaseMessages[error.code]) return databaseMessages[error.code] ?? "";
  if (error.code?.startsWith("22")) return "Data validation failed";
  return "Database error: please try again later";
}

// Storage (spec section 8): by the HTTP status Storage answered with.
const storageMessages: Record<number, string> = {
  400: "Invalid file or request",
  401: "Unauthorized - please log in again",
  403: "You don't have permission to perform this action",
  409: "File already exists",
  413: "File is too large",
  415: "Unsupported file type",
  500: "Storage service error - please try again later",
};

export function storageErrorMessage(error: { status?: number; statusCode?: string | number; message?: string }): string {
  const status = Number(error.status ?? error.statusCode);
  return storageMessages[status] ?? (error.message || "Storage error occurred");
}

// Audio (spec section 8): the track-audio-url Edge Function answers with a `code`; the player reports
// its own failures by kind.
const audioUrlMessages: Record<string, string> = {
  no_audio_file: "This track does not have an audio file",
  audio_file_missing: "The audio file for this track is no longer available. Please contact the artist for assistance.",
  no_signed_url: "Audio file is currently unavailable",
  audio_unavailable: "Audio file is currently unavailable",
  // The track's stream is still being made (seconds after publishing): not an error of the listener's.
  audio_preparing: audioPreparing,
  track_not_found: "Track not found",
};

export function audioUrlErrorMessage(code: string | null | undefined): string {
  return (code && audioUrlMessages[code]) || "Unable to access audio file";
}
