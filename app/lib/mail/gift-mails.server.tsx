// A gift's mail to its recipient (written when its send date comes: at once when paid for today, else by
// the hourly job; again at the giver's "Send again" or to a new address): who gave what, the giver's
// message, and the signed link that claims it. React writes the HTML, so the giver's message is escaped.
import { href } from "react-router";
import * as v from "valibot";
import { cartKinds, itemLabel } from "~/lib/payments/cart";
import { giftPass } from "~/lib/http/signed-values.server";
import type { Message } from "./mail.server";
import { rendered } from "./order-mails.server";

/** The mail as `mail_to_send` answers it; `gift` is null once there is nothing to tell (claimed, refunded, given to another address). */
export const GiftMailToSend = v.object({
  id: v.string(),
  kind: v.literal("gift"),
  recipient: v.string(),
  sent: v.boolean(),
  gift: v.nullable(
    v.object({
      id: v.string(),
      link_version: v.number(),
      kind: v.picklist(cartKinds),
      title: v.string(),
      artist_name: v.nullable(v.string()),
      giver_name: v.string(),
      message: v.nullable(v.string()),
    }),
  ),
});
type GiftMailToSend = v.InferOutput<typeof GiftMailToSend>;

/** The message for `mail` (null: nothing left to tell), its claim link on the site at `origin`. */
export async function giftMail(mail: GiftMailToSend, origin: string, secret: string): Promise<Message | null> {
  const { gift } = mail;
  if (!gift) return null;
  const link = new URL(href("/gift/:pass", { pass: await giftPass(secret, gift.id, gift.link_version) }), origin).href;
  const what = `${gift.title}${gift.artist_name ? ` by ${gift.artist_name}` : ""} (${itemLabel(gift.kind).toLowerCase()})`;
  const subject = `${gift.giver_name} sent you a gift on Crate`;
  return rendered(
    mail.recipient,
    subject,
    <>
      <h1>A gift for you</h1>
      <p>
        {gift.giver_name} bought you {what}.
      </p>
      {gift.message ? (
        <blockquote style={{ borderLeft: "3px solid #ddd", margin: 0, paddingLeft: "12px" }}>{gift.message}</blockquote>
      ) : null}
      <p>
        <a href={link}>Claim your gift</a>: sign up or log in, and it is yours to play and download. The link is yours alone: once claimed,
        it claims nothing for anyone else.
      </p>
    </>,
    [
      `${gift.giver_name} bought you ${what}.`,
      ...(gift.message ? ["", gift.message] : []),
      "",
      `Claim your gift (sign up or log in, and it is yours to play and download): ${link}`,
    ],
  );
}
