// Sending one message through Resend's HTTP API (`POST /emails`), the provider named for transactional
// mail: a fetch, no SDK. The mail's id is the `Idempotency-Key`, so a retried send is answered with the
// first send's id and no second message (Resend keeps keys 24 hours). On a local run MAIL_API_URL points
// it at the stand-in (stand-ins/mail.ts), which speaks the same API.
import * as v from "valibot";
import type { AppEnv } from "~/lib/http/env.server";

export type Message = { to: string; subject: string; html: string; text: string };

const Sent = v.object({ id: v.string() });
const Refused = v.object({ message: v.string() });

/** Whether mail can go out at all (a key is set); without it mails stay unsent in the database. */
export const mailOn = (env: AppEnv) => Boolean(env.RESEND_API_KEY);

/** Sends `message` once per `key`: answers the provider's id; throws with the provider's reason. */
export async function sendMail(env: AppEnv, message: Message, key: string): Promise<string> {
  const response = await fetch(`${env.MAIL_API_URL || "https://api.resend.com"}/emails`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${env.RESEND_API_KEY}`,
      "Content-Type": "application/json",
      "Idempotency-Key": key,
    },
    body: JSON.stringify({ from: env.MAIL_FROM, to: [message.to], subject: message.subject, html: message.html, text: message.text }),
  });
  const answer: unknown = await response.json().catch(() => null);
  if (response.ok) return v.parse(Sent, answer).id;
  const reason = v.is(Refused, answer) ? answer.message : response.statusText;
  throw new Error(`the mail provider answered ${response.status}: ${reason}`);
}
