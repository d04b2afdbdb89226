// Paying: an order opened by the database from the cart (open_order: amounts from the catalog alone), a
// checkout opened for it with the payment provider (lib/providers; idempotent by the order's id, which
// travels with it), and what the provider says about a checkout applied to its order once
// (apply_checkout), whether the webhook or the return page hears it first.
import { href, type RouterContextProvider } from "react-router";
import * as v from "valibot";
import { clientAddress, cloudflareContext } from "~/lib/http/context.server";
import { checkoutBackPass, readCheckoutBackPass } from "~/lib/http/signed-values.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { envFrom } from "~/lib/http/env.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { queueDownloads } from "~/lib/media/rendition-queue.server";
import type { CheckoutNews, PaymentNews, PaymentProvider, WebhookNews } from "~/lib/providers/payment-provider";
import { checkoutProvider } from "~/lib/providers/payments.server";
import { vouchedClient } from "~/lib/session/session.server";
import { isUuid } from "~/lib/catalog/catalog";
import { cartKinds, type CartLine } from "~/lib/payments/cart";
import { asJson } from "~/lib/payments/cart.server";
import { smallestPayment } from "~/lib/payments/cart";
import { merchNotGiftable } from "~/lib/payments/gifts";
import { refundLine } from "./refunds.server";

const OpenedOrderSchema = v.union([
  v.object({
    order_id: v.string(),
    currency: v.string(),
    total: v.number(),
    email: v.string(),
    /** Where its merch goes (none without merch). */
    ship_to: v.nullable(v.string()),
    /** When its checkout lapses (Unix seconds): its hold ends then. */
    expires_at: v.number(),
    /** The buyer's earlier checkouts this one ended, to end with the provider too. */
    ended: v.array(v.string()),
    lines: v.array(
      v.object({
        n: v.number(),
        kind: v.picklist(cartKinds),
        title: v.string(),
        artist_name: v.string(),
        quantity: v.number(),
        shipping: v.number(),
        total: v.number(),
      }),
    ),
  }),
  v.object({ problems: v.array(v.object({ n: v.number(), title: v.nullable(v.string()), problem: v.string() })) }),
]);

/** Why the database refused a gift (check_gift's hints), as the buyer is told. */
const giftRefusals: Partial<Record<string, string>> = {
  "gift guest": "Log in to buy a gift: your account keeps it, so you can see whether it was claimed.",
  "gift merch": merchNotGiftable,
  "gift email": "Please enter the recipient’s email address.",
  "gift self": "A gift is for someone else: enter their email address, not yours.",
  "gift message": "A gift’s message is at most 500 characters.",
  "gift date": "Please choose a send date from today to 30 days ahead.",
};

/** Where checking out leads: the payment page, the return page (nothing to pay), or why it could not start. */
export type CheckoutStart = { pay: string } | { refused: string };

/**
 * The checkout of a free order (a code took all of it), sold at once with no payment to wait for: a random
 * id, as unguessable as a payment provider's, since the return page hands a guest's receipt link to whoever
 * brings it (never the order's id, which the artists of its lines see).
 */
const freeCheckout = () => `free_${crypto.randomUUID()}`;

/**
 * Checks out the cart's lines in `currency` (`lines`: a "Buy now"'s one item; null: the signed-in buyer's own
 * cart; no currency: the lines' own): the order, then the payment page to send the buyer to.
 */
