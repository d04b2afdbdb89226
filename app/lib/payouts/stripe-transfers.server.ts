// Stripe Connect: how an artist who chose Stripe is paid. Each settled line is a transfer to their
// account out of the sale's own charge (`source_transaction`, found from the order's payment), grouped by
// the order's payment (`transfer_group`), its description naming the order and the item; its payout's id
// is the idempotency key, so a run repeated or stopped half way transfers once. A line refunded after its
// transfer is reversed, once (the payout's id again). Transfers are made at once, so their outcome is known
// when Stripe answers.
import Stripe from "stripe";
import type { MarketplaceClient } from "~/lib/backend/marketplace-client.server";
import * as v from "valibot";
import { PayoutsSchema, type Payout } from "~/lib/schemas/payouts";
import { recorded } from "./payout-records.server";

/** What a run did, counted as it goes (the payout job's run). */
type TransferRun = { sent: number; paid: number; failed: number; waiting: number };

/** The charge of each payment, asked once per run. */
async function chargeOf(stripe: Stripe, paymentIntent: string, known: Map<string, string>): Promise<string> {
  const kept = known.get(paymentIntent);
  if (kept) return kept;
  const intent = await stripe.paymentIntents.retrieve(paymentIntent);
  const charge = typeof intent.latest_charge === "string" ? intent.latest_charge : intent.latest_charge?.id;
  if (!charge) throw new Error(`payment ${paymentIntent} has no charge`);
  known.set(paymentIntent, charge);
  return charge;
}

/** Makes each transfer not made yet and records it; one Stripe refuses is recorded failed with Stripe's reason. */
export async function sendTransfers(
  stripe: Stripe,
  backend: MarketplaceClient,
  payouts: readonly Payout[],
  run: TransferRun,
): Promise<void> {
  const charges = new Map<string, string>();
  for (const payout of payouts) {
    try {
      if (!payout.payment_intent)
        throw new Stripe.errors.StripeInvalidRequestError({ message: "The sale has no payment to transfer from." });
      const transfer = await stripe.transfers.create(
        {
          amount: payout.amount_cents,
          currency: payout.currency.toLowerCase(),
          destination: payout.recipient,
          source_transaction: await chargeOf(stripe, payout.payment_intent, charges),
          transfer_group: payout.payment_intent,
          description: payout.description ?? undefined,
          metadata: { payout_id: payout.id, order_line_id: payout.order_line_id ?? "" },
        },
        { idempotencyKey: `transfer-${payout.id}` },
      );
      await recorded(backend.rpc("payout_sent", { payout_id: payout.id, provider_id: transfer.id }), payout.id);
      await recorded(backend.rpc("payout_settled", { payout_id: payout.id, paid: true }), payout.id);
      run.sent += 1;
      run.paid += 1;
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        await recorded(backend.rpc("payout_settled", { payout_id: payout.id, paid: false, failure: error.message }), payout.id);
        run.failed += 1;
      } else {
        // Stripe or the database could not be reached: the transfer stays on its way, and the next run makes it (once).
        console.error("a transfer was left for the next run", payout.id, error instanceof Error ? error.message : error);
        run.waiting += 1;
      }
    }
  }
}

/** Reverses the transfers of lines refunded since they were made. Never throws for one transfer. */
export async function reverseTransfers(stripe: Stripe, backend: MarketplaceClient): Promise<number> {
  const { data, error } = await backend.rpc("transfers_to_reverse");
  if (error) throw new Error(`reading the transfers to reverse failed: ${error.message}`);
  let reversed = 0;
  for (const payout of v.parse(PayoutsSchema, data)) {
    if (!payout.provider_id) continue;
    try {
      const reversal = await stripe.transfers.createReversal(
        payout.provider_id,
        { amount: payout.amount_cents, metadata: { payout_id: payout.id } },
        { idempotencyKey: `reversal-${payout.id}` },
      );
      await recorded(backend.rpc("transfer_reversed", { payout_id: payout.id, reversal_id: reversal.id }), payout.id);
      reversed += 1;
    } catch (error) {
      console.error("a transfer's reversal was left for the next run", payout.id, error instanceof Error ? error.message : error);
    }
  }
  return reversed;
}
