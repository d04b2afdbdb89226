// The PayPal stand-in, spoken to over plain HTTP as the Worker speaks to PayPal's Payouts API: a payout to an
// address with no PayPal account waits UNCLAIMED and is RETURNED once its claim window passes, as PayPal's
// Payouts docs say ("If the recipient does not create an account and claim the payout within 30 days, the
// funds will be returned to your account": Payouts Payment Processing, developer.paypal.com/docs/payouts/
// reference/payment-processing/; the item's `transaction_status` values, developer.paypal.com/api/
// payments.payouts-batch/v1/definitions/transaction_enum); a payout to an account PayPal will not pay fails
// at once; one to an account is paid.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockedDomain, startPaypalStandIn, unregisteredDomain, type PaypalStandIn, type PayoutBatch } from "../paypal.ts";

let standIn: PaypalStandIn;
let token: string;

beforeAll(async () => {
  standIn = await startPaypalStandIn({ clientId: "client", clientSecret: "secret" });
  const answer = await fetch(`${standIn.url}/v1/oauth2/token`, {
    method: "POST",
    headers: { Authorization: `Basic ${btoa("client:secret")}`, "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  token = ((await answer.json()) as { access_token: string }).access_token;
});
afterAll(() => standIn.close());

/** A batch of one payout of £54.55 to `receiver`: PayPal's batch id. */
async function pay(receiver: string): Promise<string> {
  const answer = await fetch(`${standIn.url}/v1/payments/payouts`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      sender_batch_header: { sender_batch_id: crypto.randomUUID() },
      items: [{ recipient_type: "EMAIL", amount: { value: "54.55", currency: "GBP" }, receiver }],
    }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as PayoutBatch).batch_header.payout_batch_id;
}

/** The batch's one item as PayPal answers it now. */
async function itemOf(batchId: string) {
  const answer = await fetch(`${standIn.url}/v1/payments/payouts/${batchId}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  const batch = (await answer.json()) as PayoutBatch;
  // The batch is processed whatever became of its items: "Check the status of each item for any holds or
  // unclaimed transactions" (PayPal's batch_status SUCCESS).
  expect(batch.batch_header.batch_status).toBe("SUCCESS");
  return batch.items[0]!;
}

const claimWindow = (seconds: unknown) =>
  fetch(`${standIn.url}/_claim_window`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seconds }),
  });

describe("the PayPal stand-in's payouts", () => {
  it("pays a receiver with a PayPal account at once", async () => {
    expect(await itemOf(await pay("artist@example.com"))).toMatchObject({ transaction_status: "SUCCESS" });
  });

  it("keeps a payout to an address with no PayPal account UNCLAIMED within PayPal's 30 days", async () => {
    const item = await itemOf(await pay(`nobody@${unregisteredDomain}`));
    expect(item).toMatchObject({
      transaction_status: "UNCLAIMED",
      errors: { name: "RECEIVER_UNREGISTERED", message: "Receiver is unregistered" },
    });
    // When PayPal processed it: the 30 days count from then.
    expect(Date.now() - Date.parse(item.time_processed)).toBeLessThan(60_000);
  });

  it("returns it once the claim window passes, shortened by the stand-in's setting", async () => {
    const batch = await pay(`nobody@${unregisteredDomain}`);
    expect((await itemOf(batch)).transaction_status).toBe("UNCLAIMED");
    expect((await claimWindow(0)).status).toBe(204);
    try {
      expect((await itemOf(batch)).transaction_status).toBe("RETURNED");
      // Returned stays returned, whatever the window is set to after.
      expect((await claimWindow(30 * 86_400)).status).toBe(204);
      expect((await itemOf(batch)).transaction_status).toBe("RETURNED");
      expect(standIn.batches.find((one) => one.batch_header.payout_batch_id === batch)?.items[0]?.transaction_status).toBe("RETURNED");
    } finally {
      standIn.setClaimWindow(30 * 86_400);
    }
  });

  it("fails a payout to an account PayPal will not pay at once, moving no money", async () => {
    expect(await itemOf(await pay(`nobody@${lockedDomain}`))).toMatchObject({
      transaction_status: "FAILED",
      transaction_id: null,
      errors: { name: "RECEIVER_ACCOUNT_LOCKED" },
    });
  });

  it("refuses a claim window that is not a number of seconds", async () => {
    expect((await claimWindow(-1)).status).toBe(400);
    expect((await claimWindow("soon")).status).toBe(400);
  });
});
