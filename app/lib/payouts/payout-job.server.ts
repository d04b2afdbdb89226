// Paying artists: the scheduled job (a Cron Trigger on the media Worker, wrangler.media.toml) and "Withdraw
// now" (the Payments page) both send payouts the database started (18_ledger.sql), each through its
// artist's provider: PayPal's Payouts (paypal.server.ts) or transfers to their Stripe account
// (stripe-transfers.server.ts). A payout is sent once however often this runs: its id is the provider's
// idempotency key, and one a run left unsent (stopped half way, or the provider down) is sent by the next
// with the same key. A PayPal payout's outcome is asked after on every run until PayPal gives one; a
// failure gives the balance back. Each run also reverses the transfers of lines refunded since.
import * as v from "valibot";
import { marketplaceClient, type MarketplaceClient } from "~/lib/backend/marketplace-client.server";
import { backendVariables } from "~/lib/http/backend-env";
import { paypalVariables, stripeVariables } from "~/lib/http/provider-env";
import { stripeClient } from "~/lib/payments/stripe-client.server";
import { PayoutsSchema, type Payout } from "~/lib/schemas/payouts";
import { recorded } from "./payout-records.server";
import { PayoutRefused, paypalOn, paypalPayoutOutcome, paypalToken, sendPaypalPayout } from "./paypal.server";
import { reverseTransfers, sendTransfers } from "./stripe-transfers.server";

/** The payout job's variables (the media Worker's): the backend's, PayPal's and Stripe's. */
export const PayoutEnvSchema = v.object({ ...backendVariables, ...paypalVariables, ...stripeVariables });
export type PayoutEnv = v.InferOutput<typeof PayoutEnvSchema>;

export type PayoutRun = { sent: number; paid: number; failed: number; waiting: number; reversed: number };

/** Sends each payout not sent yet through its provider and records what the provider says. Never throws for one payout. */
export async function sendPayouts(env: PayoutEnv, backend: MarketplaceClient, payouts: readonly Payout[]): Promise<PayoutRun> {
  const run: PayoutRun = { sent: 0, paid: 0, failed: 0, waiting: 0, reversed: 0 };
  const sending = payouts.filter((payout) => payout.state === "sending");
  await sendPaypalPayouts(
    env,
    backend,
    sending.filter((payout) => payout.method === "paypal"),
    run,
  );
  const transfers = sending.filter((payout) => payout.method === "stripe");
  const stripe = stripeClient(env);
  if (transfers.length > 0 && !stripe) {
    console.warn(`Stripe is not set up (STRIPE_SECRET_KEY): ${transfers.length} transfers wait`);
    run.waiting += transfers.length;
  } else if (stripe) {
    await sendTransfers(stripe, backend, transfers, run);
  }
  return run;
}

async function sendPaypalPayouts(env: PayoutEnv, backend: MarketplaceClient, payouts: readonly Payout[], run: PayoutRun) {
  if (payouts.length === 0) return;
  if (!paypalOn(env)) {
    console.warn(`PayPal is not set up (PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET): ${payouts.length} payouts wait`);
    run.waiting += payouts.length;
    return;
  }
  const token = await paypalToken(env);
  for (const payout of payouts) {
    try {
      let batch = payout.provider_id;
      if (!batch) {
        batch = await sendPaypalPayout(env, token, payout);
        await recorded(backend.rpc("payout_sent", { payout_id: payout.id, provider_id: batch }), payout.id);
        run.sent += 1;
      }
      const outcome = await paypalPayoutOutcome(env, token, batch);
      if (!outcome) {
        run.waiting += 1;
        continue;
      }
      const failure = outcome.paid ? undefined : outcome.failure;
      await recorded(backend.rpc("payout_settled", { payout_id: payout.id, paid: outcome.paid, failure }), payout.id);
      if (outcome.paid) run.paid += 1;
      else run.failed += 1;
    } catch (error) {
      if (error instanceof PayoutRefused) {
        await recorded(backend.rpc("payout_settled", { payout_id: payout.id, paid: false, failure: error.message }), payout.id);
        run.failed += 1;
      } else {
        // PayPal or the database could not be reached: the payout stays on its way, and the next run sends it.
        console.error("a payout was left for the next run", payout.id, error instanceof Error ? error.message : error);
        run.waiting += 1;
      }
    }
  }
}

let checked: PayoutEnv | undefined;

/**
 * The scheduled job: the payouts due started (the database), every payout on its way sent or asked after,
 * and the transfers of refunded lines reversed.
 */
export async function runPayoutJob(rawEnv: unknown): Promise<PayoutRun> {
  const env = (checked ??= v.parse(PayoutEnvSchema, rawEnv));
  const backend = marketplaceClient(env);
  const due = await backend.rpc("payouts_to_send");
  if (due.error) throw new Error(`reading the payouts to send failed: ${due.error.message}`);
  const run = await sendPayouts(env, backend, v.parse(PayoutsSchema, due.data));
  const stripe = stripeClient(env);
  if (stripe) run.reversed = await reverseTransfers(stripe, backend);
  console.log(`payouts: ${run.sent} sent, ${run.paid} paid, ${run.failed} failed, ${run.waiting} waiting, ${run.reversed} reversed`);
  return run;
}
