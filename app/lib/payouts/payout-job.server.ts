// Paying artists: the scheduled job (a Cron Trigger on the media Worker, wrangler.media.toml) and "Withdraw
// now" (the Payments page) both send payouts the database started (18_ledger.sql), each through the
// provider of its payout method (lib/providers: PayPal's Payouts, or transfers to the artist's Stripe
// account). A payout is sent once however often this runs: its id is the provider's idempotency key, and
// one a run left unsent (stopped half way, or the provider down) is sent by the next with the same key. A
// payout's outcome is asked after on every run until the provider gives one; a failure gives the balance
// back. One waiting to be claimed (PayPal's UNCLAIMED: no account at that address) is recorded as such,
// once, and stays on its way, its money with PayPal, until it is claimed or PayPal returns it. Each run
// also takes back the payouts of sales refunded since, where the provider pays per sale.
import * as v from "valibot";
import { marketplaceClient, type MarketplaceClient } from "~/lib/backend/marketplace-client.server";
import { backendVariables } from "~/lib/http/backend-env";
import { paypalVariables, stripeVariables } from "~/lib/http/provider-env";
import { PayoutRefused, type PayoutProvider } from "~/lib/providers/payout-provider";
import { payoutProvidersFor } from "~/lib/providers/payouts.server";
import { PayoutsSchema, type Payout } from "~/lib/schemas/payouts";
import { recorded } from "./payout-records.server";

/** The payout job's variables (the media Worker's): the backend's, PayPal's and Stripe's. */
export const PayoutEnvSchema = v.object({ ...backendVariables, ...paypalVariables, ...stripeVariables });
export type PayoutEnv = v.InferOutput<typeof PayoutEnvSchema>;

/** What a run did: `unclaimed`, payouts waiting for their artist to claim them (counted among `waiting` too). */
export type PayoutRun = { sent: number; paid: number; failed: number; waiting: number; unclaimed: number; reversed: number };

/** Sends each payout not sent yet through its provider and records what the provider says. Never throws for one payout. */
export async function sendPayouts(env: PayoutEnv, backend: MarketplaceClient, payouts: readonly Payout[]): Promise<PayoutRun> {
  const run: PayoutRun = { sent: 0, paid: 0, failed: 0, waiting: 0, unclaimed: 0, reversed: 0 };
  const providerOf = payoutProvidersFor(env);
  for (const payout of payouts.filter((one) => one.state === "sending")) {
    const provider = providerOf(payout.method);
    if (!provider) {
      console.warn(`payouts by ${payout.method} are not set up: payout ${payout.id} waits`);
      run.waiting += 1;
    } else {
      await sendPayout(provider, backend, payout, run);
    }
  }
  return run;
}

async function sendPayout(provider: PayoutProvider, backend: MarketplaceClient, payout: Payout, run: PayoutRun) {
  try {
    let providerId = payout.provider_id;
    if (!providerId) {
      const sent = await provider.send(payout);
      providerId = sent.id;
      await recorded(
        backend.rpc("payout_sent", {
          payout_id: payout.id,
          provider_id: sent.id,
          sent_currency: sent.converted?.currency,
          sent_amount_cents: sent.converted?.amount_cents,
          exchange_rate: sent.converted?.exchange_rate,
        }),
        payout.id,
      );
      run.sent += 1;
    }
    const outcome = await provider.outcome(providerId);
    if (!outcome) {
      run.waiting += 1;
      return;
    }
    if ("unclaimed" in outcome) {
      if (!payout.unclaimed_at) await recorded(backend.rpc("payout_unclaimed", { payout_id: payout.id, since: outcome.since }), payout.id);
      run.waiting += 1;
      run.unclaimed += 1;
      return;
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
      // The provider or the database could not be reached: the payout stays on its way, and the next run sends it (once).
      console.error("a payout was left for the next run", payout.id, error instanceof Error ? error.message : error);
      run.waiting += 1;
    }
  }
}

/**
 * Takes back the payouts of sales refunded since they were paid (`transfers_to_reverse`), each through its
 * provider, once. Never throws for one payout; answers how many were taken back.
 */
export async function reverseRefundedPayouts(env: PayoutEnv, backend: MarketplaceClient): Promise<number> {
  const { data, error } = await backend.rpc("transfers_to_reverse");
  if (error) throw new Error(`reading the transfers to reverse failed: ${error.message}`);
  const providerOf = payoutProvidersFor(env);
  let reversed = 0;
  for (const payout of v.parse(PayoutsSchema, data)) {
    const providerId = payout.provider_id;
    const reverse = providerOf(payout.method)?.reverse;
    if (!providerId || !reverse) continue;
    try {
      const reversal = await reverse({ ...payout, provider_id: providerId });
      await recorded(backend.rpc("transfer_reversed", { payout_id: payout.id, reversal_id: reversal }), payout.id);
      reversed += 1;
    } catch (failure) {
      console.error("a transfer's reversal was left for the next run", payout.id, failure instanceof Error ? failure.message : failure);
    }
  }
  return reversed;
}

let checked: PayoutEnv | undefined;

/**
 * The scheduled job: the payouts due started (the database), every payout on its way sent or asked after,
 * and the payouts of refunded sales taken back.
 */
export async function runPayoutJob(rawEnv: unknown): Promise<PayoutRun> {
  const env = (checked ??= v.parse(PayoutEnvSchema, rawEnv));
  const backend = marketplaceClient(env);
  const due = await backend.rpc("payouts_to_send");
  if (due.error) throw new Error(`reading the payouts to send failed: ${due.error.message}`);
  const run = await sendPayouts(env, backend, v.parse(PayoutsSchema, due.data));
  run.reversed = await reverseRefundedPayouts(env, backend);
  console.log(
    `payouts: ${run.sent} sent, ${run.paid} paid, ${run.failed} failed, ${run.waiting} waiting (${run.unclaimed} unclaimed), ${run.reversed} reversed`,
  );
  return run;
}
