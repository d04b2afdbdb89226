// A membership's payments as Stripe's webhook brings them: a fan's subscription paid on the stand-in's page
// (its metadata naming the fan, tier and interval) becomes a membership and an order of its own, the
// artist's 88% credited in the ledger; the same invoice said again changes nothing; the subscription set
// to end, then deleted, leaves the membership cancelling, then ended. A subscription that is not a
// membership's is left alone.
import Stripe from "stripe";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { newArtist, newFan, serviceClient } from "./support.ts";

const { url: stripeUrl, secretKey, webhookSecret } = inject("stripe");
const api = new URL(stripeUrl);
const stripe = new Stripe(secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });

let artist: Awaited<ReturnType<typeof newArtist>>;
let tierId: string;

beforeAll(async () => {
  artist = await newArtist(`Member hub ${Date.now().toString(36)}`);
  const { data, error } = await serviceClient
    .from("membership_tiers")
    .insert({ artist_id: artist.id, name: "Inner circle", monthly_price_cents: 500, currency: "EUR", grants_back_catalogue: true })
    .select("id")
    .single();
  if (error) throw error;
  tierId = data.id;
});

/** A subscription-mode session for the tier at 5 euros a month, its metadata as `metadata`, paid with 4242 on the stand-in's page. */
async function subscribe(metadata: Record<string, string>) {
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    line_items: [
      {
        quantity: 1,
        price_data: { currency: "eur", unit_amount: 500, recurring: { interval: "month" }, product_data: { name: "Inner circle" } },
      },
    ],
    customer_email: "member@example.com",
    subscription_data: { metadata },
    success_url: "http://localhost/done?session_id={CHECKOUT_SESSION_ID}",
    cancel_url: "http://localhost/",
  });
  const paid = await fetch(session.url!, {
    method: "POST",
    body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "DE" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  return String((await stripe.checkout.sessions.retrieve(session.id)).subscription);
}

/** Waits for what the stand-in's deliveries write (they run beside the page's answer). */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let tries = 0; ; tries++) {
    const value = await read();
    if (done(value) || tries > 50) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function membershipOf(subscriptionId: string) {
  const { data } = await serviceClient.from("memberships").select("*").eq("subscription_id", subscriptionId).maybeSingle();
  return data;
}

async function membershipLines(tier: string) {
  const { data } = await serviceClient
    .from("order_lines")
    .select("id, total_cents, artist_share_cents")
    .eq("kind", "membership")
    .eq("item_id", tier);
  return data ?? [];
}

const deliver = (event: object) => {
  const payload = JSON.stringify(event);
  return fetch(new URL("/webhooks/stripe", inject("appUrl")), {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Stripe-Signature": stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret }),
    },
    body: payload,
  });
};

const eventOf = (type: string, object: object) => ({
  id: `evt_test_${crypto.randomUUID()}`,
  object: "event",
  api_version: Stripe.API_VERSION,
  type,
  created: Math.floor(Date.now() / 1000),
  data: { object },
});

describe("Stripe's webhook for memberships", () => {
  it("makes a paid subscription a membership and its invoice an order, credited once however often it is said", async () => {
    const fan = await newFan(`joiner${Date.now().toString(36)}`);
    const subscriptionId = await subscribe({ fan_id: fan.id, membership_tier_id: tierId, membership_interval: "month" });
    const membership = await eventually(
      () => membershipOf(subscriptionId),
      (found) => found !== null,
    );
    expect(membership).toMatchObject({ fan_id: fan.id, tier_id: tierId, state: "active", billing_interval: "month", amount_cents: 500 });
    const [line] = await eventually(
      () => membershipLines(tierId),
      (lines) => lines.length > 0,
    );
    // 5 euros before tax, the artist's 88%, pending in the ledger as any sale.
    expect(line).toMatchObject({ total_cents: 500, artist_share_cents: 440 });
    const { data: credits } = await serviceClient
      .from("ledger_entries")
      .select("kind, amount_cents, currency")
      .eq("order_line_id", line!.id);
    expect(credits).toEqual([{ kind: "sale", amount_cents: 440, currency: "EUR" }]);

    // The invoice said again (a new event of it): still one order.
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect((await deliver(eventOf("invoice.paid", invoice))).status).toBe(200);
    expect(await membershipLines(tierId)).toHaveLength(1);

    // Set to end at its period's end, then deleted: cancelling, then ended.
    await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    expect(
      (
        await eventually(
          () => membershipOf(subscriptionId),
          (found) => found?.state === "cancelling",
        )
      )?.state,
    ).toBe("cancelling");
    await stripe.subscriptions.cancel(subscriptionId);
    const ended = await eventually(
      () => membershipOf(subscriptionId),
      (found) => found?.state === "ended",
    );
    expect(ended).toMatchObject({ state: "ended" });
    expect(ended?.ended_at).not.toBeNull();
  });

  it("leaves alone a subscription that is not a membership's", async () => {
    const subscriptionId = await subscribe({});
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
    expect((await deliver(eventOf("invoice.paid", invoice))).status).toBe(200);
    expect(await membershipOf(subscriptionId)).toBeNull();
  });
});