export async function startCheckout(
  request: Request,
  context: Readonly<RouterContextProvider>,
  {
    lines,
    codes,
    currency,
    followArtists,
    waivedWithdrawal,
    email,
    shipTo,
    gift = null,
  }: {
    lines: CartLine[] | null;
    codes: string[];
    currency: string | null;
    followArtists: boolean;
    waivedWithdrawal: boolean;
    /** A guest's, where the receipt goes (an account's own is its email). */
    email?: string;
    /** The country the merch goes to (the payment then takes an address there alone). */
    shipTo: string | null;
    /** Every line a gift to this address, mailed on `send_on` (giftOf). */
    gift?: { email: string; message: string; send_on: string } | null;
  },
): Promise<CheckoutStart> {
  const payments = checkoutProvider(envFrom(context));
  if (!payments) return { refused: "Payment options will be available soon." };
  const backend = vouchedClient(context);
  const asked = await backend.rpc("open_order", {
    ...(lines ? { lines: lines.map(asJson) } : {}),
    codes,
    currency: currency ?? undefined,
    follow_artists: followArtists,
    waived_withdrawal: waivedWithdrawal,
    email,
    ship_to: shipTo ?? undefined,
    address: clientAddress(request) ?? undefined,
    ...(gift ? { gift } : {}),
  });
  if (asked.error) {
    const refusedGift = asked.error.code === sqlState.invalidParameter ? giftRefusals[asked.error.hint] : undefined;
    if (refusedGift) return { refused: refusedGift };
    if (asked.error.code === "42501") return { refused: "This account cannot buy anything." };
    if (asked.error.code === sqlState.limitReached && asked.error.hint === "free guest orders")
      return { refused: "Too many free orders were sent to this email or from here. Please try again in an hour." };
    if (asked.error.code === sqlState.limitReached && asked.error.hint === "minimum charge")
      return { refused: smallestPayment(asked.error.details) };
    if (asked.error.code === sqlState.limitReached && asked.error.hint === "merch held")
      return {
        refused: `At most 10 of “${asked.error.details}” can be held in checkouts at once, and your open checkouts hold that many already. Buy fewer, or finish or close a checkout first.`,
      };
    if (asked.error.code === sqlState.limitReached)
      return { refused: "You have too many checkouts open. Finish or close one, or try again in a few minutes." };
    console.error("opening an order failed", asked.error);
    return { refused: "Your order could not be started. Please try again." };
  }
  const order = v.parse(OpenedOrderSchema, asked.data);
  if ("problems" in order) return { refused: "Some items cannot be bought as they are: see what each says." };
  await endCheckouts(payments.provider, order.ended);

  const origin = new URL(request.url).origin;
  const done = `${origin}${href("/checkout/done")}`;
  if (order.total === 0) {
    const session = freeCheckout();
    const attached = await backend.rpc("attach_checkout", { order_id: order.order_id, checkout_session: session });
    try {
      if (attached.error) throw new Error("keeping a free order's checkout failed", { cause: attached.error });
      await applyCheckout(request, context, { checkout: session, outcome: "paid" });
    } catch (error) {
      console.error("completing a free order failed", error);
      return { refused: "Your order could not be completed. Please try again." };
    }
    return { pay: `${done}?session_id=${session}` };
  }

  let opened: { checkout: string; url: string };
  try {
    const back = await checkoutBackPass(envFrom(context).MARKETPLACE_SECRET, order.order_id);
    opened = await payments.provider.openCheckout(order, { done, cancel: `${origin}${href("/cart")}?${new URLSearchParams({ back })}` });
  } catch (error) {
    console.error("opening a checkout failed", error);
    return { refused: "The payment could not be started. Please try again." };
  }
  const attached = await backend.rpc("attach_checkout", {
    order_id: order.order_id,
    checkout_session: opened.checkout,
    provider: payments.name,
  });
  if (attached.error) {
    console.error("keeping an order's checkout failed", attached.error);
    return { refused: "The payment could not be started. Please try again." };
  }
  return { pay: opened.url };
}

/**
 * The buyer's earlier checkouts, which their new one ended in the database (their holds went back), ended
 * with the provider too, so they can no longer be paid. One it will not end (paid meanwhile in another tab)
 * stands: its payment lands on an ended order, whose merch is weighed again against the stock then, and
 * its discount codes against their uses (a use taken meanwhile by the new checkout is refunded).
 */
async function endCheckouts(provider: PaymentProvider, checkouts: readonly string[]) {
  await Promise.all(checkouts.map((checkout) => provider.expireCheckout(checkout)));
}

