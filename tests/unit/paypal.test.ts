// The marketplace's PayPal client (app/lib/providers/paypal) against the PayPal stand-in (stand-ins/paypal.ts): a token
// for the app's credentials alone; a payout batch paid once per request id (and a batch id used before
// under another request id refused with PayPal's link to the first); its outcome, paid, failed with PayPal's reason, or
// waiting to be claimed (no PayPal account at that address) until PayPal returns it; bad items and unknown tokens refused
// in PayPal's error shapes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockedDomain, startPaypalStandIn, unregisteredDomain, type PaypalStandIn } from "@crate/stand-ins/paypal";
import type { PaypalEnv } from "~/lib/http/provider-env";
import { PayoutRefused } from "~/lib/providers/payout-provider";
import { paypalPayoutOutcome, paypalToken, sendPaypalPayout } from "~/lib/providers/paypal/paypal.server";

let standIn: PaypalStandIn;
let env: PaypalEnv;

beforeAll(async () => {
  standIn = await startPaypalStandIn({ clientId: "client", clientSecret: "secret" });
  env = { PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_API_URL: standIn.url };
});
afterAll(() => standIn.close());

const payout = (id: string, recipient = "artist@example.com") => ({ id, amount_cents: 5455, currency: "GBP", recipient });

describe("the PayPal stand-in", () => {
  it("gives a token for the app's credentials alone", async () => {
    expect(await paypalToken(env)).toMatch(/^A21AA/);
    await expect(paypalToken({ ...env, PAYPAL_CLIENT_SECRET: "wrong" })).rejects.toThrow(/credentials \(401\)/);
  });

  it("pays a payout once however often it is sent, and says it was paid", async () => {
    const token = await paypalToken(env);
    const id = crypto.randomUUID();
    const batch = await sendPaypalPayout(env, token, payout(id));
    expect(await sendPaypalPayout(env, token, payout(id))).toBe(batch);
    expect(standIn.batches.filter((b) => b.batch_header.sender_batch_header.sender_batch_id === id)).toHaveLength(1);
    expect(standIn.batches.at(-1)?.items[0]?.payout_item).toMatchObject({
      receiver: "artist@example.com",
      amount: { value: "54.55", currency: "GBP" },
    });
    expect(await paypalPayoutOutcome(env, token, batch)).toEqual({ paid: true });
  });

  it("refuses a batch id used before under another request id, linking to the first batch", async () => {
    const token = await paypalToken(env);
    const id = crypto.randomUUID();
    const batch = await sendPaypalPayout(env, token, payout(id));
    const again = await fetch(`${standIn.url}/v1/payments/payouts`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ sender_batch_header: { sender_batch_id: id }, items: [] }),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({
      name: "USER_BUSINESS_ERROR",
      details: [{ field: "SENDER_BATCH_ID", link: [{ href: `${standIn.url}/v1/payments/payouts/${batch}`, rel: "self" }] }],
      links: [],
    });
    expect(standIn.batches.filter((b) => b.batch_header.payout_batch_id === batch)).toHaveLength(1);
  });

  it("takes a payout whose answer was lost, once PayPal no longer replays it, as the batch sent before: paid once", async () => {
    const token = await paypalToken(env);
    const id = crypto.randomUUID();
    const batch = await sendPaypalPayout(env, token, payout(id));
    standIn.forgetRequestIds();
    expect(await sendPaypalPayout(env, token, payout(id))).toBe(batch);
    expect(standIn.batches.filter((b) => b.batch_header.sender_batch_header.sender_batch_id === id)).toHaveLength(1);
  });

  it("fails a payout to an account PayPal will not pay, with PayPal's reason", async () => {
    const token = await paypalToken(env);
    const batch = await sendPaypalPayout(env, token, payout(crypto.randomUUID(), `nobody@${lockedDomain}`));
    expect(await paypalPayoutOutcome(env, token, batch)).toEqual({ paid: false, failure: "Receiver account is locked or inactive" });
  });

  it("reads a payout to an address with no PayPal account as unclaimed since PayPal processed it, then failed once returned", async () => {
    const token = await paypalToken(env);
    const batch = await sendPaypalPayout(env, token, payout(crypto.randomUUID(), `nobody@${unregisteredDomain}`));
    const processed = standIn.batches.find((one) => one.batch_header.payout_batch_id === batch)!.items[0]!.time_processed;
    expect(await paypalPayoutOutcome(env, token, batch)).toEqual({ unclaimed: true, since: processed });
    standIn.setClaimWindow(0);
    try {
      expect(await paypalPayoutOutcome(env, token, batch)).toEqual({
        paid: false,
        failure: "PayPal returned the payout unclaimed.",
      });
    } finally {
      standIn.setClaimWindow(30 * 86_400);
    }
  });

  it("refuses a bad item for good and an unknown token", async () => {
    const token = await paypalToken(env);
    await expect(sendPaypalPayout(env, token, payout(crypto.randomUUID(), "not an email"))).rejects.toBeInstanceOf(PayoutRefused);
    await expect(sendPaypalPayout(env, "A21AAunknown", payout(crypto.randomUUID()))).rejects.toThrow();
    await expect(sendPaypalPayout(env, "A21AAunknown", payout(crypto.randomUUID()))).rejects.not.toBeInstanceOf(PayoutRefused);
  });
});
