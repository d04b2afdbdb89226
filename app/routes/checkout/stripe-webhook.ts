import { data } from "react-router";
import type Stripe from "stripe";
import { readBounded } from "~/lib/http/request-body";
import { verifiedEvent } from "~/lib/payments/stripe.server";
import { applyCheckout } from "./checkout.server";
import type { Route } from "./+types/stripe-webhook";

// Stripe's webhook: each event checked against the endpoint's signing secret (at most five minutes old),
// then what it says about a Checkout Session applied to its order once (apply_checkout takes each event id
// once, in the transaction that applies it). Answers 500 when that work fails, so Stripe sends it again;
// events in any order, or twice, leave the order right (a paid order stays paid).

/** Stripe's events are small; anything larger is not one of them. */
const largestEvent = 512 * 1024;

const outcomes = {
  "checkout.session.completed": null,
  "checkout.session.async_payment_succeeded": "paid",
  "checkout.session.async_payment_failed": "failed",
  "checkout.session.expired": "expired",
} as const;

export async function action({ request, context }: Route.ActionArgs) {
  const body = await readBounded(request, largestEvent);
  if (body === null) return data({ error: "too large" }, { status: 413 });
  const payload = new TextDecoder().decode(body);
  const event = await verifiedEvent(context, payload, request.headers.get("Stripe-Signature"));
  if (!event) return data({ error: "invalid signature" }, { status: 400 });
  if (!(event.type in outcomes)) return data({ received: true, ignored: event.type });
  // The four session events carry the session (Stripe's types say so per event type).
  const session = event.data.object as Stripe.Checkout.Session;
  const named = outcomes[event.type as keyof typeof outcomes];
  // A completed session is paid, or (a bank payment) still settling until async_payment_succeeded.
  const outcome = named ?? (session.payment_status === "unpaid" ? "pending" : "paid");
  try {
    await applyCheckout(context, session, outcome, event);
  } catch (error) {
    console.error("a Stripe event could not be applied; Stripe will send it again", event.id, error);
    return data({ error: "not applied" }, { status: 500 });
  }
  return data({ received: true });
}
