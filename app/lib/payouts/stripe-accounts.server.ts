// An artist's connected Stripe account, as Stripe describes it: whether it takes transfers, recorded
// through the marketplace (from `account.updated`, or Stripe asked when the artist comes back from it).
import type { RouterContextProvider } from "react-router";
import type Stripe from "stripe";
import { vouchedClient } from "~/lib/session/session.server";

/** Whether a connected account takes transfers: its details are in and Stripe enabled transfers and payouts. */
export const accountTakesTransfers = (account: Stripe.Account) =>
  account.details_submitted && account.payouts_enabled && account.capabilities?.transfers === "active";

/** Records whether a connected account takes transfers, as Stripe describes it (`account.updated`, or asked). Throws when it cannot. */
export async function recordStripeAccount(context: Readonly<RouterContextProvider>, account: Stripe.Account): Promise<boolean> {
  const ready = accountTakesTransfers(account);
  const recorded = await vouchedClient(context).rpc("stripe_account_updated", { account: account.id, ready });
  if (recorded.error) throw new Error(`recording Stripe account ${account.id} failed: ${recorded.error.message}`);
  return ready;
}
