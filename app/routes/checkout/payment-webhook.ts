import { data } from "react-router";
import { envFrom } from "~/lib/http/env.server";
import { readBounded } from "~/lib/http/request-body";
import { applyPaymentEvent, keepRefusedEvent } from "~/lib/orders/payment-events.server";
import { paymentProvider } from "~/lib/providers/payments.server";
import type { Route } from "./+types/payment-webhook";

// A payment provider's webhook (/webhooks/stripe: Stripe's): each event checked as its provider signs it
// (Stripe's: against the endpoint's signing secret, at most five minutes old), then applied once
// (lib/orders/payment-events.server.ts: the database takes each event id once, in the transaction that
// applies it). An event of another API version than the app's is refused (400), so the provider sends it
// again once its endpoint is set right. Answers 500 when its work fails (kept for administrators with its
// reason), so the provider sends it again; events in any order, or twice, leave the order right (a paid
// order stays paid).

/** Providers' events are small; anything larger is not one of them. */
const largestEvent = 512 * 1024;

export async function action({ request, params, context }: Route.ActionArgs) {
  const provider = paymentProvider(envFrom(context), params.provider);
  const body = await readBounded(request, largestEvent);
  if (body === null) return data({ error: "too large" }, { status: 413 });
  const news = await provider?.webhookNews(request, new TextDecoder().decode(body));
  if (!provider || !news) return data({ error: "invalid signature" }, { status: 400 });
  if ("refused" in news) {
    console.error("a payment provider's event was refused; it will be sent again", news.event.id, news.refused);
    await keepRefusedEvent(context, params.provider, news);
    return data({ error: news.refused }, { status: 400 });
  }
  const outcome = await applyPaymentEvent(request, context, params.provider, provider, news);
  if ("failure" in outcome) return data({ error: "not applied" }, { status: 500 });
  return data("ignored" in outcome ? { received: true, ignored: news.event.type } : { received: true });
}
