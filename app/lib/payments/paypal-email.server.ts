// A PayPal email changed from Payment Settings (the artist's and the fan's): the payout address is what a
// stolen session would take first, so the database changes it only with the account's password
// (change_paypal_email, through the marketplace), and writes a notice to the account's own address, which
// is queued here.
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { sqlState } from "~/lib/backend/sqlstate";
import { cloudflareContext } from "~/lib/http/context.server";
import { marketplaceHeader } from "~/lib/http/env.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { supabaseContext } from "~/lib/session/session.server";

/** The password field beside the PayPal email, and what it says when the password is wrong. */
export const paypalPasswordField = "currentPassword";
export const wrongPassword = "Your current password is not right";

const ChangedSchema = v.union([v.object({ wrong_password: v.literal(true) }), v.object({ mail: v.nullable(v.string()) })]);

/**
 * The signed-in account's PayPal email set to `paypalEmail` (a fan's may be none) with `password`, and
 * the notice of it queued. Answers the refusal beside the password field (nothing changed) with its status.
 */
export async function changePaypalEmail(
  context: Readonly<RouterContextProvider>,
  paypalEmail: string | null,
  password: string,
): Promise<{ changed: true } | { refused: string; status: number }> {
  if (password === "") return { refused: "Please enter your current password to change your PayPal email", status: 400 };
  const { data, error } = await context
    .get(supabaseContext)
    .rpc("change_paypal_email", { paypal_email: paypalEmail ?? "", password })
    .setHeader(...marketplaceHeader(context));
  if (error?.code === sqlState.limitReached) {
    return { refused: "Too many wrong passwords. Please wait an hour and try again.", status: 429 };
  }
  if (error) throw new Error("changing a PayPal email failed", { cause: error });
  const answer = v.parse(ChangedSchema, data);
  if ("wrong_password" in answer) return { refused: wrongPassword, status: 400 };
  if (answer.mail) {
    // Changed already: a queue that fails leaves the notice unsent in the database, and the page says saved.
    await queueMails(context.get(cloudflareContext).env.MAIL, [answer.mail]).catch((queueing: unknown) =>
      console.error("queueing the PayPal email notice failed", answer.mail, queueing),
    );
  }
  return { changed: true };
}
