// Connecting an artist's Stripe account (Connect, Express-style onboarding on Stripe's own pages), with the
// account's password: the database checks it before Stripe makes anything (connect_stripe with no
// account), then the account is made (once per account it replaces: the idempotency key names that one)
// and kept, replacing any connected before, and the account is mailed; then an Account Link to its
// onboarding, back to Payment Settings. Whether it takes transfers comes from Stripe: `account.updated`
// through the webhook, and Stripe itself asked when the artist comes back.
import { href, redirect, type RouterContextProvider } from "react-router";
import { envFrom } from "~/lib/http/env.server";
import { AccountRefused } from "~/lib/providers/payout-provider";
import { platformCountryOf, stripeAccounts } from "~/lib/providers/stripe/accounts.server";
import { changedWithPassword, type PasswordRefused } from "./payout-changes.server";
import { recordStripeAccount } from "./stripe-accounts.server";
import { vouchedClient } from "~/lib/session/session.server";

const paymentsPath = href("/dashboard/artist/payments");

/**
 * Sends the artist to Stripe's onboarding for their account, made first (for a bank in `country`) when they
 * have none or ask for `another` in its place. Answers a refusal beside the password field
 * (`passwordRefused`), or Stripe's, in its words where it refused the account.
 */
export async function connectStripe(
  request: Request,
  context: Readonly<RouterContextProvider>,
  artistId: string,
  { password, another, country }: { password: string; another: boolean; country: string },
): Promise<Response | { passwordRefused: PasswordRefused } | { refused: string }> {
  const accounts = stripeAccounts(envFrom(context));
  if (!accounts) return { refused: "Stripe is not set up on this marketplace yet: payouts go by PayPal." };
  const connect = (account: string) =>
    changedWithPassword(context, "connect Stripe", password, () => vouchedClient(context).rpc("connect_stripe", { account, password }));
  const checked = await connect("");
  if ("refused" in checked) return { passwordRefused: checked };
  try {
    let connected = checked.account ?? null;
    if (!connected || another) {
      const made = await accounts.open(artistId, connected, country);
      const kept = await connect(made);
      if ("refused" in kept) return { passwordRefused: kept };
      connected = made;
    }
    const back = (stripeStep: string) => new URL(`${paymentsPath}?stripe=${stripeStep}`, request.url).href;
    return redirect(await accounts.onboardingLink(connected, { returnUrl: back("return"), refreshUrl: back("refresh") }), 303);
  } catch (error) {
    if (error instanceof AccountRefused) return { refused: `Stripe could not make your account: ${error.message}` };
    console.error("connecting a Stripe account failed", artistId, error);
    return { refused: "Stripe could not be reached. Please try again." };
  }
}

/** The country an artist's bank is taken to be in until they choose: the platform's own. */
export const platformCountry = (context: Readonly<RouterContextProvider>) => platformCountryOf(envFrom(context));

/** Asks Stripe whether the artist's account takes transfers now and records it; the answer, or null when Stripe cannot say. */
export async function stripeStateNow(context: Readonly<RouterContextProvider>, account: string): Promise<boolean | null> {
  const accounts = stripeAccounts(envFrom(context));
  if (!accounts) return null;
  try {
    return await recordStripeAccount(context, await accounts.read(account));
  } catch (error) {
    console.error("asking Stripe about an account failed", account, error);
    return null;
  }
}
