// The mail queue: the pages and the announcement job queue the ids of mails the database wrote (a paid
// order's receipt and "you sold", a gift's claim link, a refund's notice, a receipt sent again, release mail, a newsletter
// signup's confirmation), and the media Worker, which runs the marketplace's jobs (workers/media.ts),
// renders each from the order as it is then and sends it, one batch at a time and no faster than the
// provider's rate. A send the provider refuses for its rate limit waits as long as it asks and counts as no
// failure; a provider that fails is retried with back-off, and after the last retry the mail is marked given
// up (the dead-letter queue) for an administrator to send again. The mail stays unsent in the database
// meanwhile, so a slow or failing provider never fails an order and no mail is dropped.
// Sent at most once: a mail marked sent is skipped, and its id is the provider's idempotency key, so two
// deliveries of one message at once still make one mail.
import { href } from "react-router";
import * as v from "valibot";
import { receiptPass } from "~/lib/http/signed-values.server";
import { marketplaceClient, type MarketplaceClient } from "~/lib/backend/marketplace-client.server";
import { MailEnvSchema, MailRateLimited, mailOn, sendMail } from "./mail.server";
import { failedMailQueue } from "./mail-queue-names";
import { MailToSend, orderMail } from "./order-mails.server";
import { NewsletterMailToSend, newsletterMail } from "./newsletter-mails.server";
import { ReleaseMailToSend, releaseMail } from "./release-mails.server";
import { GiftMailToSend, giftMail } from "./gift-mails.server";
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
  GiftMailToSend,
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
  if (mail.kind === "gift") return giftMail(mail, origin, secret);
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

/** At most so many messages go in one `sendBatch` (Cloudflare Queues' limit, 100). */
const messagesPerBatch = 100;

/**
 * Queues mails the database wrote, each after its `delaySeconds` if given (release mail, spread over
 * time). Their links go to the site's address as SITE_URL names it, never to the address a request came
 * in at (a forged Host would put another site's links into real mail). Throws when the queue cannot take them.
 */
export async function queueMails(queue: Queue, mails: readonly (string | { mail: string; delaySeconds: number })[]): Promise<void> {
  const messages = mails.map((mail) =>
    typeof mail === "string"
      ? { body: { mail } satisfies MailMessage, contentType: "json" as const }
      : { body: { mail: mail.mail } satisfies MailMessage, contentType: "json" as const, delaySeconds: mail.delaySeconds },
  );
  for (let start = 0; start < messages.length; start += messagesPerBatch)
    await queue.sendBatch(messages.slice(start, start + messagesPerBatch));
}

/** Seconds before the next attempt: a minute (`MAIL_RETRY_SECONDS`), doubling, at most an hour. */
const backOff = (attempts: number, first: number) => Math.min(first * 2 ** Math.max(attempts - 1, 0), 3600);

/** A Worker's binding of the mail queue (`MAIL`), as its variables are checked. */
export const mailQueueBinding = v.custom<Queue>(
  (value) => typeof value === "object" && value !== null && "sendBatch" in value,
  "no MAIL queue binding",
);

/** The consumer's variables: the sender's, and the mail queue, where a send the provider's rate limit refused goes back. */
const MailConsumerEnvSchema = v.object({ ...MailEnvSchema.entries, MAIL: mailQueueBinding });

let checked: v.InferOutput<typeof MailConsumerEnvSchema> | undefined;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * The mail queue's consumer (one batch at a time: `max_concurrency = 1`), and its dead letters'. Sends are
 * paced to the provider's rate (MAIL_REQUESTS_PER_SECOND): each takes at least its share of a second,
 * waiting after it, so batches one after another stay within the rate too.
 */
export async function handleMailBatch(batch: MessageBatch<unknown>, rawEnv: unknown): Promise<void> {
  const env = (checked ??= v.parse(MailConsumerEnvSchema, rawEnv));
  const backend = marketplaceClient(env);
  if (batch.queue === failedMailQueue) return giveUp(batch, backend);
  const share = 1000 / env.MAIL_REQUESTS_PER_SECOND;
  for (const [index, message] of batch.messages.entries()) {
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
      const started = Date.now();
      try {
        providerId = await sendMail(env, composed, `mail-${mail.id}`);
      } finally {
        await pause(started + share - Date.now());
      }
    } catch (sending) {
      if (sending instanceof MailRateLimited) {
        // Not the mail's failure: it and the rest of the batch wait as the provider asks, queued afresh so
        // the wait counts against none of their retries.
        await waitForTheProvider(batch.messages.slice(index), env.MAIL, sending.retryAfter);
        return;
      }
      failure = sending instanceof Error ? sending.message : String(sending);
      console.error("sending a mail failed; it is retried", mail.id, failure);
    }
    const recorded = await backend.rpc("mail_attempted", { mail_id: mail.id, provider_id: providerId, failure });
    // Unrecorded, a sent mail is sent again: the provider answers the same key with the first message.
    if (providerId && !recorded.error) message.ack();
    else message.retry({ delaySeconds: backOff(message.attempts, env.MAIL_RETRY_SECONDS) });
  }
}

/**
 * Messages the provider's rate limit held back, queued again after `retryAfter` seconds and taken off this
 * batch; where the queue refuses them, retried after the same wait instead.
 */
async function waitForTheProvider(messages: readonly Message<unknown>[], queue: Queue, retryAfter: number): Promise<void> {
  console.warn(`the mail provider is at its rate limit: ${messages.length} mails wait ${retryAfter} s`);
  try {
    await queue.sendBatch(messages.map((message) => ({ body: message.body, contentType: "json" as const, delaySeconds: retryAfter })));
    for (const message of messages) message.ack();
  } catch (queueing) {
    console.error("queueing mails held back by the rate limit failed; they are retried", queueing);
    for (const message of messages) message.retry({ delaySeconds: retryAfter });
  }
}

/**
 * A mail's message after its last retry (the dead-letter queue): the mail is marked given up, never
 * deleted, and administrators see it on their dashboard with "Send again" (`mail_given_up`).
 */
async function giveUp(batch: MessageBatch<unknown>, backend: MarketplaceClient): Promise<void> {
  for (const message of batch.messages) {
    const parsed = v.safeParse(MailMessage, message.body);
    if (!parsed.success) {
      message.ack();
      continue;
    }
    const { error } = await backend.rpc("mail_given_up", { mail_id: parsed.output.mail });
    if (error) {
      console.error("marking a mail given up failed; it is retried", parsed.output.mail, error);
      message.retry();
    } else {
      console.error("a mail was given up after its last retry", parsed.output.mail);
      message.ack();
    }
  }
}
