// Stripe as the payment provider, with Crate as the seller of record: Checkout Sessions opened on Crate's
// own account (idempotent by the order's id, which travels in their metadata), what a session came to,
// refunds of one line's total, and the webhook's events, checked as Stripe signs them (the `stripe`
// package's Workers build checks signatures with Web Crypto). On a local run the client talks to the
// stand-in (stand-ins/stripe.ts).
import Stripe from "stripe";
import { formatCountry } from "~/lib/format";
import type {
  AppliableNews,
  CheckoutNews,
  CheckoutOrder,
  CheckoutTax,
  CheckoutOutcome,
  CheckoutPages,
  MembershipNews,
  PaymentEvent,
  PaymentNews,
  PaymentProvider,
  TaxInPrices,
  TaxPart,
  WebhookNews,
} from "../payment-provider";
import { stripeApiVersion, stripeClient, taxInPrices, type StripePaymentEnv } from "./client.server";
import { accountTakesTransfers } from "./accounts.server";
import { chargeSettlement } from "./settlements.server";
import type { platformEvents } from "./webhook-events";
import { cancelAtPeriodEnd, membershipSessionParams, paidInvoiceNews, sessionMembershipNews, subscriptionNews } from "./memberships.server";

/**
 * The Checkout Session of an order: each line at its total (cents from the database), its merch's shipping
 * as one fixed rate with the address taken in the country it was priced for alone, the order's id in its
 * metadata and as its reference, back to the return page or (letting go of the order) the cart, lapsing
 * when the database's hold on its stock ends. With `tax` (STRIPE_TAX), Stripe Tax works out the tax due where
 * the buyer is, from the address Checkout asks for: added on top of the prices, or included in them (the
 * order then keeps its lines before tax, record_order_tax); the shares are of the price before tax.
 */
/**
 * Stripe Tax's product tax codes for what Crate sells: a download is "Digital audio -- unlimited use" (a
 * digital audio work sold with unlimited usage rights), merch "General - Tangible Goods", and its postage
 * "Shipping" (Stripe's tax code list).
 */
export const taxCodes = { track: "txcd_10401100", album: "txcd_10401100", merch: "txcd_99999999", shipping: "txcd_92010001" } as const;

/** Stripe's tax behavior for each way prices relate to tax: the tax added on top, or included in them. */
const taxBehaviors = { added: "exclusive", included: "inclusive" } as const satisfies Record<TaxInPrices, "exclusive" | "inclusive">;

export function checkoutSessionParams(
  order: CheckoutOrder,
  { done, cancel, tax }: CheckoutPages & { tax: TaxInPrices | null },
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
        product_data: {
          name: `${line.title}${line.quantity > 1 ? ` × ${line.quantity}` : ""} · ${line.artist_name}`,
          ...(tax ? { tax_code: taxCodes[line.kind] } : {}),
        },
        ...(tax ? { tax_behavior: taxBehaviors[tax] } : {}),
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
                ...(tax ? { tax_behavior: taxBehaviors[tax], tax_code: taxCodes.shipping } : {}),
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
    cancel_url: cancel,
    // When the order's hold ends (the database's one bound, about the shortest Stripe allows): an abandoned
    // checkout lets go of its order soon, and none is paid after its hold is gone.
    expires_at: order.expires_at,
  };
}

/**
 * The events that say what a session came to, and the outcome each names (completed: the session says):
 * each checkout event the platform's endpoint is subscribed to (webhook-events.ts), and no other.
 */
const sessionEvents = {
  "checkout.session.completed": null,
  "checkout.session.async_payment_succeeded": "paid",
  "checkout.session.async_payment_failed": "failed",
  "checkout.session.expired": "expired",
} as const satisfies Record<Extract<(typeof platformEvents)[number], `checkout.session.${string}`>, CheckoutOutcome | null>;

type SessionEvent = Extract<Stripe.Event, { type: keyof typeof sessionEvents }>;

const isSessionEvent = (event: Stripe.Event): event is SessionEvent => event.type in sessionEvents;

