// Stripe Connect's accounts, through which an artist who chose Stripe is paid: one made for them
// (Express-style onboarding on Stripe's own pages), the link to that onboarding, and whether an account
// takes transfers (as Stripe describes it). What the marketplace keeps of it is lib/payouts'.
import Stripe from "stripe";
import { AccountRefused } from "../payout-provider";
import { stripeClient, type StripePaymentEnv } from "./client.server";

/** Whether a connected account takes transfers: its details are in and Stripe enabled transfers and payouts. */
export const accountTakesTransfers = (account: Stripe.Account) =>
  account.details_submitted && account.payouts_enabled && account.capabilities?.transfers === "active";

/** An artist's Stripe account as the marketplace knows it: its id, and whether it takes transfers now. */
export type StripeAccount = { id: string; ready: boolean };

/**
 * Where a platform may make accounts under the full service agreement for one another: its own country,
 * or, for a platform in Europe, any of the EEA's, the UK's and Switzerland's (Stripe's Connect cross-border
 * rules). Elsewhere an account takes transfers alone, under the `recipient` agreement.
 */
const europe = new Set("AT BE BG CH CY CZ DE DK EE ES FI FR GB GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK".split(" "));
const fullAgreement = (country: string, platform: string) => country === platform || (europe.has(country) && europe.has(platform));

/**
 * An artist's account as Stripe takes it: Express's dashboard and Stripe's onboarding by `controller`
 * properties (`type` is deprecated), the platform paying the fees and bearing the losses; card payments
 * and transfers where the full agreement reaches, else transfers alone under the `recipient` agreement,
 * since "your platform needs approval for accounts to have requested the `transfers` capability without the
 * `card_payments` capability" under the full one.
 */
export function accountParams(artistId: string, country: string, platform: string): Stripe.AccountCreateParams {
  const full = fullAgreement(country, platform);
  return {
    country,
    controller: {
      stripe_dashboard: { type: "express" },
      fees: { payer: "application" },
      losses: { payments: "application" },
      requirement_collection: "stripe",
    },
    capabilities: full ? { card_payments: { requested: true }, transfers: { requested: true } } : { transfers: { requested: true } },
    ...(full ? {} : { tos_acceptance: { service_agreement: "recipient" } }),
    metadata: { artist_id: artistId },
  };
}

/** The country of the platform's Stripe account (`STRIPE_PLATFORM_COUNTRY`, `US` unless set). */
export const platformCountryOf = (env: StripePaymentEnv) => env.STRIPE_PLATFORM_COUNTRY || "US";

/** Stripe Connect's accounts, or null when payments are not configured (their news comes through the webhook). */
export function stripeAccounts(env: StripePaymentEnv) {
  const stripe = env.STRIPE_WEBHOOK_SECRET ? stripeClient(env) : null;
  if (!stripe) return null;
  return {
    /**
     * Makes an account for an artist whose bank is in `country`, once per account it replaces and country
     * (the idempotency key names both). Throws AccountRefused with Stripe's words when Stripe refuses it.
     */
    async open(artistId: string, replacing: string | null, country: string): Promise<string> {
      try {
        const made = await stripe.accounts.create(accountParams(artistId, country, platformCountryOf(env)), {
          idempotencyKey: `account-${artistId}-after-${replacing ?? "none"}-in-${country}`,
        });
        return made.id;
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new AccountRefused(error.message);
        throw error;
      }
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
