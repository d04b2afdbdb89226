// A membership's subscription at Stripe, as the marketplace reads it: each paid invoice one period of a fan's
// membership (the fan, tier and interval named in the subscription's metadata, which Stripe copies to its
// invoices' `parent.subscription_details.metadata`), and the subscription set to end or ended. A
// subscription without them is not a membership's and is left alone.
import type Stripe from "stripe";
import type { CheckoutPages, MembershipCheckout, MembershipNews, TaxInPrices } from "../payment-provider";

/** The subscription metadata's keys that name whose membership it is. */
export const membershipMetadata = { fan: "fan_id", tier: "membership_tier_id", interval: "membership_interval" } as const;

const intervalOf = (value: string | undefined) => (value === "month" || value === "year" ? value : null);

/**
 * A paid invoice of a membership's subscription: its amount before tax (paid less the taxes, whether they
 * were added or included: `total_taxes`), the period its line bills, and the payment intent that paid it,
 * asked for (`payments` is includable, not sent in the event: "Invoice payments", API version 2025-03-31).
 */
export async function paidInvoiceNews(stripe: Stripe, invoice: Stripe.Invoice): Promise<MembershipNews | null> {
  const details = invoice.parent?.subscription_details;
  const metadata = details?.metadata ?? {};
  const fanId = metadata[membershipMetadata.fan];
  const tierId = metadata[membershipMetadata.tier];
  const interval = intervalOf(metadata[membershipMetadata.interval]);
  const line = invoice.lines.data[0];
  if (!details || !fanId || !tierId || !interval || !line || !invoice.id) return null;
  const subscription = typeof details.subscription === "string" ? details.subscription : details.subscription.id;
  const tax = (invoice.total_taxes ?? []).reduce((sum, part) => sum + part.amount, 0);
  const withPayments = invoice.payments ? invoice : await stripe.invoices.retrieve(invoice.id, { expand: ["payments"] });
  const paid = withPayments.payments?.data.find((payment) => payment.status === "paid") ?? withPayments.payments?.data[0];
  const intent = paid?.payment.payment_intent;
  return {
    paid: {
      invoice: invoice.id,
      subscription,
      fanId,
      tierId,
      interval,
      amount: invoice.amount_paid - tax,
      tax,
      currency: invoice.currency,
      periodEnd: line.period.end,
      payment: typeof intent === "string" ? intent : (intent?.id ?? null),
      country: invoice.customer_address?.country ?? null,
    },
  };
}

/**
 * A membership's subscription as it stands: ended once canceled (deleted: "customer.subscription.deleted"),
 * leaving while set to cancel at its period's end, else active (the cancel taken back).
 */
export function subscriptionNews(subscription: Stripe.Subscription, deleted: boolean): MembershipNews | null {
  if (!subscription.metadata[membershipMetadata.tier]) return null;
  const state = deleted || subscription.status === "canceled" ? "ended" : subscription.cancel_at_period_end ? "cancelling" : "active";
  return { changed: { subscription: subscription.id, state } };
}

/**
 * Stripe Tax's product tax code for a membership: what it gives is downloads, "Digital audio -- unlimited
 * use", as a download's (payments.server.ts's `taxCodes`).
 */
const membershipTaxCode = "txcd_10401100";

/**
 * The Checkout Session of a membership: mode=subscription on the platform's account, its one price made here
 * (the tier's, or what the fan chose to pay above it) recurring each month or year, the fan, tier and
 * interval in the subscription's metadata (copied to each of its invoices), back to the return page with
 * the session's id, or to the artist's page. With `tax` (STRIPE_TAX), Stripe Tax works out the tax due where
 * the fan is, as an order's checkout does.
 */
export function membershipSessionParams(
  membership: MembershipCheckout,
  { done, cancel, tax }: CheckoutPages & { tax: TaxInPrices | null },
): Stripe.Checkout.SessionCreateParams {
  return {
    mode: "subscription",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: membership.currency.toLowerCase(),
          unit_amount: membership.amount,
          recurring: { interval: membership.interval },
          product_data: {
            name: `${membership.tierName} · ${membership.artistName} membership`,
            ...(tax ? { tax_code: membershipTaxCode } : {}),
          },
          ...(tax ? { tax_behavior: tax === "added" ? ("exclusive" as const) : ("inclusive" as const) } : {}),
        },
      },
    ],
    ...(tax ? { automatic_tax: { enabled: true } } : {}),
    customer_email: membership.email,
    subscription_data: {
      metadata: {
        [membershipMetadata.fan]: membership.fanId,
        [membershipMetadata.tier]: membership.tierId,
        [membershipMetadata.interval]: membership.interval,
      },
    },
    success_url: `${done}?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: cancel,
  };
}

/**
 * A membership's session once paid: its subscription's latest invoice (the first period), asked for with its
 * payments, as the webhook's `invoice.paid` says it; null while it is not paid or not a membership's.
 */
export async function sessionMembershipNews(stripe: Stripe, session: Stripe.Checkout.Session): Promise<MembershipNews | null> {
  if (session.mode !== "subscription" || session.status !== "complete" || !session.subscription) return null;
  const subscription =
    typeof session.subscription === "string" ? await stripe.subscriptions.retrieve(session.subscription) : session.subscription;
  const latest = subscription.latest_invoice;
  if (!latest) return null;
  const invoice = await stripe.invoices.retrieve(typeof latest === "string" ? latest : (latest.id ?? ""), { expand: ["payments"] });
  return invoice.status === "paid" ? paidInvoiceNews(stripe, invoice) : null;
}

/**
 * A membership's subscription set to cancel at its period's end (`cancel_at_period_end`, Stripe's "Cancel
 * subscriptions"), idempotent by the subscription: Stripe then sends `customer.subscription.updated`, which
 * says `cancelling` again, and `customer.subscription.deleted` when the period ends.
 */
export async function cancelAtPeriodEnd(stripe: Stripe, subscription: string): Promise<void> {
  await stripe.subscriptions.update(subscription, { cancel_at_period_end: true }, { idempotencyKey: `membership-cancel-${subscription}` });
}