/**
 * What a session says, as its order's news: the outcome its event names (`named`), or (the return page
 * asking, or a completed session's event) the session as it stands.
 */
function sessionNews(session: Stripe.Checkout.Session, named: CheckoutOutcome | null = null): CheckoutNews {
  const outcome: CheckoutOutcome | null =
    named ??
    (session.status === "expired"
      ? "expired"
      : session.status !== "complete"
        ? null
        : // A bank payment completes the session before its money lands (async_payment_succeeded says when).
          session.payment_status === "unpaid"
          ? "pending"
          : "paid");
  return {
    checkout: session.id,
    outcome,
    orderId: session.metadata?.order_id,
    payment: idOf(session.payment_intent) ?? undefined,
    country: session.customer_details?.address?.country ?? undefined,
    shippingAddress: shippingAddress(session),
  };
}

/** A line's or the shipping's tax as Stripe worked it out: its taxes summed (a US sale may owe a state's and a county's), named by the first. */
function taxPart(amount: number, taxes: readonly Stripe.LineItem.Tax[] | null | undefined): TaxPart {
  const rates = (taxes ?? []).filter((tax) => tax.amount > 0).map((tax) => tax.rate);
  return {
    amount,
    // Summed in thousandths of a percent, so 6.25 + 2.625 is 8.875, not 8.875000000000002.
    rate: rates.length > 0 ? rates.reduce((sum, rate) => sum + Math.round((rate.percentage ?? 0) * 1000), 0) / 1000 : null,
    name: rates[0]?.display_name ?? null,
    country: rates[0]?.country ?? null,
  };
}

/**
 * A paid session's news with the tax Stripe Tax added: each line item's (asked of Stripe with its taxes, in
 * the order the session listed them) and the shipping's. Nothing to add without Stripe Tax.
 */
async function withTax(stripe: Stripe, session: Stripe.Checkout.Session, news: CheckoutNews): Promise<CheckoutNews> {
  if (news.outcome !== "paid" || !session.automatic_tax.enabled) return news;
  const items = await stripe.checkout.sessions.listLineItems(session.id, { limit: 100, expand: ["data.taxes"] });
  const shipping = session.shipping_cost;
  const tax: CheckoutTax = {
    // Included in the prices, the lines' amounts held it: the order takes it out of them.
    included: items.data.some((item) => item.price?.tax_behavior === "inclusive"),
    lines: items.data.map((item) => taxPart(item.amount_tax, item.taxes)),
    shipping: shipping && shipping.amount_tax > 0 ? taxPart(shipping.amount_tax, shipping.taxes) : null,
  };
  return { ...news, tax };
}

/** Where the payment says the merch goes: the name and address Checkout collected. */
function shippingAddress(session: Stripe.Checkout.Session) {
  const details = session.collected_information?.shipping_details;
  if (!details) return undefined;
  const { line1, line2, city, postal_code: postalCode, state, country } = details.address;
  return { name: details.name, line1, line2, city, postal_code: postalCode, state, country };
}

const idOf = (value: string | { id: string } | null) => (typeof value === "string" ? value : (value?.id ?? null));

/**
 * A refunded charge's news, with the refund's id: `charge.refunded` no longer carries the charge's refunds
 * (Stripe stopped expanding them in API version 2022-11-15), so the newest is asked for. A refund made in
 * Stripe's Dashboard is then recorded with its id, as the marketplace's own are.
 */
async function refundNews(stripe: Stripe, charge: Stripe.Charge): Promise<PaymentNews | null> {
  const payment = idOf(charge.payment_intent);
  if (!payment) return null;
  const refundId = charge.refunds?.data[0]?.id ?? (await stripe.refunds.list({ charge: charge.id, limit: 1 })).data[0]?.id;
  return { payment, refunded: charge.amount_refunded, refundId };
}

/** A dispute's news, opened or closed. */
function disputeNews(dispute: Stripe.Dispute, closed: boolean): PaymentNews | null {
  const payment = idOf(dispute.payment_intent);
  if (!payment) return null;
  const { id, amount, currency, reason, status } = dispute;
  return { payment, dispute: { id, amount, currency, reason, status, closed } };
}

