// The mails about an order, rendered from the order as the database keeps it (`mail_to_send`): the buyer's
// receipt (each line with its price, discounts, shipping and total, the artist's share, where to download,
// where the merch goes, the waived right of withdrawal), "you sold" to an artist (their lines, their share,
// and the address their merch goes to), the buyer's notice of a refund, and of a pre-order's new date. Each is HTML and plain text; React writes the HTML, so what a buyer or artist typed
// (titles, names) is escaped.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { href } from "react-router";
import * as v from "valibot";
import { formatCountry, formatDate, formatMoney, formatOrderReference, formatTax } from "~/lib/format";
import { waiverRecord } from "~/lib/payments/withdrawal";
import { addressLines, downloadPath, isDownload, itemLabel, shippingNote } from "~/lib/payments/cart";
import { soldKinds } from "~/lib/constants";
import { OrderTaxesSchema, ShippingAddressSchema, taxTotal } from "~/lib/schemas/checkout";
import type { Message } from "./mail.server";

const MailLine = v.object({
  id: v.string(),
  kind: v.picklist(soldKinds),
  quantity: v.number(),
  shipping: v.number(),
  item_id: v.nullable(v.string()),
  title: v.string(),
  artist_name: v.string(),
  amount: v.number(),
  discount_code: v.nullable(v.string()),
  code_discount: v.number(),
  bundle_discount: v.number(),
  total: v.number(),
  /** The tax on it, on top of its total: a refund gives both back. */
  tax: v.number(),
  artist_share: v.number(),
  refunded: v.boolean(),
  tracking: v.nullish(v.string()),
  /** Bought as a gift: the line is its recipient's once claimed, not the buyer's. */
  gift: v.optional(v.boolean()),
  /** A gift's recipient, on the buyer's receipt alone. */
  gift_for: v.nullish(v.string()),
});

/** A mail as `mail_to_send` answers it. */
export const MailToSend = v.object({
  id: v.string(),
  kind: v.picklist(["receipt", "sale", "refund", "shipped", "preorder_moved"]),
  recipient: v.string(),
  sent: v.boolean(),
  /** A pre-order moved: the day it comes out now (`YYYY-MM-DD`). */
  moved_to: v.nullish(v.string()),
  order: v.object({
    id: v.string(),
    currency: v.string(),
    total: v.number(),
    taxes: OrderTaxesSchema,
    paid_at: v.nullable(v.string()),
    buyer_email: v.string(),
    guest: v.boolean(),
    country: v.nullable(v.string()),
    waived_withdrawal: v.boolean(),
    ship_to: v.nullable(v.string()),
    shipping_address: v.nullable(ShippingAddressSchema),
  }),
  lines: v.array(MailLine),
});
export type MailToSend = v.InferOutput<typeof MailToSend>;
type Line = v.InferOutput<typeof MailLine>;

/**
 * The message for `mail`; `origin`: the site's address, for its links; `receiptLink`: a guest's order's
 * signed link (its downloads without an account).
 */
