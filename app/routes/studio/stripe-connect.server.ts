// Connecting an artist's Stripe account (Connect, Express-style onboarding on Stripe's own pages): the
// account made once (its artist's id is the idempotency key, and the database keeps the first one), then an
// Account Link to its onboarding, back to Payment Settings. Whether it takes transfers comes from Stripe:
// `account.updated` through the webhook, and Stripe itself asked when the artist comes back.
import { href, redirect, type RouterContextProvider } from "react-router";
import { marketplaceHeader } from "~/lib/http/env.server";
import { stripeFrom } from "~/lib/payments/stripe.server";
import { recordStripeAccount } from "~/lib/payouts/stripe-accounts.server";
import { supabaseContext } from "~/lib/session/session.server";

const paymentsPath = href("/dashboard/artist/payments");

/** Sends the artist to Stripe's onboarding for their account (made first if they have none). */
export async function connectStripe(
  request: Request,
  context: Readonly<RouterContextProvider>,
  artistId: string,
  account: string | null,
): Promise<Response | { refused: string }> {
  const stripe = stripeFrom(context);
  if (!stripe) return { refused: "Stripe is not set up on this marketplace yet: payouts go by PayPal." };
  try {
    let connected = account;
    if (!connected) {
      const made = await stripe.accounts.create(
        { type: "express", capabilities: { transfers: { requested: true } }, metadata: { artist_id: artistId } },
        { idempotencyKey: `account-${artistId}` },
      );
      const kept = await context
        .get(supabaseContext)
        .rpc("connect_stripe", { account: made.id })
        .setHeader(...marketplaceHeader(context));
      if (kept.error || !kept.data) throw new Error(`keeping the Stripe account failed: ${kept.error?.message}`);
      connected = kept.data;
    }
    const back = (stripeStep: string) => new URL(`${paymentsPath}?stripe=${stripeStep}`, request.url).href;
    const link = await stripe.accountLinks.create({
      account: connected,
      type: "account_onboarding",
      return_url: back("return"),
      refresh_url: back("refresh"),
    });
    return redirect(link.url, 303);
  } catch (error) {
    console.error("connecting a Stripe account failed", artistId, error);
    return { refused: "Stripe could not be reached. Please try again." };
  }
}

/** Asks Stripe whether the artist's account takes transfers now and records it; the answer, or null when Stripe cannot say. */
export async function stripeStateNow(context: Readonly<RouterContextProvider>, account: string): Promise<boolean | null> {
  const stripe = stripeFrom(context);
  if (!stripe) return null;
  try {
    return await recordStripeAccount(context, await stripe.accounts.retrieve(account));
  } catch (error) {
    console.error("asking Stripe about an account failed", account, error);
    return null;
  }
}
