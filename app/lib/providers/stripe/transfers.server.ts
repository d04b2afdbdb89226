// Stripe Connect's transfers as a payout provider: how an artist who chose Stripe is paid. Each settled
// line is a transfer to their account out of the sale's own charge (`source_transaction`, found from the
// order's payment), grouped by the order's payment (`transfer_group`), its description naming the order and
// the item; its payout's id is the idempotency key, so a run repeated or stopped half way transfers once. A
// line refunded after its transfer is reversed, once (the payout's id again). Transfers are made at once,
// so their outcome is known when Stripe answers.
import Stripe from "stripe";
import type { StripeEnv } from "~/lib/http/provider-env";
import { PayoutRefused, type PayoutProvider } from "../payout-provider";
import { stripeClient } from "./client.server";

/** Stripe's transfers for one run of the payout job (each payment's charge asked once), or null without Stripe's key. */
export function stripeTransfers(env: StripeEnv): PayoutProvider | null {
  const stripe = stripeClient(env);
  if (!stripe) return null;
  const charges = new Map<string, string>();
  const chargeOf = async (paymentIntent: string): Promise<string> => {
    const kept = charges.get(paymentIntent);
    if (kept) return kept;
    const intent = await stripe.paymentIntents.retrieve(paymentIntent);
    const charge = typeof intent.latest_charge === "string" ? intent.latest_charge : intent.latest_charge?.id;
    if (!charge) throw new Error(`payment ${paymentIntent} has no charge`);
    charges.set(paymentIntent, charge);
    return charge;
  };
  // Stripe's refusal of a request as made (never worth sending again as it is) is the payout's failure.
  const refusedAsPayout = (error: unknown) =>
    error instanceof Stripe.errors.StripeInvalidRequestError ? new PayoutRefused(error.message) : error;
  return {
    async send(payout) {
      if (!payout.payment_intent) throw new PayoutRefused("The sale has no payment to transfer from.");
      try {
        const transfer = await stripe.transfers.create(
          {
            amount: payout.amount_cents,
            currency: payout.currency.toLowerCase(),
            destination: payout.recipient,
            source_transaction: await chargeOf(payout.payment_intent),
            transfer_group: payout.payment_intent,
            description: payout.description ?? undefined,
            metadata: { payout_id: payout.id, order_line_id: payout.order_line_id ?? "" },
          },
          { idempotencyKey: `transfer-${payout.id}` },
        );
        return transfer.id;
      } catch (error) {
        throw refusedAsPayout(error);
      }
    },
    // A transfer Stripe made is paid.
    outcome: async () => ({ paid: true }),
    async reverse(payout) {
      const reversal = await stripe.transfers.createReversal(
        payout.provider_id,
        { amount: payout.amount_cents, metadata: { payout_id: payout.id } },
        { idempotencyKey: `reversal-${payout.id}` },
      );
      return reversal.id;
    },
  };
}