/**
 * A paid order's MP3s made (off the response), so each download is ready soon after paying; those made
 * already are not made again. Never as a checkout opens: opening checkouts must make nobody's files.
 */
function prepareFiles(context: Readonly<RouterContextProvider>, orderId: string) {
  const { env, ctx } = context.get(cloudflareContext);
  const preparing = (async () => {
    const { data, error } = await vouchedClient(context).rpc("prepare_order_files", { order_id: orderId });
    if (error) throw new Error("asking for an order's files failed", { cause: error });
    await queueDownloads(
      env.RENDITIONS,
      (data ?? []).map((trackId) => ({ trackId, format: "mp3" as const })),
    );
  })().catch((error: unknown) => console.error("making a paid order's files failed", orderId, error));
  ctx.waitUntil(preparing);
}

/**
 * What a provider's webhook says about a checkout, applied to its order (the event taken once); once paid,
 * what its payment added to the platform's balance kept for the books (payment_settled, once). Throws as
 * applyCheckout does, and while the provider cannot say the settlement: the event comes again.
 */
export async function settleCheckout(
  request: Request,
  context: Readonly<RouterContextProvider>,
  provider: PaymentProvider,
  { event, checkout }: Extract<WebhookNews, { checkout: CheckoutNews }>,
) {
  const { outcome, payment } = checkout;
  if (!outcome) return;
  await applyCheckout(request, context, { ...checkout, outcome }, event);
  if (outcome !== "paid" || !payment) return;
  const settlement = await provider.paymentSettlement(payment);
  const { error } = await vouchedClient(context).rpc("payment_settled", {
    payment_intent: payment,
    currency: settlement.currency,
    amount_cents: settlement.amount,
    fee_cents: settlement.fee,
    exchange_rate: settlement.exchangeRate ?? undefined,
  });
  if (error) throw new Error(`keeping payment ${payment}'s settlement failed`, { cause: error });
}

/**
 * The return page's own word with the provider: the checkout asked of it (the webhook may not have arrived
 * yet) and what it says applied to its order, as the webhook applies it. Answers the outcome (null: the
 * provider could not say, or nothing yet); an outcome not applied is left to the webhook, which applies the
 * same news.
 */
export async function settleReturn(
  request: Request,
  context: Readonly<RouterContextProvider>,
  checkout: string,
): Promise<CheckoutNews["outcome"]> {
  const provider = checkoutProvider(envFrom(context))?.provider;
  const news = await provider?.checkoutNews(checkout).catch((error: unknown) => {
    console.error("asking the payment provider about a checkout failed", checkout, error);
    return null;
  });
  const outcome = news?.outcome ?? null;
  if (news && outcome) {
    await applyCheckout(request, context, { ...news, outcome }).catch((error: unknown) =>
      console.error("applying a checkout on its return page failed", checkout, error),
    );
  }
  return outcome;
}

const AppliedSchema = v.nullable(
  v.union([
    v.object({ duplicate: v.literal(true), mails: v.array(v.string()), refunds: v.array(v.string()) }),
    v.object({
      order_id: v.string(),
      state: v.string(),
      buyer_id: v.nullable(v.string()),
      mails: v.array(v.string()),
      refunds: v.array(v.string()),
    }),
  ]),
);

/**
 * Applies a checkout's outcome to its order through the marketplace: purchases made once when paid (and
 * their MP3s made), and the order's unsent mails (its receipt, "you sold") queued. `event`: the provider's
 * event that said so (taken once); none when the return page asked the provider itself. Throws when the
 * database or the queue could not (the webhook then answers 500, and the provider sends it again: the
 * mails still unsent are queued again).
 */
