// An artist's connected Stripe account, as Stripe describes it: whether it takes transfers, recorded
// through the marketplace (from `account.updated`, or Stripe asked when the artist comes back from it).
import type { RouterContextProvider } from "react-router";
import type { StripeAccount } from "~/lib/providers/stripe/accounts.server";
import { vouchedClient } from "~/lib/session/session.server";

/** Records whether a connected account takes transfers, as Stripe describes it (`account.updated`, or asked). Throws when it cannot. */
export async function recordStripeAccount(context: Readonly<RouterContextProvider>, { id, ready }: StripeAccount): Promise<boolean> {
  const recorded = await vouchedClient(context).rpc("stripe_account_updated", { account: id, ready });
  if (recorded.error) throw new Error(`recording Stripe account ${id} failed: ${recorded.error.message}`);
  return ready;
}
