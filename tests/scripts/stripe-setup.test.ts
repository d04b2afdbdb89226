// `npm run stripe:setup` against the Stripe stand-in, through the real `stripe` package: the two webhook
// endpoints made on the app's API version with the events it acts on, their secrets shown once; run again,
// nothing changes; an endpoint on another version replaced (Stripe never changes an endpoint's version),
// and one missing an event brought up to date.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, type StripeStandIn } from "@crate/stand-ins/stripe";
import { connectEvents, platformEvents } from "../../app/lib/providers/stripe/webhook-events.ts";
import { setUpStripeWebhooks } from "../../scripts/lib/stripe-setup.ts";

let standIn: StripeStandIn;
let stripe: Stripe;

beforeAll(async () => {
  standIn = await startStripeStandIn({ secretKey: "sk_test_setup", webhookSecret: "whsec_setup" });
  const api = new URL(standIn.url);
  stripe = new Stripe(standIn.secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(() => standIn.close());

const endpointsAt = async (site: string) =>
  (await stripe.webhookEndpoints.list({ limit: 100 })).data.filter((endpoint) => endpoint.url === `${site}/webhooks/stripe`);

describe("npm run stripe:setup", () => {
  it("makes the platform's and Connect's endpoints on the app's version, with their events, and changes nothing the second time", async () => {
    const site = "https://crate.example";
    const first = await setUpStripeWebhooks(stripe, site, Stripe.API_VERSION);
    expect(first.map(({ kind, done }) => [kind, done])).toEqual([
      ["platform", "created"],
      ["connect", "created"],
    ]);
    expect(first.every((endpoint) => endpoint.secret?.startsWith("whsec_"))).toBe(true);
    const made = await endpointsAt(site);
    expect(made).toHaveLength(2);
    const platform = made.find((endpoint) => endpoint.application === null)!;
    const connect = made.find((endpoint) => endpoint.application !== null)!;
    expect([platform.api_version, connect.api_version]).toEqual([Stripe.API_VERSION, Stripe.API_VERSION]);
    expect(platform.enabled_events.toSorted()).toEqual([...platformEvents].sort());
    expect(connect.enabled_events).toEqual([...connectEvents]);

    const again = await setUpStripeWebhooks(stripe, site, Stripe.API_VERSION);
    expect(again.map(({ done, secret }) => [done, secret])).toEqual([
      ["unchanged", undefined],
      ["unchanged", undefined],
    ]);
    expect(await endpointsAt(site)).toHaveLength(2);
  });

  it("replaces an endpoint on another version, and gives one missing an event the rest", async () => {
    const site = "https://older.example";
    const url = `${site}/webhooks/stripe`;
    const old = await stripe.webhookEndpoints.create({
      url,
      enabled_events: ["checkout.session.completed"],
      api_version: "2025-01-27.acacia" as Stripe.WebhookEndpointCreateParams.ApiVersion,
    });
    const connect = await stripe.webhookEndpoints.create({
      url,
      connect: true,
      enabled_events: ["payout.paid"],
      api_version: Stripe.API_VERSION,
    });
    const done = await setUpStripeWebhooks(stripe, site, Stripe.API_VERSION);
    expect(done.map(({ kind, done: what }) => [kind, what])).toEqual([
      ["platform", "replaced"],
      ["connect", "updated"],
    ]);
    const now = await endpointsAt(site);
    expect(now.map((endpoint) => endpoint.id)).not.toContain(old.id);
    expect(now.find((endpoint) => endpoint.id === connect.id)?.enabled_events).toEqual([...connectEvents]);
    expect(now.find((endpoint) => endpoint.application === null)?.api_version).toBe(Stripe.API_VERSION);
  });
});
