// Stripe Connect's transfers as a payout provider: how an artist who chose Stripe is paid. Each settled
// line is a transfer to their account out of the sale's own charge (`source_transaction`, found from the
// order's payment), in the currency that charge settled in (the platform's: a GBP sale on a USD platform
// is transferred in USD, the share converted at the charge's own rate, settlements.server.ts), grouped by
// the order's payment (`transfer_group`), its description naming the order and the item; its payout's id
// is the idempotency key, so a run repeated or stopped half way transfers once. A line refunded after its
// transfer is reversed whole, once (the payout's id again). Transfers are made at once, so their outcome is
// known when Stripe answers.
import Stripe from "stripe";
import type { StripeEnv } from "~/lib/http/provider-env";
import { PayoutRefused, type PayoutProvider } from "../payout-provider";
import { stripeClient } from "./client.server";
import { chargeSettlement, convertedCents, type ChargeSettlement } from "./settlements.server";

/** Stripe's transfers for one run of the payout job (each payment's charge asked once), or null without Stripe's key. */
export function stripeTransfers(env: StripeEnv): PayoutProvider | null {
  const stripe = stripeClient(env);
  if (!stripe) return null;
  const settlements = new Map<string, ChargeSettlement>();
  const settlementOf = async (paymentIntent: string): Promise<ChargeSettlement> => {
    const kept = settlements.get(paymentIntent);
    if (kept) return kept;
    const settlement = await chargeSettlement(stripe, paymentIntent);
    settlements.set(paymentIntent, settlement);
    return settlement;
  };
  // Stripe's refusal of a request as made (never worth sending again as it is) is the payout's failure.
  const refusedAsPayout = (error: unknown) =>
    error instanceof Stripe.errors.StripeInvalidRequestError ? new PayoutRefused(error.message) : error;
  return {
    async send(payout) {
      if (!payout.payment_intent) throw new PayoutRefused("The sale has no payment to transfer from.");
      try {
        const settlement = await settlementOf(payout.payment_intent);
        const saleCurrency = payout.currency.toLowerCase();
        const rate = settlement.exchangeRate;
        // Converted, a charge's balance transaction names its rate; without one, nothing is sent at a guess.
        if (settlement.currency !== saleCurrency && rate === null)
          throw new Error(`charge ${settlement.charge} settled in ${settlement.currency} without an exchange rate`);
        const converted =
          settlement.currency === saleCurrency || rate === null
            ? undefined
            : {
                currency: settlement.currency,
                amount_cents: convertedCents(payout.amount_cents, saleCurrency, settlement.currency, rate),
                exchange_rate: rate,
              };
        const transfer = await stripe.transfers.create(
          {
            amount: converted?.amount_cents ?? payout.amount_cents,
            currency: settlement.currency,
            destination: payout.recipient,
            source_transaction: settlement.charge,
            transfer_group: payout.payment_intent,
            description: payout.description ?? undefined,
            // The share as the sale counted it, whatever currency it was sent in.
            metadata: {
              payout_id: payout.id,
              order_line_id: payout.order_line_id ?? "",
              share: `${payout.amount_cents} ${payout.currency}`,
            },
          },
          { idempotencyKey: `transfer-${payout.id}` },
        );
        return { id: transfer.id, ...(converted ? { converted } : {}) };
      } catch (error) {
        throw refusedAsPayout(error);
      }
    },
    // A transfer Stripe made is paid.
    outcome: async () => ({ paid: true }),
    async reverse(payout) {
      // All of it: a line is refunded whole, and the transfer's amount may be in another currency than the payout's.
      const reversal = await stripe.transfers.createReversal(
        payout.provider_id,
        { metadata: { payout_id: payout.id } },
        { idempotencyKey: `reversal-${payout.id}` },
      );
      return reversal.id;
    },
  };
}