export function orderMail(mail: MailToSend, origin: string, receiptLink: string | null = null): Message {
  const money = (cents: number) => formatMoney(cents, mail.order.currency);
  const reference = formatOrderReference(mail.order.id);
  const link = (path: string) => new URL(path, origin).href;
  const download = (line: Line) => {
    const path = line.gift_for ? null : downloadPath(line.kind, line.item_id);
    return path === null ? null : link(path);
  };
  const address = addressLines(mail.order.shipping_address);
  const discountsOf = (line: Line) =>
    [
      line.code_discount > 0 ? `code ${line.discount_code ?? ""}: −${money(line.code_discount)}` : null,
      line.bundle_discount > 0 ? `bundle: −${money(line.bundle_discount)}` : null,
    ].filter((part) => part !== null);

  if (mail.kind === "receipt") {
    // The prices, and the tax on top of them.
    const paid = mail.order.total + taxTotal(mail.order.taxes);
    const bought = mail.lines.filter((line) => !line.refunded);
    const canDownload = !mail.order.guest && bought.some((line) => !line.gift_for && downloadPath(line.kind, line.item_id) !== null);
    const purchased = link(href("/dashboard/fan/purchased"));
    const gifts = mail.lines.filter((line) => line.gift_for && !line.refunded);
    const giftNote = `${gifts.length === 1 ? "This is a gift" : "These are gifts"}: on its send date we mail ${[...new Set(gifts.map((line) => line.gift_for))].join(", ")} a link to claim it. Until it is claimed you may send it again, give it to another address or have it refunded.`;
    const guestNote = `Your downloads, in any browser for 30 days: ${receiptLink}. An account with ${mail.order.buyer_email} can keep them: open the link signed in and choose "Add to my account".`;
    return rendered(
      mail.recipient,
      `Your Crate receipt ${reference}`,
      <>
        <h1>Thank you for your purchase</h1>
        <p>
          Order {reference}, {money(paid)} in all. Crate sold it to you; each artist receives the share shown.
        </p>
        <LinesList lines={mail.lines} money={money} discountsOf={discountsOf} download={canDownload ? download : null} />
        {mail.order.taxes.length > 0 ? (
          <p>
            {mail.order.taxes.map((tax) => (
              <span key={formatTax(tax)}>
                {formatTax(tax)}: {money(tax.amount)}
                <br />
              </span>
            ))}
          </p>
        ) : null}
        {gifts.length > 0 ? (
          <p>
            {giftNote} See whether it was claimed in <a href={purchased}>Purchased</a>.
          </p>
        ) : null}
        {canDownload ? (
          <p>
            Your downloads are also in <a href={purchased}>Purchased</a>.
          </p>
        ) : null}
        {receiptLink ? (
          <p>
            <a href={receiptLink}>Download what you bought</a>, in any browser, for 30 days. An account with {mail.order.buyer_email} can
            keep it: open the link signed in and choose “Add to my account”.
          </p>
        ) : null}
        {mail.order.ship_to ? <AddressBlock note={shippingNote(mail.order.ship_to)} address={address} /> : null}
        {mail.order.waived_withdrawal ? <p>{waiverRecord}</p> : null}
      </>,
      [
        `Thank you for your purchase. Order ${reference}, ${money(paid)} in all.`,
        "",
        ...mail.lines.map((line) => lineText(line, money, discountsOf, canDownload ? download : null)),
        ...mail.order.taxes.map((tax) => `${formatTax(tax)}: ${money(tax.amount)}`),
        ...(gifts.length > 0 ? ["", `${giftNote} ${purchased}`] : []),
        ...(canDownload ? ["", `Your downloads: ${purchased}`] : []),
        ...(receiptLink ? ["", guestNote] : []),
        ...(mail.order.ship_to ? ["", shippingNote(mail.order.ship_to), ...address] : []),
        ...(mail.order.waived_withdrawal ? ["", waiverRecord] : []),
      ],
    );
  }

  if (mail.kind === "sale") {
    const share = mail.lines.reduce((sum, line) => sum + line.artist_share, 0);
    const where = mail.order.country ? ` in ${formatCountry(mail.order.country)}` : "";
    const titles = mail.lines.map((line) => line.title).join(", ");
    const asGift = mail.lines.some((line) => line.gift) ? " as a gift" : "";
    const analytics = link(href("/dashboard/artist/analytics"));
    const shipsMerch = mail.lines.some((line) => line.kind === "merch") && address.length > 0;
    return rendered(
      mail.recipient,
      `You sold ${titles}`,
      <>
        <h1>You made a sale</h1>
        <p>
          A fan{where} bought {titles}
          {asGift} (order {reference}). Your share: <strong>{money(share)}</strong>.
        </p>
        <LinesList lines={mail.lines} money={money} discountsOf={discountsOf} download={null} />
        {shipsMerch ? <AddressBlock note="Please send the merch to:" address={address} /> : null}
        <p>
          See every sale in your <a href={analytics}>analytics</a>.
        </p>
      </>,
      [
        `A fan${where} bought ${titles}${asGift} (order ${reference}). Your share: ${money(share)}.`,
        "",
        ...mail.lines.map((line) => lineText(line, money, discountsOf, null)),
        ...(shipsMerch ? ["", "Please send the merch to:", ...address] : []),
        "",
        `Your analytics: ${analytics}`,
      ],
    );
  }

  if (mail.kind === "preorder_moved" && mail.moved_to) {
    const titles = mail.lines.map((line) => itemName(line)).join(", ");
    const sender = mail.lines[0]?.artist_name ?? "The artist";
    // Mail is read anywhere, so the day is written one way for all.
    const day = formatDate(mail.moved_to, "en-GB");
    const purchased = link(href("/dashboard/fan/purchased"));
    return rendered(
      mail.recipient,
      `${titles} moved to ${day}`,
      <>
        <h1>Your pre-order has a new date</h1>
        <p>
          {sender} moved {titles} (order {reference}) to {day}. It is yours on that day: we will email you when it is out. Its instant
          downloads stay <a href={purchased}>yours</a> meanwhile.
        </p>
      </>,
      [
        `${sender} moved ${titles} (order ${reference}) to ${day}. It is yours on that day: we will email you when it is out.`,
        "",
        `Your purchases: ${purchased}`,
      ],
    );
  }

  if (mail.kind === "shipped") {
    const titles = mail.lines.map((line) => itemName(line)).join(", ");
    const tracking = mail.lines.find((line) => line.tracking)?.tracking;
    const sender = mail.lines[0]?.artist_name ?? "The artist";
    return rendered(
      mail.recipient,
      `${titles} is on its way`,
      <>
        <h1>Your merch is on its way</h1>
        <p>
          {sender} sent {titles} (order {reference}).{tracking ? ` Tracking number: ${tracking}.` : ""}
        </p>
        {address.length > 0 ? <AddressBlock note="It goes to:" address={address} /> : null}
      </>,
      [
        `${sender} sent ${titles} (order ${reference}).${tracking ? ` Tracking number: ${tracking}.` : ""}`,
        ...(address.length > 0 ? ["", "It goes to:", ...address] : []),
      ],
    );
  }

  const refunded = mail.lines.reduce((sum, line) => sum + line.total + line.tax, 0);
  const titles = mail.lines.map((line) => line.title).join(", ");
  // A download refunded is no longer the buyer's; merch already on its way is theirs to keep or send back.
  const noLonger = mail.lines.some((line) => isDownload(line.kind)) ? "This item is no longer yours to download." : null;
  return rendered(
    mail.recipient,
    `Your refund for ${titles}`,
    <>
      <h1>Your refund</h1>
      <p>
        {money(refunded)} for {titles} (order {reference}) is on its way back to you. It can take 5 to 10 days to reach your account.
        {noLonger ? ` ${noLonger}` : null}
      </p>
    </>,
    [
      `${money(refunded)} for ${titles} (order ${reference}) is on its way back to you. It can take 5 to 10 days to reach your account.`,
      ...(noLonger ? [noLonger] : []),
    ],
  );
}

