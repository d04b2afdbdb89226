// What the payout job asks of whoever moves an artist's money to them (PayPal's Payouts, Stripe's
// transfers): the seam lib/payouts talks through. The database decides what is due and records each step;
// a provider sends, says what became of it, and (where it pays per sale) takes a payment back.

/** A payout the database started (`payouts_to_send`), as a provider sends it. */
export type Payout = {
  id: string;
  amount_cents: number;
  currency: string;
  /** Whom it pays, as its provider names them (a PayPal email, a Stripe account). */
  recipient: string;
  /** A payout of one sale's: the sale's payment, its line, and what it says. */
  payment_intent: string | null;
  order_line_id: string | null;
  description: string | null;
};

/** A refusal the provider will give again whatever we do (a bad recipient, say), as against one worth retrying. */
export class PayoutRefused extends Error {}

/** The provider's refusal to make an artist's payout account as asked, in its own words (shown to the artist). */
export class AccountRefused extends Error {}

/**
 * What a provider took: its id for the payout, and, when it paid in another currency than the payout's
 * (a Stripe transfer is made in the platform's settlement currency), what it sent and at which rate.
 */
export type SentPayout = { id: string; converted?: { currency: string; amount_cents: number; exchange_rate: number } };

/**
 * What became of a payout: paid, failed with the provider's reason, waiting for the artist to claim it
 * (PayPal's UNCLAIMED: no account at that address; `since`, when the provider processed it, starts their
 * time to claim it), or null while the provider is still at it.
 */
export type PayoutOutcome = { paid: true } | { paid: false; failure: string } | { unclaimed: true; since: string } | null;

export interface PayoutProvider {
  /** Sends a payout, once per payout id (the provider's idempotency key); answers what it took. Throws PayoutRefused for a refusal. */
  send(payout: Payout): Promise<SentPayout>;
  /** What became of a payout the provider took (by its id). */
  outcome(providerId: string): Promise<PayoutOutcome>;
  /**
   * Takes back a payout of one sale refunded since (once per payout); answers the reversal's id. Only a
   * provider that pays per sale has it: a refund after a whole-balance payout is the ledger's to debit.
   */
  reverse?(payout: Payout & { provider_id: string }): Promise<string>;
}
