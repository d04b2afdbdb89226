import { data } from "react-router";
import { envFrom } from "~/lib/http/env.server";
import { readBounded } from "~/lib/http/request-body";
import { applyPaymentNews, settleCheckout } from "~/lib/orders/checkout.server";
import { reverseRefundedTransfers } from "~/lib/orders/refunds.server";
import { recordStripeAccount } from "~/lib/payouts/stripe-accounts.server";
import { paymentProvider } from "~/lib/providers/payments.server";
import type { Route } from "./+types/payment-webhook";

// A payment provider's webhook (/webhooks/stripe: Stripe's): each event checked as its provider signs it
// (Stripe's: against the endpoint's signing secret, at most five minutes old), then applied to its order
// once (the database takes each event id once, in the transaction that applies it): what a checkout's
// payment came to, a charge refunded (and the transfers of its lines taken back), a dispute opened or
// closed; and an artist's payout account updated (whether it takes transfers). An event of another API
// version than the app's is refused (400), so the provider sends it again once its endpoint is set right.
// Answers 500 when that work
// fails, so the provider sends it again; events in any order, or twice, leave the order right (a paid
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
    return data({ error: news.refused }, { status: 400 });
  }
  try {
    if ("payoutAccount" in news) await recordStripeAccount(context, news.payoutAccount);
    else if ("checkout" in news) await settleCheckout(request, context, provider, news);
    else if ("payment" in news) {
      await applyPaymentNews(context, news);
      if ("refunded" in news.payment) await reverseRefundedTransfers(context);
    } else return data({ received: true, ignored: news.event.type });
  } catch (error) {
    console.error("a payment provider's event could not be applied; it will be sent again", news.event.id, error);
    return data({ error: "not applied" }, { status: 500 });
  }
  return data({ received: true });
}
