// The mail queue: the pages and the announcement job queue the ids of mails the database wrote (a paid
// order's receipt and "you sold", a refund's notice, a receipt sent again, release mail, a newsletter
// signup's confirmation), and the media Worker, which runs the marketplace's jobs
// (workers/media.ts), renders each from the order as it is then and sends it. A provider that fails is retried with back-off;
// the mail stays unsent in the database meanwhile, so a slow or failing provider never fails an order.
// Sent at most once: a mail marked sent is skipped, and its id is the provider's idempotency key, so two
// deliveries of one message at once still make one mail.
import { href } from "react-router";
import * as v from "valibot";
import { receiptPass } from "~/lib/http/signed-values.server";
import { marketplaceClient } from "~/lib/backend/marketplace-client.server";
import { MailEnvSchema, mailOn, sendMail } from "./mail.server";
import { MailToSend, orderMail } from "./order-mails.server";
import { NewsletterMailToSend, newsletterMail } from "./newsletter-mails.server";
import { ReleaseMailToSend, releaseMail } from "./release-mails.server";
import {
  PaypalChangedMailToSend,
  PayoutMethodChangedMailToSend,
  StripeConnectedMailToSend,
  paypalChangedMail,
  payoutChangedMail,
} from "./account-mails.server";

const AnyMailToSend = v.variant("kind", [
  MailToSend,
  ReleaseMailToSend,
  NewsletterMailToSend,
  PaypalChangedMailToSend,
  PayoutMethodChangedMailToSend,
  StripeConnectedMailToSend,
]);
type AnyMailToSend = v.InferOutput<typeof AnyMailToSend>;

/**
 * The message of `mail`, or null when nothing is left to say (every release it told of withdrawn or
 * unsubscribed from since); `origin`: the site's address as its setting names it, for the links.
 */
async function messageOf(mail: AnyMailToSend, origin: string, secret: string) {
  if (mail.kind === "releases") return mail.releases.length > 0 ? releaseMail(mail, origin, secret) : null;
  if (mail.kind === "paypal_changed") return paypalChangedMail(mail, origin);
  if (mail.kind === "payout_method_changed" || mail.kind === "stripe_connected") return payoutChangedMail(mail, origin);
  if (mail.kind === "newsletter_signup") return newsletterMail(mail, origin, secret);
  // A guest's receipt carries their order's signed link (its downloads, without an account).
  const receiptLink =
    mail.order.guest && mail.order.paid_at
      ? new URL(href("/receipt/:pass", { pass: await receiptPass(secret, mail.order.id, new Date(mail.order.paid_at), "mail") }), origin)
          .href
      : null;
  return orderMail(mail, origin, receiptLink);
}

// (Messages queued before mail took the site's address from its setting name an `origin`: it is ignored.)
const MailMessage = v.object({ mail: v.pipe(v.string(), v.uuid()) });
type MailMessage = v.InferOutput<typeof MailMessage>;

/**
 * Queues mails the database wrote. Their links go to the site's address as SITE_URL names it, never to the
 * address a request came in at (a forged Host would put another site's links into real mail). Throws when
 * the queue cannot take them.
 */
export async function queueMails(queue: Queue, mails: readonly string[]): Promise<void> {
  if (mails.length === 0) return;
  await queue.sendBatch(mails.map((mail) => ({ body: { mail } satisfies MailMessage, contentType: "json" as const })));
}

/** Seconds before the next attempt: a minute (`MAIL_RETRY_SECONDS`), doubling, at most an hour. */
const backOff = (attempts: number, first: number) => Math.min(first * 2 ** Math.max(attempts - 1, 0), 3600);

/** The queue's name (wrangler.toml produces to it, wrangler.media.toml consumes it). */
export const mailQueue = "marketplace-mail";

let checked: v.InferOutput<typeof MailEnvSchema> | undefined;

export async function handleMailBatch(batch: MessageBatch<unknown>, rawEnv: unknown): Promise<void> {
  const env = (checked ??= v.parse(MailEnvSchema, rawEnv));
  const backend = marketplaceClient(env);
  for (const message of batch.messages) {
    const parsed = v.safeParse(MailMessage, message.body);
    if (!parsed.success) {
      console.error("a mail message of an unknown shape was dropped", message.id);
      message.ack();
      continue;
    }
    if (!mailOn(env)) {
      // No provider: the mail stays unsent in the database (RESEND_API_KEY turns sending on).
      console.warn("mail is off (no RESEND_API_KEY): mail kept unsent", parsed.output.mail);
      message.ack();
      continue;
    }
    const { data, error } = await backend.rpc("mail_to_send", { mail_id: parsed.output.mail });
    if (error) {
      console.error("reading a mail failed", parsed.output.mail, error);
      message.retry({ delaySeconds: backOff(message.attempts, env.MAIL_RETRY_SECONDS) });
      continue;
    }
    if (data === null) {
      message.ack();
      continue;
    }
    const mail = v.parse(AnyMailToSend, data);
    if (mail.sent) {
      message.ack();
      continue;
    }
    let providerId: string | undefined;
    let failure: string | undefined;
    try {
      const composed = await messageOf(mail, new URL(env.SITE_URL).origin, env.MARKETPLACE_SECRET);
      if (!composed) {
        await backend.rpc("mail_attempted", { mail_id: mail.id, failure: "nothing left to tell" });
        message.ack();
        continue;
      }
      providerId = await sendMail(env, composed, `mail-${mail.id}`);
    } catch (sending) {
      failure = sending instanceof Error ? sending.message : String(sending);
      console.error("sending a mail failed; it is retried", mail.id, failure);
    }
    const recorded = await backend.rpc("mail_attempted", { mail_id: mail.id, provider_id: providerId, failure });
    // Unrecorded, a sent mail is sent again: the provider answers the same key with the first message.
    if (providerId && !recorded.error) message.ack();
    else message.retry({ delaySeconds: backOff(message.attempts, env.MAIL_RETRY_SECONDS) });
  }
}
