// A membership's news from the payment provider, applied through the marketplace (the database's
// membership functions answer it alone): a period paid becomes an order of its own, once per invoice
// however often it is said; a subscription set to end, taken back or ended moves the membership's state.
import type { RouterContextProvider } from "react-router";
import type { MembershipNews } from "~/lib/providers/payment-provider";
import { vouchedClient } from "~/lib/session/session.server";

export async function applyMembershipNews(context: Readonly<RouterContextProvider>, news: MembershipNews) {
  const client = vouchedClient(context);
  if ("paid" in news) {
    const { paid } = news;
    const { error } = await client.rpc("membership_paid", {
      invoice_id: paid.invoice,
      subscription_id: paid.subscription,
      fan_id: paid.fanId,
      tier_id: paid.tierId,
      billing_interval: paid.interval,
      amount_cents: paid.amount,
      tax_cents: paid.tax,
      currency: paid.currency.toUpperCase(),
      period_end: new Date(paid.periodEnd * 1000).toISOString(),
      ...(paid.payment ? { payment_intent: paid.payment } : {}),
      ...(paid.country ? { country: paid.country } : {}),
    });
    if (error) throw new Error(`applying membership invoice ${paid.invoice} failed`, { cause: error });
    return;
  }
  const { error } = await client.rpc("membership_changed", {
    subscription_id: news.changed.subscription,
    state: news.changed.state,
  });
  if (error) throw new Error(`applying subscription ${news.changed.subscription}'s change failed`, { cause: error });
}
