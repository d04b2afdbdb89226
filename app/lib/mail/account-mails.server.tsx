// Notices about an account, to the account's own address, that where its payouts go changed: its PayPal
// email (change_paypal_email, 02_accounts.sql, naming the new one partly hidden), its payout method
// (choose_payout_method) or its Stripe account (connect_stripe, 18_ledger.sql), so an owner who did not make
// the change sees it and can act before a payout goes there.
import { href } from "react-router";
import * as v from "valibot";
import type { Message } from "./mail.server";
import { rendered } from "./order-mails.server";

/** The notice as `mail_to_send` answers it: the new PayPal email partly hidden (none: removed). */
export const PaypalChangedMailToSend = v.object({
  id: v.string(),
  kind: v.literal("paypal_changed"),
  recipient: v.string(),
  sent: v.boolean(),
  paypal_email: v.nullable(v.string()),
});
type PaypalChangedMailToSend = v.InferOutput<typeof PaypalChangedMailToSend>;

/** The message for `mail`, its link on the site at `origin`. */
export function paypalChangedMail(mail: PaypalChangedMailToSend, origin: string): Message {
  const subject = "Your PayPal email was changed";
  const what = mail.paypal_email
    ? `The PayPal email of your Crate account was changed to ${mail.paypal_email}.`
    : "The PayPal email of your Crate account was removed.";
  const ifNotYou = "If you did not change it, reset your password at once, then set your PayPal email back in Payment Settings.";
  return notice(mail.recipient, subject, what, ifNotYou, origin);
}

/** The notices as `mail_to_send` answers them: the payout method chosen, or a Stripe account connected. */
const payoutChanged = {
  id: v.string(),
  recipient: v.string(),
  sent: v.boolean(),
  payout_method: v.nullable(v.picklist(["paypal", "stripe"])),
};
export const PayoutMethodChangedMailToSend = v.object({ kind: v.literal("payout_method_changed"), ...payoutChanged });
export const StripeConnectedMailToSend = v.object({ kind: v.literal("stripe_connected"), ...payoutChanged });
type PayoutChangedMailToSend = v.InferOutput<typeof PayoutMethodChangedMailToSend> | v.InferOutput<typeof StripeConnectedMailToSend>;

/** The message for `mail`, its link on the site at `origin`. */
export function payoutChangedMail(mail: PayoutChangedMailToSend, origin: string): Message {
  const subject =
    mail.kind === "stripe_connected"
      ? "A Stripe account was connected to your Crate payouts"
      : `Your payout method was changed to ${mail.payout_method === "stripe" ? "Stripe" : "PayPal"}`;
  const what =
    mail.kind === "stripe_connected"
      ? "A new Stripe account was connected to your Crate account. Once it is set up, sales paid out through Stripe go to it."
      : mail.payout_method === "stripe"
        ? "Your Crate payouts now go to your connected Stripe account."
        : "Your Crate payouts now go by PayPal, to the PayPal email in your Payment Settings.";
  const ifNotYou =
    "If you did not make this change, reset your password at once, then connect your own Stripe account or choose PayPal again in Payment Settings.";
  return notice(mail.recipient, subject, what, ifNotYou, origin);
}

/** A notice: what changed, and what to do if the account's owner did not change it, with the reset link. */
function notice(recipient: string, subject: string, what: string, ifNotYou: string, origin: string): Message {
  const reset = new URL(href("/forgot-password"), origin).href;
  return rendered(
    recipient,
    subject,
    <>
      <h1>{subject}</h1>
      <p>{what}</p>
      <p>
        {ifNotYou} <a href={reset}>Reset your password</a>
      </p>
    </>,
    [subject, "", what, "", ifNotYou, reset],
  );
}
