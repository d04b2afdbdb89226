// A membership's news from the payment provider, applied through the marketplace (the database's
// membership functions answer it alone): a period paid becomes an order of its own, once per invoice
// however often it is said; a subscription set to end, taken back or ended moves the membership's state.
// And a fan joining: the tier's checkout opened with the provider, and its first period taken from the
// provider by the return page when the webhook has not brought it yet.
import type { RouterContextProvider } from "react-router";
import { envFrom } from "~/lib/http/env.server";
import { formatMoney } from "~/lib/format";
import { membershipLimits } from "~/lib/constants";
import type { FormReply } from "~/lib/forms/forms";
import type { MembershipNews } from "~/lib/providers/payment-provider";
import { checkoutProvider } from "~/lib/providers/payments.server";
import type { SessionUser } from "~/lib/session/session-user";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";

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

/** What a fan chose on a tier's Join form: monthly or yearly, and what they pay a period (null: the tier's price). */
export type JoinChoice = { tierId: string; interval: "month" | "year"; amount: number | null };

/**
 * A fan's Join: the tier's payment page opened with the provider (`pay`), or why not, in the form's words.
 * Only a fan joins (not the artist, another artist or an administrator), of an open tier of this artist,
 * once: a fan already a member of the artist is told so. The price is the tier's for the interval chosen;
 * more only where the tier lets fans pay more. After payment the provider sends them back to the artist's
 * page, which takes the first period (`applyJoinedCheckout`).
 */
export async function openMembershipCheckout(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user: SessionUser,
  artistId: string,
  choice: JoinChoice,
): Promise<{ pay: string } | { refused: FormReply; status: number }> {
  const values = {
    intent: "join",
    tierId: choice.tierId,
    interval: choice.interval,
    amount: choice.amount === null ? "" : String(choice.amount / 100),
  };
  const refused = (message: string, status: number, field?: "amount") => ({
    refused: field ? { fieldErrors: { [field]: message }, formError: null, values } : { fieldErrors: {}, formError: message, values },
    status,
  });
  if (user.role !== "fan" || user.isAdmin) return refused("Only fans can become members.", 403);
  const backend = context.get(supabaseContext);
  const [tier, member] = await Promise.all([
    backend
      .from("membership_tiers")
      .select("id, name, monthly_price_cents, yearly_price_cents, currency, allow_pay_more, closed, artist_profiles(artist_name)")
      .eq("id", choice.tierId)
      .eq("artist_id", artistId)
      .maybeSingle(),
    backend.from("memberships").select("id").eq("fan_id", user.id).eq("artist_id", artistId).neq("state", "ended").limit(1),
  ]);
  if (tier.error || member.error) {
    console.error("reading a tier to join failed", tier.error ?? member.error);
    return refused("Joining could not be started. Please try again.", 503);
  }
  if (!tier.data || tier.data.closed) return refused("This tier is not taking new members.", 404);
  if (member.data.length > 0) return refused("You're a member of this artist already.", 409);
  const price = choice.interval === "year" ? tier.data.yearly_price_cents : tier.data.monthly_price_cents;
  if (price === null) return refused("This tier is paid monthly.", 400);
  const amount = tier.data.allow_pay_more && choice.amount !== null ? choice.amount : price;
  if (amount < price) return refused(`Pay at least ${formatMoney(price, tier.data.currency)}.`, 400, "amount");
  // What a tier may cost a period at most bounds what a fan may choose to pay.
  const most = membershipLimits[choice.interval === "year" ? "yearlyCents" : "monthlyCents"].max;
  if (amount > most) return refused(`Pay at most ${formatMoney(most, tier.data.currency)}.`, 400, "amount");
  const payments = checkoutProvider(envFrom(context));
  if (!payments) return refused("Payment options will be available soon.", 503);
  const page = `${new URL(request.url).origin}/artist/${artistId}`;
  try {
    const opened = await payments.provider.openMembershipCheckout(
      {
        fanId: user.id,
        email: user.email,
        tierId: tier.data.id,
        tierName: tier.data.name,
        artistName: tier.data.artist_profiles?.artist_name ?? "",
        interval: choice.interval,
        amount,
        currency: tier.data.currency,
      },
      { done: page, cancel: page },
    );
    return { pay: opened.url };
  } catch (error) {
    console.error("opening a membership checkout failed", error);
    return refused("The payment could not be started. Please try again.", 503);
  }
}

/**
 * The return from a membership's checkout: its first period, asked of the provider, applied as the webhook
 * would (once per invoice, so it does not matter which comes first), when the checkout is the fan's own.
 * The webhook brings it anyway: a provider that cannot say now is left to it.
 */
export async function applyJoinedCheckout(context: Readonly<RouterContextProvider>, checkout: string, fanId: string) {
  const provider = checkoutProvider(envFrom(context))?.provider;
  if (!provider) return;
  try {
    const membership = (await provider.checkoutNews(checkout))?.membership;
    if (membership && "paid" in membership && membership.paid.fanId === fanId) await applyMembershipNews(context, membership);
  } catch (error) {
    console.error("taking a membership's first period on return failed", checkout, error);
  }
}