/** What a membership's event says, as its news; an event the marketplace does not act on when null (not a membership's). */
const membershipEventNews = (about: PaymentEvent, membership: MembershipNews | null): AppliableNews =>
  membership ? { event: about, membership } : { event: about, ignored: true };

/** What `payment` says, as an event's news; an event the marketplace does not act on when null. */
const paymentEventNews = (about: PaymentEvent, payment: PaymentNews | null): AppliableNews =>
  payment ? { event: about, payment } : { event: about, ignored: true };

const aboutEvent = (event: Stripe.Event): PaymentEvent => ({
  id: event.id,
  type: event.type,
  ...(event.account ? { account: event.account } : {}),
});

/**
 * One of Stripe's events as the webhook brings it. An event in another API version than the app's has
 * objects of another shape (a merch order's address, say, is `collected_information` only from
 * 2025-02-24): refused, to be sent again once its endpoint is set right.
 */
async function webhookNewsOf(stripe: Stripe, event: Stripe.Event): Promise<WebhookNews> {
  const about = aboutEvent(event);
  if (event.api_version !== stripeApiVersion)
    return {
      event: about,
      refused: `The webhook endpoint sends API version ${event.api_version ?? "(none)"}; the marketplace reads ${stripeApiVersion}. Set the endpoint's version (npm run stripe:setup).`,
    };
  if (event.type === "account.updated") {
    const account = event.data.object;
    return { event: about, payoutAccount: { id: account.id, ready: accountTakesTransfers(account) } };
  }
  if (isSessionEvent(event)) {
    const session = event.data.object;
    return { event: about, checkout: await withTax(stripe, session, sessionNews(session, sessionEvents[event.type])) };
  }
  if (event.type === "charge.refunded") return paymentEventNews(about, await refundNews(stripe, event.data.object));
  if (event.type === "charge.dispute.created" || event.type === "charge.dispute.closed")
    return paymentEventNews(about, disputeNews(event.data.object, event.type === "charge.dispute.closed"));
  if (event.type === "invoice.paid") return membershipEventNews(about, await paidInvoiceNews(stripe, event.data.object));
  if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted")
    return membershipEventNews(about, subscriptionNews(event.data.object, event.type === "customer.subscription.deleted"));
  return { event: about, ignored: true };
}

/**
 * One of Stripe's events asked for again (an administrator's "Apply again"). Stripe renders an event asked
 * for in the API version its account had when the event was made, not the app's ("rendered according to
 * Stripe API version at its creation time", the Events reference), and an old event may say what is no
 * longer so (an account not ready since made ready): what it names is read again, as it stands now, in the
 * app's version.
 */
