// Stripe Connect's accounts, through which an artist who chose Stripe is paid: one made for them
// (Express-style onboarding on Stripe's own pages), the link to that onboarding, and whether an account
// takes transfers (as Stripe describes it). What the marketplace keeps of it is lib/payouts'.
import type Stripe from "stripe";
import { stripeClient, type StripePaymentEnv } from "./client.server";

/** Whether a connected account takes transfers: its details are in and Stripe enabled transfers and payouts. */
export const accountTakesTransfers = (account: Stripe.Account) =>
  account.details_submitted && account.payouts_enabled && account.capabilities?.transfers === "active";

/** An artist's Stripe account as the marketplace knows it: its id, and whether it takes transfers now. */
export type StripeAccount = { id: string; ready: boolean };

/** Stripe Connect's accounts, or null when payments are not configured (their news comes through the webhook). */
export function stripeAccounts(env: StripePaymentEnv) {
  const stripe = env.STRIPE_WEBHOOK_SECRET ? stripeClient(env) : null;
  if (!stripe) return null;
  return {
    /** Makes an account for an artist, once per account it replaces (the idempotency key names that one). */
    async open(artistId: string, replacing: string | null): Promise<string> {
      const made = await stripe.accounts.create(
        { type: "express", capabilities: { transfers: { requested: true } }, metadata: { artist_id: artistId } },
        { idempotencyKey: `account-${artistId}-after-${replacing ?? "none"}` },
      );
      return made.id;
    },
    /** The address of an account's onboarding on Stripe's pages, back to `returnUrl` (or `refreshUrl` to start again). */
    async onboardingLink(account: string, { returnUrl, refreshUrl }: { returnUrl: string; refreshUrl: string }): Promise<string> {
      const link = await stripe.accountLinks.create({
        account,
        type: "account_onboarding",
        return_url: returnUrl,
        refresh_url: refreshUrl,
      });
      return link.url;
    },
    /** The account as Stripe describes it now. */
    async read(account: string): Promise<StripeAccount> {
      const described = await stripe.accounts.retrieve(account);
      return { id: described.id, ready: accountTakesTransfers(described) };
    },
  };
}
