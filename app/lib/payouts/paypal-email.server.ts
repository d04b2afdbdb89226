// A PayPal email changed from Payment Settings (the artist's and the fan's): the database changes it only
// with the account's password (change_paypal_email, through the marketplace), and the account is told
// (payout-changes.server.ts).
import type { RouterContextProvider } from "react-router";
import { vouchedClient } from "~/lib/session/session.server";
import { changedWithPassword, passwordField, type PasswordRefused } from "./payout-changes.server";

/** The password field beside the PayPal email. */
export const paypalPasswordField = passwordField;

/**
 * The signed-in account's PayPal email set to `paypalEmail` (a fan's may be none) with `password`, and
 * the notice of it queued. Answers the refusal beside the password field (nothing changed) with its status.
 */
export async function changePaypalEmail(
  context: Readonly<RouterContextProvider>,
  paypalEmail: string | null,
  password: string,
): Promise<{ changed: true } | PasswordRefused> {
  const changed = await changedWithPassword(context, "change your PayPal email", password, () =>
    vouchedClient(context).rpc("change_paypal_email", { paypal_email: paypalEmail ?? "", password }),
  );
  return "refused" in changed ? changed : { changed: true };
}
