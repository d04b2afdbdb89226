// The Stripe stand-in's billing, driven through the real `stripe` package as the Worker drives it: a
// Checkout Session in subscription mode paid on the hosted page makes a customer, an active subscription and
// its first invoice, paid; test clocks move a subscription to its next period (a renewal paid) or to the end
// of one set to cancel (deleted); every event signed as Stripe signs them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, testCards, type StripeStandIn } from "../stripe.ts";
import { periodEnd } from "../stripe-billing.ts";

let standIn: StripeStandIn;
let stripe: Stripe;
let endpoint: Server;
const received: Stripe.Event[] = [];
const webhookSecret = "whsec_billing_test";

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push(
        stripe.webhooks.constructEvent(Buffer.concat(chunks).toString("utf8"), String(request.headers["stripe-signature"]), webhookSecret),
      );
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhooks/stripe`;
  standIn = await startStripeStandIn({ secretKey: "sk_test_billing", webhookSecret, webhookUrl });
  const api = new URL(standIn.url);
  stripe = new Stripe(standIn.secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });
});

afterAll(async () => {
  await standIn.close();
  await new Promise((resolve) => endpoint.close(resolve));
});

const membership = (interval: "month" | "year", unitAmount = 500): Stripe.Checkout.SessionCreateParams => ({
  mode: "subscription",
  line_items: [
    {
      quantity: 1,
      price_data: {
        currency: "eur",
        unit_amount: unitAmount,
        recurring: { interval },
        tax_behavior: "exclusive",
        product_data: { name: "Inner circle", tax_code: "txcd_10401100" },
      },
    },
  ],
  automatic_tax: { enabled: true },
  customer_email: "fan@example.com",
  subscription_data: { metadata: { membership_tier_id: "tier-1" } },
  success_url: "http://shop.example/memberships/done?session_id={CHECKOUT_SESSION_ID}",
  cancel_url: "http://shop.example/artist",
});

async function join(interval: "month" | "year", unitAmount = 500) {
  const session = await stripe.checkout.sessions.create(membership(interval, unitAmount));
  const paid = await fetch(session.url!, {
    method: "POST",
    body: new URLSearchParams({ card: testCards.pays, expiry: "12/34", cvc: "123", country: "DE" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  await standIn.delivered();
  return stripe.checkout.sessions.retrieve(session.id);
}

/** A test clock set for the next fan's customer, at `frozenTime`. */
async function onClock(frozenTime: number) {
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: frozenTime });
  const set = await fetch(`${standIn.url}/_test_clock`, { method: "POST", body: JSON.stringify({ test_clock: clock.id }) });
  expect(set.status).toBe(204);
  return clock;
}

async function advance(clock: string, frozenTime: number) {
  const moving = await stripe.testHelpers.testClocks.advance(clock, { frozen_time: frozenTime });
  expect(moving.status).toBe("advancing");
  while ((await stripe.testHelpers.testClocks.retrieve(clock)).status !== "ready") await new Promise((resolve) => setTimeout(resolve, 10));
  await standIn.delivered();
}

const eventsOf = (type: string, subscription: string) =>
  received.filter((event) => {
    if (event.type !== type) return false;
    const object = event.data.object as { id: string; parent?: { subscription_details?: { subscription?: string } } };
    return object.id === subscription || object.parent?.subscription_details?.subscription === subscription;
  });

describe("the Stripe stand-in's subscriptions", () => {
  it("refuses a recurring price in payment mode and a one-time price in subscription mode, as Stripe does", async () => {
    const recurringInPayment = { ...membership("month"), mode: "payment" as const };
    await expect(stripe.checkout.sessions.create(recurringInPayment)).rejects.toThrow(/passed a recurring price/);
    const oneTime = membership("month");
    delete oneTime.line_items![0]!.price_data!.recurring;
    await expect(stripe.checkout.sessions.create(oneTime)).rejects.toThrow(/recurring prices alone/);
  });

  it("makes the customer, an active subscription and its first invoice, paid, when the session is paid", async () => {
    const session = await join("month");
    expect(session).toMatchObject({ mode: "subscription", status: "complete", payment_status: "paid", payment_intent: null });
    const subscription = await stripe.subscriptions.retrieve(String(session.subscription));
    expect(subscription).toMatchObject({
      status: "active",
      cancel_at_period_end: false,
      customer: session.customer,
      metadata: { membership_tier_id: "tier-1" },
    });
    const item = subscription.items.data[0]!;
    expect(item.price.recurring?.interval).toBe("month");
    expect(item.current_period_end).toBe(periodEnd(item.current_period_start, "month"));
    const [paid] = eventsOf("invoice.paid", subscription.id);
    const invoice = paid!.data.object as Stripe.Invoice;
    // €5 and Germany's 19% VAT on top.
    expect(invoice).toMatchObject({
      amount_paid: 595,
      currency: "eur",
      billing_reason: "subscription_create",
      status: "paid",
      subtotal: 500,
    });
    expect(invoice.id).toBe(session.invoice);
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);
    expect(invoice.lines.data[0]!.period).toEqual({ start: item.current_period_start, end: item.current_period_end });
    expect(
      received.find((event) => event.type === "checkout.session.completed" && (event.data.object as { id: string }).id === session.id),
    ).toBeDefined();
    // Its payment, when asked for: a payment intent whose charge the payouts transfer from.
    const withPayments = await stripe.invoices.retrieve(invoice.id!, { expand: ["payments"] });
    const intent = String(withPayments.payments?.data[0]?.payment.payment_intent);
    const charged = await stripe.paymentIntents.retrieve(intent, { expand: ["latest_charge"] });
    expect((charged.latest_charge as Stripe.Charge).amount).toBe(595);
  });

  it("renews on a test clock at the period's end: a cycle invoice paid and sent, the period moved on", async () => {
    const start = Date.UTC(2027, 0, 31) / 1000;
    const clock = await onClock(start);
    const session = await join("month");
    await fetch(`${standIn.url}/_test_clock`, { method: "DELETE" });
    const subscription = String(session.subscription);
    expect((await stripe.subscriptions.retrieve(subscription)).items.data[0]!.current_period_end).toBe(Date.UTC(2027, 1, 28) / 1000);
    await advance(clock.id, Date.UTC(2027, 1, 28, 1) / 1000);
    const renewals = eventsOf("invoice.paid", subscription);
    expect(renewals.map((event) => (event.data.object as Stripe.Invoice).billing_reason)).toEqual([
      "subscription_create",
      "subscription_cycle",
    ]);
    const renewal = renewals[1]!.data.object as Stripe.Invoice;
    expect(renewal.lines.data[0]!.period).toEqual({ start: Date.UTC(2027, 1, 28) / 1000, end: Date.UTC(2027, 2, 28) / 1000 });
    expect(renewal.amount_paid).toBe(595);
    expect(eventsOf("customer.subscription.updated", subscription)).toHaveLength(1);
    // A clock moves forward alone, and never more than two intervals past its shortest subscription.
    await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start })).rejects.toThrow(/after the test clock/);
    await expect(stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: Date.UTC(2027, 6, 1) / 1000 })).rejects.toThrow(
      /two intervals/,
    );
  });

  it("cancels at the period's end when asked: active until then, deleted and said so at that end, with no renewal", async () => {
    const start = Date.UTC(2027, 5, 1) / 1000;
    const clock = await onClock(start);
    const session = await join("year", 6000);
    await fetch(`${standIn.url}/_test_clock`, { method: "DELETE" });
    const subscription = String(session.subscription);
    const cancelling = await stripe.subscriptions.update(subscription, { cancel_at_period_end: true });
    expect(cancelling).toMatchObject({ status: "active", cancel_at_period_end: true, cancel_at: Date.UTC(2028, 5, 1) / 1000 });
    await standIn.delivered();
    expect(eventsOf("customer.subscription.updated", subscription)).toHaveLength(1);
    await advance(clock.id, Date.UTC(2028, 5, 2) / 1000);
    const [deleted] = eventsOf("customer.subscription.deleted", subscription);
    expect(deleted!.data.object).toMatchObject({ status: "canceled", ended_at: Date.UTC(2028, 5, 1) / 1000 });
    expect(eventsOf("invoice.paid", subscription)).toHaveLength(1);
    await expect(stripe.subscriptions.update(subscription, { cancel_at_period_end: false })).rejects.toThrow(/canceled subscription/);
  });

  it("cancels at once on DELETE, and says so", async () => {
    const session = await join("month");
    const subscription = String(session.subscription);
    const canceled = await stripe.subscriptions.cancel(subscription);
    expect(canceled.status).toBe("canceled");
    await standIn.delivered();
    expect(eventsOf("customer.subscription.deleted", subscription)).toHaveLength(1);
    await expect(stripe.subscriptions.retrieve("sub_test_none")).rejects.toThrow(/No such subscription/);
  });
});
