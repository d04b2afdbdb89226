// PayPal's Payouts API, over fetch (no SDK): how an artist who chose PayPal is paid. An OAuth access token
// from the app's client credentials, a payouts batch of one item per payout (the payout's id is both the
// batch's `sender_batch_id` and its `PayPal-Request-Id`, so a repeated request makes no second payment),
// and the batch's outcome. On a local run PAYPAL_API_URL points it at the stand-in (stand-ins/paypal.ts),
// which speaks the same API.
import * as v from "valibot";
import type { PaypalEnv } from "~/lib/http/provider-env";
import { PayoutRefused, type PayoutOutcome, type PayoutProvider } from "../payout-provider";

const apiOf = (env: PaypalEnv) => env.PAYPAL_API_URL || "https://api-m.paypal.com";

const Token = v.object({ access_token: v.string() });
const Created = v.object({ batch_header: v.object({ payout_batch_id: v.string() }) });
const Link = v.object({ href: v.string(), rel: v.string() });
const Refused = v.object({
  name: v.string(),
  message: v.string(),
  // A batch refused as sent before links to the first (PayPal's Payouts reference): in its detail, as
  // PayPal answers; the error's own links are read too, should it ever put the link there.
  details: v.optional(v.array(v.object({ issue: v.optional(v.string()), link: v.optional(v.array(Link)) }))),
  links: v.optional(v.array(Link)),
});
const Batch = v.object({
  batch_header: v.object({ payout_batch_id: v.string(), batch_status: v.string() }),
  items: v.optional(
    v.array(
      v.object({
        transaction_status: v.optional(v.string()),
        time_processed: v.optional(v.string()),
        errors: v.optional(v.object({ name: v.optional(v.string()), message: v.optional(v.string()) })),
      }),
    ),
  ),
});

async function call(env: PaypalEnv, path: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${apiOf(env)}${path}`, init);
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** An access token for the app (PayPal's last about nine hours; one is asked for each run of the job). */
export async function paypalToken(env: PaypalEnv): Promise<string> {
  const { status, body } = await call(env, "/v1/oauth2/token", {
    method: "POST",
    headers: {
      Authorization: `Basic ${btoa(`${env.PAYPAL_CLIENT_ID}:${env.PAYPAL_CLIENT_SECRET}`)}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  if (status !== 200) throw new Error(`PayPal refused the app's credentials (${status})`);
  return v.parse(Token, body).access_token;
}

export type PaypalPayout = { id: string; amount_cents: number; currency: string; recipient: string };

/** The payout sent as a batch of one, once per payout id: answers PayPal's batch id. */
export async function sendPaypalPayout(env: PaypalEnv, token: string, payout: PaypalPayout): Promise<string> {
  const { status, body } = await call(env, "/v1/payments/payouts", {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "PayPal-Request-Id": payout.id },
    body: JSON.stringify({
      sender_batch_header: {
        sender_batch_id: payout.id,
        email_subject: "You have a payout from Crate",
        email_message: "Your earnings from your sales on Crate.",
      },
      items: [
        {
          recipient_type: "EMAIL",
          amount: { value: (payout.amount_cents / 100).toFixed(2), currency: payout.currency },
          receiver: payout.recipient,
          sender_item_id: payout.id,
          note: "Your earnings on Crate",
        },
      ],
    }),
  });
  if (status === 201 || status === 200) return v.parse(Created, body).batch_header.payout_batch_id;
  const refused = v.safeParse(Refused, body);
  // Sent before (its answer lost, and PayPal no longer replaying it for the request id): the batch PayPal
  // links to is this payout's, sent once, never to be sent again nor counted as failed.
  const earlier = refused.success
    ? [...(refused.output.details?.flatMap((detail) => detail.link ?? []) ?? []), ...(refused.output.links ?? [])].find(
        (link) => link.rel === "self",
      )
    : undefined;
  if (earlier) return earlier.href.split("/").at(-1)!;
  const reason = refused.success ? (refused.output.details?.[0]?.issue ?? refused.output.message) : `PayPal answered ${status}`;
  if (status >= 400 && status < 500 && status !== 401 && status !== 429) throw new PayoutRefused(reason);
  throw new Error(reason);
}

/**
 * Why PayPal returned a payout: it was not claimed (in its 30 days, or its sender cancelled it meanwhile in
 * PayPal, the other way an unclaimed item is RETURNED).
 */
const paypalReturned = "PayPal returned the payout unclaimed.";

/**
 * What became of a batch: paid, failed with PayPal's reason, unclaimed (no PayPal account at that address:
 * PayPal holds the money for 30 days, then returns it), or null while PayPal is still at it.
 */
export async function paypalPayoutOutcome(env: PaypalEnv, token: string, batchId: string): Promise<PayoutOutcome> {
  const { status, body } = await call(env, `/v1/payments/payouts/${encodeURIComponent(batchId)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (status !== 200) throw new Error(`PayPal answered ${status} for payout ${batchId}`);
  const batch = v.parse(Batch, body);
  const item = batch.items?.[0];
  if (batch.batch_header.batch_status === "DENIED" || batch.batch_header.batch_status === "CANCELED")
    return { paid: false, failure: item?.errors?.message ?? `PayPal ${batch.batch_header.batch_status.toLowerCase()} the payout` };
  switch (item?.transaction_status) {
    case "SUCCESS":
      return { paid: true };
    case "UNCLAIMED":
      // "If the recipient does not create an account and claim the payout within 30 days, the funds will be
      // returned to your account" (PayPal's Payouts Payment Processing): asked again on each run until then.
      return item.time_processed ? { unclaimed: true, since: item.time_processed } : null;
    case "RETURNED":
      return { paid: false, failure: paypalReturned };
    case "FAILED":
    case "BLOCKED":
    case "REFUNDED":
    case "REVERSED":
      return { paid: false, failure: item.errors?.message ?? `PayPal says the payout was ${item.transaction_status.toLowerCase()}` };
    default:
      // PENDING, ONHOLD: asked again on the next run.
      return null;
  }
}

/**
 * PayPal's Payouts for one run of the payout job (one access token for the run), or null without the
 * app's credentials. A PayPal payout is the artist's whole balance, so none is taken back: a refund after
 * it is the ledger's to debit.
 */
export function paypalPayouts(env: PaypalEnv): PayoutProvider | null {
  if (!env.PAYPAL_CLIENT_ID || !env.PAYPAL_CLIENT_SECRET) return null;
  let token: Promise<string> | undefined;
  const tokenForRun = () => (token ??= paypalToken(env));
  return {
    send: async (payout) => ({ id: await sendPaypalPayout(env, await tokenForRun(), payout) }),
    outcome: async (batchId) => paypalPayoutOutcome(env, await tokenForRun(), batchId),
  };
}
