import { data } from "react-router";
import type Stripe from "stripe";
import { readBounded } from "~/lib/http/request-body";
import { verifiedEvent } from "~/lib/payments/stripe.server";
import { applyPaymentNews, isSessionEvent, settleCheckout, type PaymentNews } from "~/lib/orders/checkout.server";
import { reverseRefundedTransfers } from "~/lib/orders/refunds.server";
import { recordStripeAccount } from "~/lib/payouts/stripe-accounts.server";
import type { Route } from "./+types/stripe-webhook";

// Stripe's webhook: each event checked against the endpoint's signing secret (at most five minutes old),
// then applied to its order once (the database takes each event id once, in the transaction that applies
// it): what a Checkout Session's payment came to, a charge refunded (and the transfers of its lines taken
// back), a dispute opened or closed; and a connected account updated (whether it takes transfers). Answers
// 500 when that work fails, so Stripe sends it again; events in any order, or twice, leave the order right
// (a paid order stays paid).

/** Stripe's events are small; anything larger is not one of them. */
const largestEvent = 512 * 1024;

const idOf = (value: string | { id: string } | null) => (typeof value === "string" ? value : (value?.id ?? null));

/** What a charge's or a dispute's event says of its payment; null for events the marketplace does not act on. */
function paymentNews(event: Stripe.Event): PaymentNews | null {
  if (event.type === "charge.refunded") {
    const charge = event.data.object;
    const paymentIntent = idOf(charge.payment_intent);
    return paymentIntent ? { paymentIntent, refunded: charge.amount_refunded, refundId: charge.refunds?.data[0]?.id } : null;
  }
  if (event.type === "charge.dispute.created" || event.type === "charge.dispute.closed") {
    const dispute = event.data.object;
    const paymentIntent = idOf(dispute.payment_intent);
    if (!paymentIntent) return null;
    const { id, amount, currency, reason, status } = dispute;
    return { paymentIntent, dispute: { id, amount, currency, reason, status, closed: event.type === "charge.dispute.closed" } };
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBounded(request, largestEvent);
  if (body === null) return data({ error: "too large" }, { status: 413 });
  const payload = new TextDecoder().decode(body);
  const event = await verifiedEvent(context, payload, request.headers.get("Stripe-Signature"));
  if (!event) return data({ error: "invalid signature" }, { status: 400 });
  try {
    if (event.type === "account.updated") {
      await recordStripeAccount(context, event.data.object);
      return data({ received: true });
    }
    if (isSessionEvent(event)) {
      await settleCheckout(request, context, event);
      return data({ received: true });
    }
    const news = paymentNews(event);
    if (!news) return data({ received: true, ignored: event.type });
    await applyPaymentNews(request, context, event, news);
    if ("refunded" in news) await reverseRefundedTransfers(context);
  } catch (error) {
    console.error("a Stripe event could not be applied; Stripe will send it again", event.id, error);
    return data({ error: "not applied" }, { status: 500 });
  }
  return data({ received: true });
}