export async function applyCheckout(
  request: Request,
  context: Readonly<RouterContextProvider>,
  // A free order's checkout is its id and outcome alone (no payment, no buyer's details).
  news: CheckoutNews & { outcome: NonNullable<CheckoutNews["outcome"]> },
  event?: WebhookNews["event"],
) {
  const { data, error } = await vouchedClient(context).rpc("apply_checkout", {
    checkout_session: news.checkout,
    outcome: news.outcome,
    payment_intent: news.payment,
    country: news.country,
    event_id: event?.id,
    event_type: event?.type,
    // News before the order kept its checkout finds the order by the id the checkout carries.
    order_id: isUuid(news.orderId) ? news.orderId : undefined,
    shipping_address: news.shippingAddress,
    tax: news.tax,
  });
  if (error) throw new Error(`applying checkout ${news.checkout} failed`, { cause: error });
  const applied = v.parse(AppliedSchema, data);
  if (applied) await queueMails(context.get(cloudflareContext).env.MAIL, applied.mails);
  if (applied) await refundUndeliverable(request, context, applied.refunds);
  if (applied && "state" in applied && applied.state === "paid") prepareFiles(context, applied.order_id);
  return applied;
}

/**
 * The lines a payment paid for that cannot be delivered as sold (apply_checkout marked them: merch the
 * stock could no longer cover, or a discount code whose uses went to other orders meanwhile), refunded at
 * once the way an artist refunds a line: the provider's refund (once per line), recorded, the buyer mailed.
 * Throws while one is not refunded: the webhook then answers 500, and the provider's next delivery of the
 * event hands the refunds still owed over again.
 */
async function refundUndeliverable(request: Request, context: Readonly<RouterContextProvider>, lineIds: readonly string[]) {
  for (const lineId of lineIds) {
    const outcome = await refundLine(request, context, lineId);
    if ("refused" in outcome) throw new Error(`refunding undeliverable line ${lineId} failed: ${outcome.refused}`);
  }
}

/**
 * A checkout its buyer came back from without paying (`back`: the payment page's way back, signed for its
 * order), ended with the provider and applied to its order at once: what the order held (the last of a merch
 * item, a code's last use) is let go now rather than when the checkout lapses. Only the buyer's own: the
 * signed-in buyer's, or a guest's whose way back this is (only the browser its checkout sent to the payment
 * page was given it; the database is told so by the order named in X-Guest-Order). Answers whether it
 * ended (nothing was charged): not for a way back not signed here, someone else's order, one paid or
 * closed, or a checkout the provider will not end (the buyer paid in another tab: the payment stands).
 */
export async function endCheckout(request: Request, context: Readonly<RouterContextProvider>, back: string): Promise<boolean> {
  const provider = checkoutProvider(envFrom(context))?.provider;
  const orderId = await readCheckoutBackPass(envFrom(context).MARKETPLACE_SECRET, back);
  if (!provider || !orderId) return false;
  const { data, error } = await vouchedClient(context, { guestOrder: orderId }).rpc("checkout_to_end", { order_id: orderId });
  if (error) throw new Error(`finding order ${orderId}'s checkout failed`, { cause: error });
  if (!data) return false;
  const ended = await provider.expireCheckout(data);
  if (!ended) return false;
  await applyCheckout(request, context, { ...ended, outcome: "expired" });
  return true;
}

/**
 * Applies news of a paid order's payment through the marketplace, once per event (a whole refund made in
 * the provider's dashboard refunds every line; a dispute is recorded for administrators), then queues the
 * order's mails not sent yet (a refund's notice). Throws when the database or the queue could not.
 */
export async function applyPaymentNews(
  context: Readonly<RouterContextProvider>,
  { event, payment }: Extract<WebhookNews, { payment: PaymentNews }>,
) {
  const { data, error } = await vouchedClient(context).rpc("apply_payment_news", {
    payment_intent: payment.payment,
    event_id: event.id,
    event_type: event.type,
    ...("refunded" in payment ? { refunded: payment.refunded, refund_id: payment.refundId } : { dispute: payment.dispute }),
  });
  if (error) throw new Error(`applying ${event.type} ${event.id} failed`, { cause: error });
  const mails = v.parse(v.nullable(v.array(v.string())), data);
  if (mails) await queueMails(context.get(cloudflareContext).env.MAIL, mails);
}