/**
 * The lines, one block each: the item, then its figures as a sentence that wraps. A table of five columns
 * is wider than a phone (416 px at 390), so a mail reader would shrink or scroll it.
 */
function LinesList({
  lines,
  money,
  discountsOf,
  download,
}: {
  lines: Line[];
  money: (cents: number) => string;
  discountsOf: (line: Line) => string[];
  download: ((line: Line) => string | null) | null;
}) {
  return (
    <div style={{ borderTop: rule }}>
      {lines.map((line) => {
        const discounts = discountsOf(line);
        const link = line.refunded ? null : download?.(line);
        return (
          <div key={line.id} style={{ borderBottom: rule, padding: "8px 0" }}>
            <p style={{ margin: 0 }}>
              <strong>{itemName(line)}</strong> · {line.artist_name}
              {line.gift_for ? ` · a gift for ${line.gift_for}` : null}
              {line.refunded ? " (refunded)" : null}
              {link ? (
                <>
                  {" "}
                  <a href={link}>Download</a>
                </>
              ) : null}
            </p>
            <p style={{ margin: "4px 0 0" }}>
              Price {money(line.amount)}
              {discounts.length > 0 ? <span> · Discount {discounts.join(", ")}</span> : null}
              {line.shipping > 0 ? ` · Shipping ${money(line.shipping)}` : null} · Paid <strong>{money(line.total)}</strong> · Artist’s
              share {money(line.artist_share)}
            </p>
          </div>
        );
      })}
    </div>
  );
}

const rule = "1px solid #ddd";

function lineText(
  line: Line,
  money: (cents: number) => string,
  discountsOf: (line: Line) => string[],
  download: ((line: Line) => string | null) | null,
) {
  const discounts = discountsOf(line);
  const link = line.refunded ? null : download?.(line);
  return [
    `${itemName(line)} · ${line.artist_name}${line.gift_for ? ` (a gift for ${line.gift_for})` : ""}: ${money(line.total)}${discounts.length ? ` (price ${money(line.amount)}; ${discounts.join(", ")})` : ""}${line.shipping > 0 ? ` (shipping ${money(line.shipping)})` : ""}; artist’s share ${money(line.artist_share)}${line.refunded ? " (refunded)" : ""}`,
    ...(link ? [`  Download: ${link}`] : []),
  ].join("\n");
}

/** A line's item as a mail names it: its title, and how many of merch. */
const itemName = (line: Line) => (line.quantity > 1 ? `${line.title} (${itemLabel(line.kind, line.quantity)})` : line.title);

function AddressBlock({ note, address }: { note: string; address: string[] }) {
  return (
    <>
      <p>{note}</p>
      {address.length > 0 ? (
        <p>
          {address.map((part, index) => (
            <span key={index}>
              {index > 0 ? <br /> : null}
              {part}
            </span>
          ))}
        </p>
      ) : null}
    </>
  );
}

/** A message from its body as React (escaped) and as lines of plain text, with the site's sign-off. */
export function rendered(to: string, subject: string, body: ReactNode, text: string[]): Message {
  const html = `<!doctype html>${renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <title>{subject}</title>
      </head>
      {/* As wide as the screen and no wider: a long address or link wraps rather than widening the mail. */}
      <body style={{ fontFamily: "system-ui, sans-serif", color: "#111", maxWidth: "40rem", overflowWrap: "anywhere" }}>
        {body}
        <p style={{ color: "#555", fontSize: "13px" }}>Crate, the marketplace for independent artists.</p>
      </body>
    </html>,
  )}`;
  return { to, subject, html, text: `${text.join("\n")}\n\nCrate, the marketplace for independent artists.\n` };
}
