// Notices about an account, to the account's own address: its PayPal email changed (change_paypal_email,
// 02_accounts.sql), naming the new one partly hidden, so an owner who did not make the change sees it and
// can act before a payout goes there.
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
  const reset = new URL(href("/forgot-password"), origin).href;
  const what = mail.paypal_email
    ? `The PayPal email of your Crate account was changed to ${mail.paypal_email}.`
    : "The PayPal email of your Crate account was removed.";
  const ifNotYou = "If you did not change it, reset your password at once, then set your PayPal email back in Payment Settings.";
  return rendered(
    mail.recipient,
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
