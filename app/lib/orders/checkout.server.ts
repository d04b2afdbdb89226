// Paying: an order opened by the database from the cart (open_order: amounts from the catalog alone), a
// Stripe Checkout Session opened for it on Crate's own account (idempotent by the order's id, which
// travels in its metadata), and what Stripe says about a session applied to its order once
// (apply_checkout), whether the webhook or the return page hears it first.
import { href, type RouterContextProvider } from "react-router";
import type Stripe from "stripe";
import * as v from "valibot";
import { clientAddress, cloudflareContext } from "~/lib/http/context.server";
import { checkoutBackPass, readCheckoutBackPass } from "~/lib/http/signed-values.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { envFrom } from "~/lib/http/env.server";
import { queueMails } from "~/lib/mail/mail-queue.server";
import { queueDownloads } from "~/lib/media/rendition-queue.server";
import { stripeFrom } from "~/lib/payments/stripe.server";
import { vouchedClient } from "~/lib/session/session.server";
import { isUuid } from "~/lib/catalog/catalog";
import type { CartLine } from "~/lib/payments/cart";
import { asJson } from "~/lib/payments/cart.server";
import { formatCountry } from "~/lib/format";
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
    /** The buyer's earlier checkouts this one ended, to end with Stripe too. */
    ended: v.array(v.string()),
    lines: v.array(
      v.object({
        n: v.number(),
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

/** Where checking out leads: the payment page, the return page (nothing to pay), or why it could not start. */
export type CheckoutStart = { pay: string } | { refused: string };

/**
 * The checkout of a free order (a code took all of it), sold at once with no payment to wait for: a random
 * id, as unguessable as a Stripe session's, since the return page hands a guest's receipt link to whoever
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
  },
): Promise<CheckoutStart> {
  const stripe = stripeFrom(context);
  if (!stripe) return { refused: "Payment options will be available soon." };
  const backend = vouchedClient(context);
  const opened = await backend.rpc("open_order", {
    ...(lines ? { lines: lines.map(asJson) } : {}),
    codes,
    currency: currency ?? undefined,
    follow_artists: followArtists,
    waived_withdrawal: waivedWithdrawal,
    email,
    ship_to: shipTo ?? undefined,
    address: clientAddress(request) ?? undefined,
  });
  if (opened.error) {
    if (opened.error.code === "42501") return { refused: "This account cannot buy anything." };
    if (opened.error.code === sqlState.limitReached && opened.error.hint === "free guest orders")
      return { refused: "Too many free orders were sent to this email or from here. Please try again in an hour." };
    if (opened.error.code === sqlState.limitReached && opened.error.hint === "merch held")
      return {
        refused: `At most 10 of “${opened.error.details}” can be held in checkouts at once, and your open checkouts hold that many already. Buy fewer, or finish or close a checkout first.`,
      };
    if (opened.error.code === sqlState.limitReached)
      return { refused: "You have too many checkouts open. Finish or close one, or try again in a few minutes." };
    console.error("opening an order failed", opened.error);
    return { refused: "Your order could not be started. Please try again." };
  }
  const order = v.parse(OpenedOrderSchema, opened.data);
  if ("problems" in order) return { refused: "Some items cannot be bought as they are: see what each says." };
  await endSessions(stripe, order.ended);

  const origin = new URL(request.url).origin;
  const done = `${origin}${href("/checkout/done")}`;
  if (order.total === 0) {
    const session = freeCheckout();
    const attached = await backend.rpc("attach_checkout", { order_id: order.order_id, checkout_session: session });
    try {
      if (attached.error) throw new Error("keeping a free order's checkout failed", { cause: attached.error });
      await applyCheckout(request, context, { id: session }, "paid");
    } catch (error) {
      console.error("completing a free order failed", error);
      return { refused: "Your order could not be completed. Please try again." };
    }
    return { pay: `${done}?session_id=${session}` };
  }

  let session: Stripe.Checkout.Session;
  try {
    const back = await checkoutBackPass(envFrom(context).MARKETPLACE_SECRET, order.order_id);
    session = await stripe.checkout.sessions.create(
      checkoutSessionParams(order, { origin, done, back, tax: envFrom(context).STRIPE_TAX === "on" }),
      { idempotencyKey: `checkout-${order.order_id}` },
    );
  } catch (error) {
    console.error("opening a Stripe Checkout Session failed", error);
    return { refused: "The payment could not be started. Please try again." };
  }
  const attached = await backend.rpc("attach_checkout", { order_id: order.order_id, checkout_session: session.id });
  if (attached.error || !session.url) {
    console.error("keeping an order's checkout failed", attached.error);
    return { refused: "The payment could not be started. Please try again." };
  }
  return { pay: session.url };
}

/**
 * The buyer's earlier checkouts, which their new one ended in the database (their holds went back), ended
 * with Stripe too, so they can no longer be paid. One Stripe will not end (paid meanwhile in another tab)
 * stands: its payment lands on an ended order, whose merch is weighed again against the stock then, and
 * its discount codes against their uses (a use taken meanwhile by the new checkout is refunded).
 */
async function endSessions(stripe: Stripe, sessions: readonly string[]) {
  const ending = await Promise.allSettled(sessions.map((id) => stripe.checkout.sessions.expire(id)));
  ending.forEach((outcome, n) => {
    if (outcome.status === "rejected") console.warn("Stripe kept an ended checkout open", sessions[n], outcome.reason);
  });
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

type OpenedOrder = Extract<v.InferOutput<typeof OpenedOrderSchema>, { order_id: string }>;

/**
 * The Checkout Session of an order: each line at its total (cents from the database), its merch's shipping
 * as one fixed rate with the address taken in the country it was priced for alone, the order's id in its
 * metadata and as its reference, back to the return page or (letting go of the order) the cart, by the
 * way back signed for it (`back`), lapsing when the database's hold on its stock ends. With `tax`
 * (STRIPE_TAX=on), Stripe Tax adds the tax due where the buyer is on top of the prices (the shares are of
 * the price before tax), from the address Checkout asks for.
 */
export function checkoutSessionParams(
  order: OpenedOrder,
  { origin, done, back, tax }: { origin: string; done: string; back: string; tax: boolean },
): Stripe.Checkout.SessionCreateParams {
  const currency = order.currency.toLowerCase();
  const shipping = order.lines.reduce((sum, line) => sum + line.shipping, 0);
  return {
    mode: "payment",
    line_items: order.lines.map((line) => ({
      quantity: 1,
      price_data: {
        currency,
        unit_amount: line.total - line.shipping,
        product_data: { name: `${line.title}${line.quantity > 1 ? ` × ${line.quantity}` : ""} · ${line.artist_name}` },
        ...(tax ? { tax_behavior: "exclusive" as const } : {}),
      },
    })),
    ...(order.ship_to
      ? {
          shipping_address_collection: { allowed_countries: [order.ship_to] },
          shipping_options: [
            {
              shipping_rate_data: {
                type: "fixed_amount" as const,
                fixed_amount: { amount: shipping, currency },
                display_name: `Shipping to ${formatCountry(order.ship_to)}`,
                ...(tax ? { tax_behavior: "exclusive" as const } : {}),
              },
            },
          ],
        }
      : {}),
    ...(tax ? { automatic_tax: { enabled: true } } : {}),
    customer_email: order.email,
    client_reference_id: order.order_id,
    metadata: { order_id: order.order_id },
    // Its session id comes back in the address: the return page asks Stripe about it.
    success_url: `${done}?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}${href("/cart")}?${new URLSearchParams({ back })}`,
    // When the order's hold ends (the database's one bound, about the shortest Stripe allows): an abandoned
    // checkout lets go of its order soon, and none is paid after its hold is gone.
    expires_at: order.expires_at,
  };
}

/** The events of Stripe's that say what a session came to, and the outcome each names (completed: the session says). */
const sessionEvents = {
  "checkout.session.completed": null,
  "checkout.session.async_payment_succeeded": "paid",
  "checkout.session.async_payment_failed": "failed",
  "checkout.session.expired": "expired",
} as const;

type SessionEvent = Extract<Stripe.Event, { type: keyof typeof sessionEvents }>;

/** Whether a Stripe event is news of a Checkout Session's outcome. */
export const isSessionEvent = (event: Stripe.Event): event is SessionEvent => event.type in sessionEvents;

/**
 * What Stripe says about a session, as its order's outcome: as the event that says so names it, or (the
 * return page asking Stripe itself, or a completed session's event) as the session stands.
 */
function checkoutOutcome(session: Stripe.Checkout.Session, event?: SessionEvent): "paid" | "pending" | "failed" | "expired" | null {
  const named = event ? sessionEvents[event.type] : null;
  if (named) return named;
  if (session.status === "expired") return "expired";
  if (session.status !== "complete") return null;
  // A bank payment completes the session before its money lands (async_payment_succeeded says when).
  return session.payment_status === "unpaid" ? "pending" : "paid";
}

/** What Stripe's event says about a session, applied to its order (the event taken once). Throws as applyCheckout does. */
export async function settleCheckout(request: Request, context: Readonly<RouterContextProvider>, event: SessionEvent) {
  const outcome = checkoutOutcome(event.data.object, event);
  if (outcome) await applyCheckout(request, context, event.data.object, outcome, event);
}

/**
 * The return page's own word with Stripe: the session asked of Stripe (the webhook may not have arrived
 * yet) and what it says applied to its order, as the webhook applies it. Answers the outcome (null: Stripe
 * could not say, or nothing yet); an outcome not applied is left to the webhook, which applies the same news.
 */
export async function settleReturn(
  request: Request,
  context: Readonly<RouterContextProvider>,
  sessionId: string,
): Promise<"paid" | "pending" | "failed" | "expired" | null> {
  const stripe = stripeFrom(context);
  if (!stripe || !/^cs_\w+$/.test(sessionId)) return null;
  const session = await stripe.checkout.sessions.retrieve(sessionId).catch((error: unknown) => {
    console.error("asking Stripe about a checkout failed", sessionId, error);
    return null;
  });
  const outcome = session ? checkoutOutcome(session) : null;
  if (session && outcome) {
    await applyCheckout(request, context, session, outcome).catch((error: unknown) =>
      console.error("applying a checkout on its return page failed", sessionId, error),
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
 * Applies an outcome to a session's order through the marketplace: purchases made once when paid (and their
 * MP3s made), and the order's unsent mails (its receipt, "you sold") queued. `event`: the Stripe event that
 * said so (taken once); none when the return page asked Stripe itself. Throws when the database or the queue could not
 * (the webhook then answers 500, and Stripe sends it again: the mails still unsent are queued again).
 */
export async function applyCheckout(
  request: Request,
  context: Readonly<RouterContextProvider>,
  // A free order's checkout is its id alone (no payment, no buyer's details).
  session: Pick<Stripe.Checkout.Session, "id"> & Partial<Stripe.Checkout.Session>,
  outcome: "paid" | "pending" | "failed" | "expired",
  event?: Stripe.Event,
) {
  const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : (session.payment_intent?.id ?? undefined);
  const { data, error } = await vouchedClient(context).rpc("apply_checkout", {
    checkout_session: session.id,
    outcome,
    payment_intent: paymentIntent,
    country: session.customer_details?.address?.country ?? undefined,
    event_id: event?.id,
    event_type: event?.type,
    // News before the order kept its checkout finds the order by the id the session carries.
    order_id: isUuid(session.metadata?.order_id) ? session.metadata.order_id : undefined,
    shipping_address: shippingAddress(session),
  });
  if (error) throw new Error(`applying checkout ${session.id} failed`, { cause: error });
  const applied = v.parse(AppliedSchema, data);
  if (applied) await queueMails(context.get(cloudflareContext).env.MAIL, applied.mails);
  if (applied) await refundUndeliverable(request, context, applied.refunds);
  if (applied && "state" in applied && applied.state === "paid") prepareFiles(context, applied.order_id);
  return applied;
}

/**
 * The lines a payment paid for that cannot be delivered as sold (apply_checkout marked them: merch the
 * stock could no longer cover, or a discount code whose uses went to other orders meanwhile), refunded at
 * once the way an artist refunds a line: Stripe's refund (once per line), recorded, the buyer mailed. Throws while one is not refunded: the webhook then answers 500, and Stripe's next delivery of
 * the event hands the refunds still owed over again.
 */
async function refundUndeliverable(request: Request, context: Readonly<RouterContextProvider>, lineIds: readonly string[]) {
  for (const lineId of lineIds) {
    const outcome = await refundLine(request, context, lineId);
    if ("refused" in outcome) throw new Error(`refunding undeliverable line ${lineId} failed: ${outcome.refused}`);
  }
}

/** Where the payment says the merch goes: the name and address Checkout collected. */
function shippingAddress(session: Partial<Stripe.Checkout.Session>) {
  const details = session.collected_information?.shipping_details;
  if (!details) return undefined;
  const { line1, line2, city, postal_code: postalCode, state, country } = details.address;
  return { name: details.name, line1, line2, city, postal_code: postalCode, state, country };
}

/**
 * A checkout its buyer came back from without paying (`back`: the payment page's way back, signed for its
 * order), ended with Stripe and applied to its order at once: what the order held (the last of a merch
 * item, a code's last use) is let go now rather than when the checkout lapses. Only the buyer's own: the
 * signed-in buyer's, or a guest's whose way back this is (only the browser its checkout sent to the payment
 * page was given it; the database is told so by the order named in X-Guest-Order). Answers whether it
 * ended (nothing was charged): not for a way back not signed here, someone else's order, one paid or
 * closed, or a checkout Stripe will not end (the buyer paid in another tab: the payment stands).
 */
export async function endCheckout(request: Request, context: Readonly<RouterContextProvider>, back: string): Promise<boolean> {
  const stripe = stripeFrom(context);
  const orderId = await readCheckoutBackPass(envFrom(context).MARKETPLACE_SECRET, back);
  if (!stripe || !orderId) return false;
  const { data, error } = await vouchedClient(context, { guestOrder: orderId }).rpc("checkout_to_end", { order_id: orderId });
  if (error) throw new Error(`finding order ${orderId}'s checkout failed`, { cause: error });
  if (!data) return false;
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.expire(data);
  } catch (refused) {
    console.warn("Stripe kept checkout open", data, refused);
    return false;
  }
  await applyCheckout(request, context, session, "expired");
  return true;
}

/** What Stripe says about a payment after it was made: its charge refunded, or a dispute opened or closed. */
export type PaymentNews =
  | { paymentIntent: string; refunded: number; refundId?: string }
  | { paymentIntent: string; dispute: { id: string; amount: number; currency: string; reason: string; status: string; closed: boolean } };

/**
 * Applies news of a paid order's payment through the marketplace, once per event (a whole refund made in
 * Stripe's dashboard refunds every line; a dispute is recorded for administrators), then queues the
 * order's mails not sent yet (a refund's notice). Throws when the database or the queue could not.
 */
export async function applyPaymentNews(request: Request, context: Readonly<RouterContextProvider>, event: Stripe.Event, news: PaymentNews) {
  const { data, error } = await vouchedClient(context).rpc("apply_payment_news", {
    payment_intent: news.paymentIntent,
    event_id: event.id,
    event_type: event.type,
    ...("refunded" in news ? { refunded: news.refunded, refund_id: news.refundId } : { dispute: news.dispute }),
  });
  if (error) throw new Error(`applying ${event.type} ${event.id} failed`, { cause: error });
  const mails = v.parse(v.nullable(v.array(v.string())), data);
  if (mails) await queueMails(context.get(cloudflareContext).env.MAIL, mails);
}
