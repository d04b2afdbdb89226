import * as v from "valibot";
import { payoutMethods, payoutStates } from "~/lib/constants";

// The artist's money as the database answers it (18_ledger.sql): payouts, and the Payments page's balances.

/** A payout row (`payouts_to_send`, `withdraw_now`). */
export const PayoutSchema = v.object({
  id: v.string(),
  artist_id: v.string(),
  currency: v.string(),
  amount_cents: v.number(),
  method: v.picklist(payoutMethods),
  recipient: v.string(),
  requested_by: v.picklist(["schedule", "artist"]),
  state: v.picklist(payoutStates),
  provider_id: v.nullable(v.string()),
  failure: v.nullable(v.string()),
  created_at: v.string(),
  settled_at: v.nullable(v.string()),
  /** A Stripe transfer's line, the sale's payment, what the transfer says, and its reversal after a refund. */
  order_line_id: v.nullable(v.string()),
  payment_intent: v.nullable(v.string()),
  description: v.nullable(v.string()),
  reversed_at: v.nullable(v.string()),
  /** When PayPal began holding it for the artist to claim, once recorded (`payout_unclaimed`). */
  unclaimed_at: v.nullable(v.string()),
});
export type Payout = v.InferOutput<typeof PayoutSchema>;

export const PayoutsSchema = v.array(PayoutSchema);

/** One currency's balances, in cents: the ledger's sums. */
const BalanceSchema = v.object({
  currency: v.string(),
  pending: v.number(),
  available: v.number(),
  held: v.number(),
  paid_out: v.number(),
  earned: v.number(),
});
export type Balance = v.InferOutput<typeof BalanceSchema>;

/** The Payments page's read (`artist_payouts`): balances per currency and the newest payouts. */
export const ArtistPayoutsSchema = v.object({
  settlement_days: v.number(),
  balances: v.array(BalanceSchema),
  payouts: v.array(
    v.object({
      id: v.string(),
      currency: v.string(),
      amount: v.number(),
      method: v.picklist(payoutMethods),
      recipient: v.string(),
      requested_by: v.picklist(["schedule", "artist"]),
      state: v.picklist(payoutStates),
      failure: v.nullable(v.string()),
      created_at: v.string(),
      settled_at: v.nullable(v.string()),
      description: v.nullable(v.string()),
      reversed_at: v.nullable(v.string()),
      /** What a Stripe transfer sent when the sale's charge settled in another currency, and at which rate. */
      sent_currency: v.nullable(v.string()),
      sent_amount: v.nullable(v.number()),
      exchange_rate: v.nullable(v.number()),
      /** When PayPal began holding it for the artist to claim (no PayPal account at that address). */
      unclaimed_at: v.nullable(v.string()),
    }),
  ),
});
export type ArtistPayouts = v.InferOutput<typeof ArtistPayoutsSchema>;