async function eventNewsNow(stripe: Stripe, event: Stripe.Event): Promise<AppliableNews> {
  const about = aboutEvent(event);
  const named = "id" in event.data.object && typeof event.data.object.id === "string" ? event.data.object.id : null;
  if (!named) return { event: about, ignored: true };
  if (event.type === "account.updated") {
    const account = await stripe.accounts.retrieve(named);
    return { event: about, payoutAccount: { id: account.id, ready: accountTakesTransfers(account) } };
  }
  if (isSessionEvent(event)) {
    const session = await stripe.checkout.sessions.retrieve(named);
    return { event: about, checkout: await withTax(stripe, session, sessionNews(session, sessionEvents[event.type])) };
  }
  if (event.type === "charge.refunded") return paymentEventNews(about, await refundNews(stripe, await stripe.charges.retrieve(named)));
  if (event.type === "charge.dispute.created" || event.type === "charge.dispute.closed")
    return paymentEventNews(about, disputeNews(await stripe.disputes.retrieve(named), event.type === "charge.dispute.closed"));
  if (event.type === "invoice.paid")
    return membershipEventNews(about, await paidInvoiceNews(stripe, await stripe.invoices.retrieve(named, { expand: ["payments"] })));
  if (event.type === "customer.subscription.updated" || event.type === "customer.subscription.deleted")
    return membershipEventNews(
      about,
      subscriptionNews(await stripe.subscriptions.retrieve(named), event.type === "customer.subscription.deleted"),
    );
  return { event: about, ignored: true };
}

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** Stripe as a payment provider, or null when payments are not configured (no secret key, or no webhook secret). */
export function stripePayments(env: StripePaymentEnv): PaymentProvider | null {
  const stripe = env.STRIPE_WEBHOOK_SECRET ? stripeClient(env) : null;
  if (!stripe) return null;
  return {
    async openCheckout(order, pages) {
      const session = await stripe.checkout.sessions.create(checkoutSessionParams(order, { ...pages, tax: taxInPrices(env) }), {
        idempotencyKey: `checkout-${order.order_id}`,
      });
      if (!session.url) throw new Error(`Stripe opened checkout ${session.id} without a payment page`);
      return { checkout: session.id, url: session.url };
    },
    async checkoutNews(checkout) {
      if (!/^cs_\w+$/.test(checkout)) return null;
      const session = await stripe.checkout.sessions.retrieve(checkout);
      if (session.mode === "subscription")
        return { ...sessionNews(session), membership: (await sessionMembershipNews(stripe, session)) ?? undefined };
      return withTax(stripe, session, sessionNews(session));
    },
    async expireCheckout(checkout) {
      try {
        return sessionNews(await stripe.checkout.sessions.expire(checkout));
      } catch (refused) {
        console.warn("Stripe kept checkout open", checkout, refused);
        return null;
      }
    },
    async paymentSettlement(payment) {
      const { currency, amount, fee, exchangeRate } = await chargeSettlement(stripe, payment);
      return { currency, amount, fee, exchangeRate };
    },
    async refundLine(line) {
      const refund = await stripe.refunds.create(
        { payment_intent: line.payment, amount: line.amount, metadata: { order_line_id: line.id } },
        { idempotencyKey: `refund-${line.id}` },
      );
      return refund.id;
    },
    /**
     * The event a webhook request carries, checked as Stripe signs it (`Stripe-Signature`, HMAC-SHA256 of
     * its timestamp and body with the endpoint's secret, at most five minutes old). Two endpoints may send
     * to this one address, each with its own secret: the platform's own events, and Connect's events on the
     * artists' accounts (`STRIPE_CONNECT_WEBHOOK_SECRET`).
     */
    async webhookNews(request, body) {
      const signature = request.headers.get("Stripe-Signature");
      if (!signature) return null;
      for (const secret of [env.STRIPE_WEBHOOK_SECRET, env.STRIPE_CONNECT_WEBHOOK_SECRET]) {
        if (!secret) continue;
        let event: Stripe.Event;
        try {
          event = await stripe.webhooks.constructEventAsync(body, signature, secret, 300, cryptoProvider);
        } catch {
          // Not this endpoint's: the next secret, if any.
          continue;
        }
        return webhookNewsOf(stripe, event);
      }
      return null;
    },
    /** An event asked of Stripe again (kept there 30 days), a connected account's on its behalf. */
    async eventNews(eventId, account) {
      try {
        return await eventNewsNow(stripe, await stripe.events.retrieve(eventId, {}, account ? { stripeAccount: account } : {}));
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
        throw error;
      }
    },
    /**
     * Idempotent by the fan, tier, interval and amount within the hour: a form sent twice opens one payment
     * page, and one chosen again later opens a new one.
     */
    async openMembershipCheckout(membership, pages) {
      const hour = new Date().toISOString().slice(0, 13);
      const session = await stripe.checkout.sessions.create(membershipSessionParams(membership, { ...pages, tax: taxInPrices(env) }), {
        idempotencyKey: `membership-${membership.fanId}-${membership.tierId}-${membership.interval}-${membership.amount}-${hour}`,
      });
      if (!session.url) throw new Error(`Stripe opened membership checkout ${session.id} without a payment page`);
      return { checkout: session.id, url: session.url };
    },
    async cancelMembership(subscription) {
      await cancelAtPeriodEnd(stripe, subscription);
    },
  };
}
