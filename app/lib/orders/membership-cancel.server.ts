// A fan's membership cancelled from their Memberships page: the provider's subscription set to end at its
// paid period's end first (the fan is not charged again), then the membership recorded `cancelling` through
// the marketplace (cancel_membership: the caller's own alone), so the page says so at once; the provider's
// `customer.subscription.updated` later says the same, and its `customer.subscription.deleted` ends it.
import type { RouterContextProvider } from "react-router";
import { sqlState } from "~/lib/backend/sqlstate";
import { envFrom } from "~/lib/http/env.server";
import { checkoutProvider } from "~/lib/providers/payments.server";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";

export type CancelOutcome = { cancelled: true } | { refused: string; status: number };

const tryAgain = "Your membership could not be cancelled. Please try again.";

/** Cancels the signed-in fan's membership `membershipId` at its period's end; one cancelling or ended already is left as it is. */
export async function cancelMembership(
  context: Readonly<RouterContextProvider>,
  fanId: string,
  membershipId: string,
): Promise<CancelOutcome> {
  // Read as the fan (row-level security), and only theirs: an artist also reads their members' rows.
  const { data: membership, error } = await context
    .get(supabaseContext)
    .from("memberships")
    .select("subscription_id, state")
    .eq("id", membershipId)
    .eq("fan_id", fanId)
    .maybeSingle();
  if (error) {
    console.error("reading a membership to cancel failed", membershipId, error);
    return { refused: tryAgain, status: 500 };
  }
  if (!membership) return { refused: "This membership is not yours to cancel.", status: 403 };
  if (membership.state !== "active") return { cancelled: true };
  const provider = checkoutProvider(envFrom(context))?.provider;
  if (!provider) return { refused: "Memberships cannot be cancelled here right now: payments are not set up.", status: 503 };
  try {
    await provider.cancelMembership(membership.subscription_id);
  } catch (refused) {
    console.error("the payment provider did not cancel a membership", membershipId, refused);
    return { refused: tryAgain, status: 502 };
  }
  const recorded = await vouchedClient(context).rpc("cancel_membership", { membership_id: membershipId });
  if (recorded.error?.code === sqlState.insufficientPrivilege) return { refused: "This membership is not yours to cancel.", status: 403 };
  if (recorded.error) {
    // The subscription is set to end: the provider's webhook brings the same news to the membership.
    console.error("recording a membership's cancel failed", membershipId, recorded.error);
    return { refused: "Your membership is cancelled, but this page may not say so for a minute.", status: 500 };
  }
  return { cancelled: true };
}
