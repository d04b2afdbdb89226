// Changes to where an account's payouts go (its PayPal email, the payout method, its Stripe account): what
// a stolen session would take first, so the database makes each only with the account's password, through
// the marketplace, bounding wrong tries, and writes a notice to the account's own address, queued here.
import type { RouterContextProvider } from "react-router";
import * as v from "valibot";
import { sqlState } from "~/lib/backend/sqlstate";
import { cloudflareContext } from "~/lib/http/context.server";
import { queueMails } from "~/lib/mail/mail-queue.server";

/** The password field such a change is asked with, and what it says when the password is wrong. */
export const passwordField = "currentPassword";
export const wrongPassword = "Your current password is not right";

const ChangedSchema = v.union([
  v.object({ wrong_password: v.literal(true) }),
  v.object({ mail: v.nullable(v.string()), account: v.optional(v.nullable(v.string())) }),
]);

/** What the database answered a change made: the notice it wrote (none when nothing changed), and a Stripe account. */
export type Changed = { mail: string | null; account?: string | null | undefined };

/** Why nothing changed, said beside the password field, with the status to answer. */
export type PasswordRefused = { refused: string; status: number };

/**
 * Makes `change` (a call of the database's that takes the password) with `password`, and queues its notice;
 * `what` names the change in the words of "Please enter your current password to …". Answers the
 * refusal (nothing changed) when the password is missing or wrong, or tried too often. Throws otherwise.
 */
export async function changedWithPassword(
  context: Readonly<RouterContextProvider>,
  what: string,
  password: string,
  change: () => PromiseLike<{ data: unknown; error: { code: string; message: string } | null }>,
): Promise<Changed | PasswordRefused> {
  if (password === "") return { refused: `Please enter your current password to ${what}`, status: 400 };
  const { data, error } = await change();
  if (error?.code === sqlState.limitReached) {
    return { refused: "Too many wrong passwords. Please wait an hour and try again.", status: 429 };
  }
  if (error) throw new Error(`asked to ${what}, the database refused: ${error.message}`, { cause: error });
  const answer = v.parse(ChangedSchema, data);
  if ("wrong_password" in answer) return { refused: wrongPassword, status: 400 };
  if (answer.mail) {
    // Changed already: a queue that fails leaves the notice unsent in the database, and the page says saved.
    const mail = answer.mail;
    await queueMails(context.get(cloudflareContext).env.MAIL, [mail]).catch((queueing: unknown) =>
      console.error("queueing a payout notice failed", mail, queueing),
    );
  }
  return answer;
}
