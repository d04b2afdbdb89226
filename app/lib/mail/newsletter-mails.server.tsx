// A newsletter signup's confirmation: the one mail a signup on an artist's page sends (19_notifications.sql,
// `newsletter_signup`). Its link is signed for this mail alone (signed-values.server.ts), so only the
// address's own inbox confirms: until then the address gets none of the artist's release mail.
import { href } from "react-router";
import * as v from "valibot";
import { newsletterPass } from "~/lib/http/signed-values.server";
import type { Message } from "./mail.server";
import { rendered } from "./order-mails.server";

/** A confirmation as `mail_to_send` answers it. */
export const NewsletterMailToSend = v.object({
  id: v.string(),
  kind: v.literal("newsletter_signup"),
  recipient: v.string(),
  sent: v.boolean(),
  artist_name: v.string(),
});
type NewsletterMailToSend = v.InferOutput<typeof NewsletterMailToSend>;

/** The signed confirmation link of the mail `mailId`, on the site at `origin`. */
export async function confirmationLink(secret: string, origin: string, mailId: string): Promise<string> {
  return new URL(href("/newsletter/:pass", { pass: await newsletterPass(secret, mailId) }), origin).href;
}

/** The message for `mail`, its link on the site at `origin`. */
export async function newsletterMail(mail: NewsletterMailToSend, origin: string, secret: string): Promise<Message> {
  const link = await confirmationLink(secret, origin, mail.id);
  const subject = `Confirm your subscription to ${mail.artist_name}’s news`;
  return rendered(
    mail.recipient,
    subject,
    <>
      <h1>Confirm your subscription</h1>
      <p>
        Someone, we hope you, signed up {mail.recipient} for {mail.artist_name}’s news on Crate: an email when they release new music.
      </p>
      <p>
        <a href={link}>
          <strong>Confirm my subscription</strong>
        </a>
      </p>
      <p style={{ color: "#555", fontSize: "13px" }}>Not you? Ignore this email: nothing is sent until the address confirms.</p>
    </>,
    [
      subject,
      "",
      `Someone, we hope you, signed up ${mail.recipient} for ${mail.artist_name}’s news on Crate: an email when they release new music.`,
      "",
      `Confirm my subscription: ${link}`,
      "",
      "Not you? Ignore this email: nothing is sent until the address confirms.",
    ],
  );
}
