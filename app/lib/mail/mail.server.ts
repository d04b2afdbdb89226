// Sending one message through Resend's HTTP API (`POST /emails`), the provider named for transactional
// mail: a fetch, no SDK. The mail's id is the `Idempotency-Key`, so a retried send is answered with the
// first send's id and no second message (Resend keeps keys 24 hours). On a local run MAIL_API_URL points
// it at the stand-in (stand-ins/mail.ts), which speaks the same API.
import * as v from "valibot";
import { backendVariables } from "~/lib/http/backend-env";

/**
 * The provider's rate limit, in requests a second (`MAIL_REQUESTS_PER_SECOND`, 2 when unset): Resend's
 * default is 2 per team, across its API keys (https://resend.com/docs/api-reference/rate-limit). The
 * consumer sends no faster; release mail is spread at half of it, so receipts queued meanwhile go first.
 */
export const mailRate = v.pipe(v.optional(v.string(), "2"), v.toNumber(), v.minValue(0.01));

/** The mail consumer's variables (the media Worker's, wrangler.media.toml and its deployment), checked once per isolate. */
export const MailEnvSchema = v.object({
  ...backendVariables,
  /**
   * Resend's API key, and the sender (`Crate <receipts@your-domain>`, a domain verified with Resend).
   * Without the key, mails are kept unsent in the database and nothing is sent. `MAIL_API_URL` points the
   * sender at another address (the local stand-in); unset, it is Resend's.
   */
  RESEND_API_KEY: v.optional(v.string()),
  MAIL_FROM: v.optional(v.string(), "Crate <receipts@crate.localhost>"),
  MAIL_API_URL: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())])),
  /** The site's address, which every mail's links go to (`https://<your-domain>`). */
  SITE_URL: v.pipe(v.string("SITE_URL is not set: mail links need the site's address"), v.url()),
  /** The first retry's delay in seconds after the provider failed a mail (60 when unset), doubling with each attempt. */
  MAIL_RETRY_SECONDS: v.pipe(v.optional(v.string(), "60"), v.toNumber(), v.minValue(0)),
  MAIL_REQUESTS_PER_SECOND: mailRate,
});
type MailEnv = v.InferOutput<typeof MailEnvSchema>;

/** A message; `headers`: more of its own (a release mail's List-Unsubscribe). */
export type Message = { to: string; subject: string; html: string; text: string; headers?: Record<string, string> };

const Sent = v.object({ id: v.string() });
const Refused = v.object({ message: v.string() });

/**
 * The provider refused a send for its rate limit (429): nothing went, and nothing is wrong with the mail.
 * `retryAfter`: the seconds its `retry-after` header asks to wait (at least 1).
 */
export class MailRateLimited extends Error {
  constructor(readonly retryAfter: number) {
    super(`the mail provider is at its rate limit: again in ${retryAfter} s`);
    this.name = "MailRateLimited";
  }
}

/** Whether mail can go out at all (a key is set); without it mails stay unsent in the database. */
export const mailOn = (env: MailEnv) => Boolean(env.RESEND_API_KEY);

/**
 * Sends `message` once per `key`: answers the provider's id; throws MailRateLimited for a 429, else an
 * error with the provider's reason.
 */
export async function sendMail(env: MailEnv, message: Message, key: string): Promise<string> {
  const response = await fetch(`${env.MAIL_API_URL || "https://api.resend.com"}/emails`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${env.RESEND_API_KEY}`,
      "Content-Type": "application/json",
      "Idempotency-Key": key,
    },
    body: JSON.stringify({
      from: env.MAIL_FROM,
      to: [message.to],
      subject: message.subject,
      html: message.html,
      text: message.text,
      ...(message.headers ? { headers: message.headers } : {}),
    }),
  });
  const answer: unknown = await response.json().catch(() => null);
  // Resend answers a send past its rate limit 429, with `retry-after` in seconds.
  if (response.status === 429) throw new MailRateLimited(Math.max(1, Math.ceil(Number(response.headers.get("retry-after")) || 1)));
  if (response.ok) return v.parse(Sent, answer).id;
  const reason = v.is(Refused, answer) ? answer.message : response.statusText;
  throw new Error(`the mail provider answered ${response.status}: ${reason}`);
}
