// The Stripe stand-in, driven through the real `stripe` package as the Worker drives it: Checkout Sessions
// created (once per idempotency key), read and expired; the hosted page's test cards; and events a webhook
// endpoint verifies with Stripe's own signature check; Stripe Tax on a session, from the buyer's country.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, taxRegistrations, testCards, type StripeStandIn } from "../stripe.ts";

let standIn: StripeStandIn;
let stripe: Stripe;
let endpoint: Server;
const received: Stripe.Event[] = [];
const webhookSecret = "whsec_stand_in_test";

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      // Verified exactly as the Worker verifies them.
      received.push(
        stripe.webhooks.constructEvent(Buffer.concat(chunks).toString("utf8"), String(request.headers["stripe-signature"]), webhookSecret),
      );
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  const webhookUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/webhooks/stripe`;
  standIn = await startStripeStandIn({ secretKey: "sk_test_stand_in", webhookSecret, webhookUrl });
  const api = new URL(standIn.url);
  stripe = new Stripe(standIn.secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });
});

afterAll(async () => {
  await standIn.close();
  await new Promise((resolve) => endpoint.close(resolve));
});

const sessionParams = (name = "Honey & Smoke", currency = "usd"): Stripe.Checkout.SessionCreateParams => ({
  mode: "payment",
  line_items: [{ quantity: 1, price_data: { currency, unit_amount: 199, product_data: { name } } }],
  customer_email: "fan@example.com",
  metadata: { order_id: "order-1" },
  success_url: "http://shop.example/checkout/done?session_id={CHECKOUT_SESSION_ID}",
  cancel_url: "http://shop.example/cart",
});

/** A session paid with the test card on the stand-in's page, and its payment. */
async function paidSession(currency = "usd") {
  const session = await stripe.checkout.sessions.create(sessionParams("Honey & Smoke", currency));
  await fetch(session.url!, {
    method: "POST",
    body: new URLSearchParams({ card: testCards.pays, expiry: "12/34", cvc: "123", country: "DE" }),
    redirect: "manual",
  });
  return { session, paymentIntent: String((await stripe.checkout.sessions.retrieve(session.id)).payment_intent) };
}

/** A session under Stripe Tax as the marketplace makes it: tax on top of each price, with a product tax code. */
const taxedParams = (lines: [name: string, unitAmount: number][], currency = "eur"): Stripe.Checkout.SessionCreateParams => ({
  ...sessionParams(),
  line_items: lines.map(([name, unit_amount]) => ({
    quantity: 1,
    price_data: { currency, unit_amount, tax_behavior: "exclusive", product_data: { name, tax_code: "txcd_10401100" } },
  })),
  automatic_tax: { enabled: true },
});

/** Pays a session on the stand-in's page with the test card, from `fields` (the billing country, a shipping address). */
async function pay(session: Stripe.Checkout.Session, fields: Record<string, string>) {
  const paid = await fetch(session.url!, {
    method: "POST",
    body: new URLSearchParams({ card: testCards.pays, expiry: "12/34", cvc: "123", ...fields }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  return stripe.checkout.sessions.retrieve(session.id);
}

/** An Express account onboarded through its link, ready for transfers. */
async function readyAccount() {
  const account = await stripe.accounts.create({
    controller: { stripe_dashboard: { type: "express" }, fees: { payer: "application" }, losses: { payments: "application" } },
    capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
  });
  const link = await stripe.accountLinks.create({
    account: account.id,
    type: "account_onboarding",
    return_url: "http://shop.example/payments",
    refresh_url: "http://shop.example/payments",
  });
  await fetch(link.url, {
    method: "POST",
    body: new URLSearchParams({ name: "Ada", bank_account: "GB33BUKB20201555555555" }),
    redirect: "manual",
  });
  return account;
}

describe("the Stripe stand-in", () => {
  it("creates a Checkout Session once per idempotency key, and refuses the key with other parameters", async () => {
    const first = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: "order-1" });
    const again = await stripe.checkout.sessions.create(sessionParams(), { idempotencyKey: "order-1" });
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({
      status: "open",
      payment_status: "unpaid",
      amount_total: 199,
      currency: "usd",
      metadata: { order_id: "order-1" },
    });
    await expect(stripe.checkout.sessions.create(sessionParams("Other"), { idempotencyKey: "order-1" })).rejects.toMatchObject({
      type: "StripeIdempotencyError",
    });
    expect((await stripe.checkout.sessions.retrieve(first.id)).id).toBe(first.id);
  });

  it("refuses a wrong key, an unknown session and a total under Stripe's least charge", async () => {
    const api = new URL(standIn.url);
    const wrong = new Stripe("sk_test_wrong", { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });
    await expect(wrong.checkout.sessions.retrieve("cs_test_x")).rejects.toMatchObject({ type: "StripeAuthenticationError" });
    await expect(stripe.checkout.sessions.retrieve("cs_test_missing")).rejects.toMatchObject({ statusCode: 404 });
    const tiny = sessionParams();
    tiny.line_items![0]!.price_data!.unit_amount = 49;
    await expect(stripe.checkout.sessions.create(tiny)).rejects.toMatchObject({ type: "StripeInvalidRequestError" });
  });

  it("pays with the test card on its page, returns to the shop, and sends the signed event", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const page = await fetch(session.url!);
    expect(await page.text()).toContain("Honey &#38; Smoke");
    const pay = (card: string) =>
      fetch(session.url!, {
        method: "POST",
        body: new URLSearchParams({ card, expiry: "12/34", cvc: "123", country: "DE" }),
        redirect: "manual",
      });
    const declined = await pay(testCards.declined);
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain("Your card was declined.");
    expect(await (await pay(testCards.insufficientFunds)).text()).toContain("Your card has insufficient funds.");

    const paid = await pay(testCards.pays);
    expect(paid.status).toBe(303);
    expect(paid.headers.get("location")).toBe(`http://shop.example/checkout/done?session_id=${session.id}`);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: "complete",
      payment_status: "paid",
      customer_details: { email: "fan@example.com", address: { country: "DE" } },
    });
    await standIn.delivered();
    const event = received.find((candidate) => candidate.type === "checkout.session.completed");
    expect(event?.data.object).toMatchObject({ id: session.id, payment_status: "paid" });
    // Closed once paid: the page says so, and it cannot be expired.
    expect((await fetch(session.url!)).status).toBe(410);
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({ statusCode: 400 });
  });

  it("expires an open session and says so with an event", async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    expect(await stripe.checkout.sessions.expire(session.id)).toMatchObject({ status: "expired" });
    await standIn.delivered();
    expect(received.some((event) => event.type === "checkout.session.expired" && event.data.object.id === session.id)).toBe(true);
  });

  it("takes a session's expires_at from 30 minutes to 24 hours ahead of its own clock, and lapses it then: its page refuses payment", async () => {
    const ahead = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;
    for (const seconds of [30 * 60 - 1, 24 * 3600 + 60])
      await expect(stripe.checkout.sessions.create({ ...sessionParams(), expires_at: ahead(seconds) })).rejects.toMatchObject({
        statusCode: 400,
        param: "expires_at",
      });
    const session = await stripe.checkout.sessions.create({ ...sessionParams(), expires_at: ahead(31 * 60) });
    standIn.advanceClock(30 * 60);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    standIn.advanceClock(60);
    const paying = await fetch(session.url!, {
      method: "POST",
      body: new URLSearchParams({ card: testCards.pays, expiry: "12/34", cvc: "123", country: "DE" }),
      redirect: "manual",
    });
    expect(paying.status).toBe(410);
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: "expired", payment_status: "unpaid" });
    await standIn.delivered();
    expect(received.some((event) => event.type === "checkout.session.expired" && event.data.object.id === session.id)).toBe(true);
  });

  it("refunds a paid session's charge once per idempotency key, never more than was paid, and says so with an event", async () => {
    const { session, paymentIntent } = await paidSession();
    const params = { payment_intent: paymentIntent, amount: 100 };
    const refund = await stripe.refunds.create(params, { idempotencyKey: `refund-${session.id}` });
    expect(refund).toMatchObject({ object: "refund", amount: 100, status: "succeeded", payment_intent: paymentIntent });
    expect((await stripe.refunds.create(params, { idempotencyKey: `refund-${session.id}` })).id).toBe(refund.id);
    await expect(stripe.refunds.create({ payment_intent: paymentIntent, amount: session.amount_total! })).rejects.toMatchObject({
      statusCode: 400,
    });
    await expect(stripe.refunds.create({ payment_intent: "pi_unknown" })).rejects.toMatchObject({ statusCode: 400 });
    await standIn.delivered();
    const refunded = received.find((event) => event.type === "charge.refunded");
    expect(refunded?.data.object).toMatchObject({ object: "charge", amount_refunded: 100, payment_intent: paymentIntent });
  });

  it("refuses an account as Stripe does: transfers alone without the recipient agreement, and the full agreement across regions", async () => {
    const express = { controller: { stripe_dashboard: { type: "express" as const } } };
    const transfersAlone = { transfers: { requested: true } };
    await expect(stripe.accounts.create({ ...express, country: "US", capabilities: transfersAlone })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining("without the `card_payments` capability"),
    });
    const both = { card_payments: { requested: true }, transfers: { requested: true } };
    await expect(stripe.accounts.create({ ...express, country: "GB", capabilities: both })).rejects.toMatchObject({
      statusCode: 400,
      param: "country",
    });
    const recipient = await stripe.accounts.create({
      ...express,
      country: "GB",
      capabilities: transfersAlone,
      tos_acceptance: { service_agreement: "recipient" },
    });
    expect(recipient).toMatchObject({ country: "GB" });
  });

  it("onboards an Express account through its link, says so with account.updated, and transfers to it from a charge once, reversibly", async () => {
    const params: Stripe.AccountCreateParams = {
      controller: { stripe_dashboard: { type: "express" }, fees: { payer: "application" }, losses: { payments: "application" } },
      capabilities: { card_payments: { requested: true }, transfers: { requested: true } },
      metadata: { artist_id: "a1" },
    };
    const account = await stripe.accounts.create(params, { idempotencyKey: "account-a1" });
    expect((await stripe.accounts.create(params, { idempotencyKey: "account-a1" })).id).toBe(account.id);
    expect(account).toMatchObject({ type: "express", details_submitted: false, capabilities: { transfers: "inactive" } });

    // A paid charge to transfer from.
    const { session, paymentIntent } = await paidSession();
    const charge = String((await stripe.paymentIntents.retrieve(paymentIntent)).latest_charge);
    const transfer = (amount: number, key: string) =>
      stripe.transfers.create(
        { amount, currency: "usd", destination: account.id, source_transaction: charge, transfer_group: paymentIntent },
        { idempotencyKey: key },
      );
    // Not onboarded yet: no transfers.
    await expect(transfer(100, "transfer-early")).rejects.toMatchObject({ statusCode: 400 });

    const link = await stripe.accountLinks.create({
      account: account.id,
      type: "account_onboarding",
      return_url: "http://shop.example/payments?stripe=return",
      refresh_url: "http://shop.example/payments?stripe=refresh",
    });
    expect((await fetch(link.url, { method: "POST", body: new URLSearchParams({ name: "Ada" }) })).status).toBe(400);
    const done = await fetch(link.url, {
      method: "POST",
      body: new URLSearchParams({ name: "Ada", bank_account: "GB33BUKB20201555555555" }),
      redirect: "manual",
    });
    expect(done.headers.get("location")).toBe("http://shop.example/payments?stripe=return");
    // A link is used once: again, it goes to refresh_url.
    expect((await fetch(link.url, { redirect: "manual" })).headers.get("location")).toBe("http://shop.example/payments?stripe=refresh");
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({
      details_submitted: true,
      payouts_enabled: true,
      capabilities: { transfers: "active" },
    });
    await standIn.delivered();
    const updated = received.find((event) => event.type === "account.updated");
    expect(updated).toMatchObject({ account: account.id, data: { object: { id: account.id, details_submitted: true } } });

    const made = await transfer(100, "transfer-1");
    expect((await transfer(100, "transfer-1")).id).toBe(made.id);
    expect(made).toMatchObject({ amount: 100, destination: account.id, source_transaction: charge, transfer_group: paymentIntent });
    // Never past what the charge left.
    await expect(transfer(session.amount_total!, "transfer-2")).rejects.toMatchObject({ statusCode: 400 });
    const reversal = await stripe.transfers.createReversal(made.id, { amount: 100 }, { idempotencyKey: "reversal-1" });
    expect(reversal).toMatchObject({ object: "transfer_reversal", amount: 100, transfer: made.id });
    await expect(stripe.transfers.createReversal(made.id, { amount: 1 })).rejects.toMatchObject({ statusCode: 400 });
    expect(standIn.transfers.filter((kept) => kept.destination === account.id)).toEqual([
      expect.objectContaining({ id: made.id, amount_reversed: 100, reversed: true }),
    ]);
  });

  it("settles a charge in another currency in the platform's USD at its stated rate, and transfers out of it in USD alone, never past it", async () => {
    const account = await readyAccount();

    // £1.99 is $2.53 at 1.27 dollars to the pound, less Stripe's 2.9% + 30¢.
    const { paymentIntent } = await paidSession("gbp");
    const intent = await stripe.paymentIntents.retrieve(paymentIntent, { expand: ["latest_charge.balance_transaction"] });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge.currency).toBe("gbp");
    expect(charge.balance_transaction).toMatchObject({ amount: 253, currency: "usd", exchange_rate: 1.27, fee: 37, net: 216 });
    // Unexpanded, an id, as Stripe answers.
    expect(typeof (await stripe.paymentIntents.retrieve(paymentIntent)).latest_charge).toBe("string");

    const transfer = (amount: number, currency: string) =>
      stripe.transfers.create({ amount, currency, destination: account.id, source_transaction: charge.id });
    await expect(transfer(100, "gbp")).rejects.toMatchObject({ statusCode: 400, param: "currency" });
    expect(await transfer(200, "usd")).toMatchObject({ amount: 200, currency: "usd" });
    // $2.53 came in; $2.00 of it has gone.
    await expect(transfer(54, "usd")).rejects.toMatchObject({ statusCode: 400, param: "amount" });
    expect(await transfer(53, "usd")).toMatchObject({ amount: 53 });
  });

  it("gives an event again as it was sent, a connected account's on its behalf alone, and fails as Stripe does when told to", async () => {
    const account = await readyAccount();
    const { session } = await paidSession();
    await standIn.delivered();
    const completed = received.findLast((event) => event.type === "checkout.session.completed")!;
    expect(completed.data.object).toMatchObject({ id: session.id });
    // Asked for, an event is in the account's version, not the endpoint's.
    expect(await stripe.events.retrieve(completed.id)).toEqual({ ...completed, api_version: "2024-06-20" });
    const updated = received.findLast((event) => event.type === "account.updated" && event.account === account.id)!;
    await expect(stripe.events.retrieve(updated.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await stripe.events.retrieve(updated.id, {}, { stripeAccount: account.id })).toMatchObject({ id: updated.id });

    await fetch(`${standIn.url}/_failures`, { method: "POST", body: JSON.stringify({ path: "/v1/events" }) });
    await expect(stripe.events.retrieve(completed.id)).rejects.toMatchObject({ statusCode: 500, type: "StripeAPIError" });
    await fetch(`${standIn.url}/_failures`, { method: "DELETE" });
    expect(await stripe.events.retrieve(completed.id)).toMatchObject({ id: completed.id });
  });

  // Stripe's "Collect taxes" (Checkout): tax comes from the buyer's location, "the shipping address entered
  // during the session ... If you don't collect shipping information, Checkout uses the billing address", and
  // only where the seller has a registration; `total_details.amount_tax` is "the sum of all the tax amounts".
  describe("Stripe Tax on a Checkout Session", () => {
    it("adds a German buyer's 19% VAT on top once their country is known, rounded per line, and charges the whole total", async () => {
      // Two lines of €1.50: 28.5¢ each, rounded to 29¢ on each line (not 57¢ on €3.00).
      const session = await stripe.checkout.sessions.create(
        taxedParams([
          ["Honey & Smoke", 150],
          ["Ember", 150],
        ]),
      );
      // Before the buyer's address, Stripe Tax waits for it and adds nothing.
      expect(session).toMatchObject({
        amount_subtotal: 300,
        amount_total: 300,
        automatic_tax: { enabled: true, status: "requires_location_inputs" },
        total_details: { amount_tax: 0 },
      });
      expect(await (await fetch(session.url!)).text()).toContain("plus tax");

      const paid = await pay(session, { country: "DE" });
      expect(taxRegistrations.DE).toMatchObject({ percentage: 19, display_name: "VAT" });
      expect(paid).toMatchObject({
        amount_subtotal: 300,
        amount_total: 358,
        automatic_tax: { enabled: true, status: "complete", liability: { type: "self" }, provider: "stripe" },
        total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 58 },
        customer_details: { address: { country: "DE" } },
      });
      // The charge, and the event the marketplace reads, are of the whole total, tax included.
      const intent = await stripe.paymentIntents.retrieve(String(paid.payment_intent), { expand: ["latest_charge"] });
      expect(intent.latest_charge).toMatchObject({ amount: 358, currency: "eur" });
      await standIn.delivered();
      const completed = received.find((event) => event.type === "checkout.session.completed" && event.data.object.id === session.id);
      expect(completed?.data.object).toMatchObject({ amount_total: 358, total_details: { amount_tax: 58 } });

      // Line items in their order, each with its tax when `data.taxes` is expanded, and without it unless asked.
      const listed = await stripe.checkout.sessions.listLineItems(session.id, { expand: ["data.taxes", "data.price.product"] });
      expect(listed.data).toEqual([
        expect.objectContaining({
          object: "item",
          description: "Honey & Smoke",
          amount_subtotal: 150,
          amount_tax: 29,
          amount_total: 179,
          price: expect.objectContaining({
            object: "price",
            unit_amount: 150,
            tax_behavior: "exclusive",
            product: expect.objectContaining({ object: "product", tax_code: "txcd_10401100" }),
          }),
          taxes: [
            {
              amount: 29,
              rate: expect.objectContaining({
                object: "tax_rate",
                country: "DE",
                display_name: "VAT",
                tax_type: "vat",
                percentage: 19,
                inclusive: false,
              }),
              taxability_reason: "standard_rated",
              taxable_amount: 150,
            },
          ],
        }),
        expect.objectContaining({ description: "Ember", amount_tax: 29, amount_total: 179 }),
      ]);
      expect(listed.has_more).toBe(false);
      const plain = await stripe.checkout.sessions.listLineItems(session.id);
      expect(plain.data[0]).not.toHaveProperty("taxes");
      expect(typeof plain.data[0]!.price!.product).toBe("string");
      // The same items on the session itself, when it is asked for them.
      const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ["line_items.data.taxes"] });
      expect(expanded.line_items).toMatchObject({ object: "list", has_more: false, data: [{ amount_tax: 29 }, { amount_tax: 29 }] });
      expect(expanded.line_items!.data[0]!.taxes![0]).toMatchObject({ amount: 29, rate: { percentage: 19 } });
      expect(await stripe.checkout.sessions.retrieve(session.id)).not.toHaveProperty("line_items");
    });

    it("taxes the shipping at the goods' rate, from the shipping address rather than the billing country", async () => {
      const session = await stripe.checkout.sessions.create({
        ...taxedParams([["Vinyl", 1000]]),
        shipping_address_collection: { allowed_countries: ["FR"] },
        shipping_options: [
          {
            shipping_rate_data: {
              type: "fixed_amount",
              fixed_amount: { amount: 500, currency: "eur" },
              display_name: "Shipping to France",
              tax_behavior: "exclusive",
              tax_code: "txcd_92010001",
            },
          },
        ],
      });
      const paid = await pay(session, {
        country: "US",
        shipping_name: "Ada",
        shipping_line1: "1 rue de Rivoli",
        shipping_city: "Paris",
        shipping_postal_code: "75001",
        shipping_country: "FR",
      });
      // France's 20%: €2.00 on the record, €1.00 on the shipping.
      expect(paid).toMatchObject({
        amount_subtotal: 1000,
        amount_total: 1800,
        total_details: { amount_shipping: 500, amount_tax: 300 },
        shipping_cost: {
          amount_subtotal: 500,
          amount_tax: 100,
          amount_total: 600,
          taxes: [{ amount: 100, rate: { country: "FR", percentage: 20 }, taxability_reason: "standard_rated", taxable_amount: 500 }],
        },
      });
      // The shipping rate keeps its tax code and behavior, seen when the session is asked for it expanded.
      const expanded = await stripe.checkout.sessions.retrieve(session.id, { expand: ["shipping_cost.shipping_rate"] });
      expect(expanded.shipping_cost?.shipping_rate).toMatchObject({
        object: "shipping_rate",
        tax_behavior: "exclusive",
        tax_code: "txcd_92010001",
        fixed_amount: { amount: 500, currency: "eur" },
      });
      expect(typeof paid.shipping_cost?.shipping_rate).toBe("string");
    });

    it("takes a German buyer's VAT out of prices that include it, so they pay the prices alone", async () => {
      // "When set to inclusive, the amount your buyer pays never changes, even if the tax rate varies": of
      // €1.50 with 19% in it, €1.26 is the price and 24¢ the tax.
      const params = taxedParams([["Honey & Smoke", 150]]);
      const session = await stripe.checkout.sessions.create({
        ...params,
        line_items: params.line_items!.map((item) => ({ ...item, price_data: { ...item.price_data!, tax_behavior: "inclusive" } })),
      });
      const paid = await pay(session, { country: "DE" });
      expect(paid).toMatchObject({ amount_total: 150, total_details: { amount_tax: 24 } });
      const [item] = (await stripe.checkout.sessions.listLineItems(session.id, { expand: ["data.taxes"] })).data;
      expect(item).toMatchObject({
        amount_subtotal: 150,
        amount_tax: 24,
        amount_total: 150,
        price: { tax_behavior: "inclusive" },
        taxes: [{ amount: 24, rate: { country: "DE", percentage: 19, inclusive: true }, taxable_amount: 126 }],
      });
    });

    it("collects no tax from a US buyer, where the stand-in has no registration (not_collecting)", async () => {
      // "Stripe Tax only calculates tax in jurisdictions where you're registered to collect tax."
      expect(taxRegistrations).not.toHaveProperty("US");
      const session = await stripe.checkout.sessions.create(taxedParams([["Honey & Smoke", 199]], "usd"));
      const paid = await pay(session, { country: "US" });
      expect(paid).toMatchObject({ amount_total: 199, automatic_tax: { status: "complete" }, total_details: { amount_tax: 0 } });
      const [item] = (await stripe.checkout.sessions.listLineItems(session.id, { expand: ["data.taxes"] })).data;
      expect(item).toMatchObject({
        amount_tax: 0,
        amount_total: 199,
        taxes: [{ amount: 0, rate: { country: "US", percentage: 0, tax_type: "sales_tax" }, taxability_reason: "not_collecting" }],
      });
    });

    it("adds no tax to a session without automatic_tax, whatever the buyer's country", async () => {
      // automatic_tax[enabled] is what turns Stripe Tax on for a session; without it, nothing is added.
      const session = await stripe.checkout.sessions.create(sessionParams("Honey & Smoke", "eur"));
      expect(session.automatic_tax).toEqual({ enabled: false, liability: null, provider: null, status: null });
      const paid = await pay(session, { country: "DE" });
      expect(paid).toMatchObject({ amount_total: 199, total_details: { amount_tax: 0 } });
      const [item] = (await stripe.checkout.sessions.listLineItems(session.id, { expand: ["data.taxes"] })).data;
      expect(item).toMatchObject({ amount_tax: 0, amount_total: 199, taxes: [], price: { tax_behavior: "unspecified" } });
    });

    it("refuses what is not a product tax code, and a price without tax_behavior under automatic tax, as Stripe does", async () => {
      // Product tax codes are Stripe's `txcd_` identifiers, taken as exact strings.
      const badCode = taxedParams([["Honey & Smoke", 199]]);
      badCode.line_items![0]!.price_data!.product_data!.tax_code = "music";
      await expect(stripe.checkout.sessions.create(badCode)).rejects.toMatchObject({
        type: "StripeInvalidRequestError",
        param: "line_items[0][price_data][product_data][tax_code]",
      });
      const badShippingCode: Stripe.Checkout.SessionCreateParams = {
        ...taxedParams([["Vinyl", 1000]]),
        shipping_options: [
          {
            shipping_rate_data: {
              type: "fixed_amount",
              fixed_amount: { amount: 500, currency: "eur" },
              display_name: "Shipping",
              tax_behavior: "exclusive",
              tax_code: "shipping",
            },
          },
        ],
      };
      await expect(stripe.checkout.sessions.create(badShippingCode)).rejects.toMatchObject({
        param: "shipping_options[0][shipping_rate_data][tax_code]",
      });
      // "Setting the tax behavior explicitly on a price is optional, if you set up the default tax behavior in
      // the Stripe Tax settings": the stand-in's have none, so each price must say.
      const noBehavior = taxedParams([["Honey & Smoke", 199]]);
      delete noBehavior.line_items![0]!.price_data!.tax_behavior;
      await expect(stripe.checkout.sessions.create(noBehavior)).rejects.toMatchObject({
        type: "StripeInvalidRequestError",
        param: "line_items[0][price_data][tax_behavior]",
        message: expect.stringContaining("`tax_behavior`"),
      });
    });
  });
});
