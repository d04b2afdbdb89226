// The Stripe events the marketplace acts on, by the endpoint that sends them (webhook route, payments.server.ts):
// what `npm run stripe:setup` subscribes its two endpoints to. Plain data, so the setup script reads it too.

/**
 * The platform's own events: what a checkout came to, a charge refunded, a dispute opened or closed, a
 * membership's period paid, its subscription set to end or ended.
 */
export const platformEvents = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "charge.refunded",
  "charge.dispute.created",
  "charge.dispute.closed",
  "invoice.paid",
  "customer.subscription.updated",
  "customer.subscription.deleted",
] as const;

/** Events on the artists' connected accounts, sent to the Connect endpoint alone: whether one takes transfers. */
export const connectEvents = ["account.updated"] as const;
