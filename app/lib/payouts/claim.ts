// A PayPal payout to an address with no PayPal account waits for its artist to claim it: "If the recipient
// does not create an account and claim the payout within 30 days, the funds will be returned to your
// account" (PayPal's Payouts Payment Processing). The Payments page and the Admin Dashboard count the days
// left the same way, from when PayPal processed it (`unclaimed_at`).

/** PayPal's days to claim a payout before it is returned. */
const paypalClaimDays = 30;

/** Where an artist without a PayPal account signs up with the address the payout went to, and so claims it. */
export const paypalSignUpUrl = "https://www.paypal.com/signup";

const dayMs = 86_400_000;

/**
 * The days left to claim a payout PayPal has held since `unclaimedAt`, as "12 days left" ("1 day left"; a
 * day begun counts; never below 0, should PayPal return it late).
 */
export function formatDaysLeftToClaim(unclaimedAt: string, now: number): string {
  const days = Math.max(0, Math.ceil((Date.parse(unclaimedAt) + paypalClaimDays * dayMs - now) / dayMs));
  return `${days} ${days === 1 ? "day" : "days"} left`;
}
