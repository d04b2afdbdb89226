// A membership's subscription at Stripe, as the marketplace reads it: each paid invoice one period of a fan's
// membership (the fan, tier and interval named in the subscription's metadata, which Stripe copies to its
// invoices' `parent.subscription_details.metadata`), and the subscription set to end or ended. A
// subscription without them is not a membership's and is left alone.
import type Stripe from "stripe";
import type { MembershipNews } from "../payment-provider";

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
 * A membership's subscription set to cancel at its period's end (`cancel_at_period_end`, Stripe's "Cancel
 * subscriptions"), idempotent by the subscription: Stripe then sends `customer.subscription.updated`, which
 * says `cancelling` again, and `customer.subscription.deleted` when the period ends.
 */
export async function cancelAtPeriodEnd(stripe: Stripe, subscription: string): Promise<void> {
  await stripe.subscriptions.update(subscription, { cancel_at_period_end: true }, { idempotencyKey: `membership-cancel-${subscription}` });
}
