// The artist accounts the marketplace asks Stripe Connect for (app/lib/providers/stripe/accounts.server.ts),
// against the Stripe stand-in, which refuses them as Stripe does: card payments and transfers under the full
// agreement in the platform's region, transfers alone under the `recipient` agreement elsewhere.
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, type StripeStandIn } from "@crate/stand-ins/stripe";
import { accountParams } from "~/lib/providers/stripe/accounts.server";

const standIns: StripeStandIn[] = [];
const clientOf = async (platformCountry: string) => {
  const standIn = await startStripeStandIn({ secretKey: "sk_test_accounts", webhookSecret: "whsec_accounts", platformCountry });
  standIns.push(standIn);
  const api = new URL(standIn.url);
  return new Stripe(standIn.secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });
};
let usPlatform: Stripe;
let germanPlatform: Stripe;

beforeAll(async () => {
  usPlatform = await clientOf("US");
  germanPlatform = await clientOf("DE");
});
afterAll(() => Promise.all(standIns.map((standIn) => standIn.close())));

describe("an artist's Stripe account", () => {
  it.each([
    ["a US platform", "an artist in the US", () => usPlatform, "US", "US", ["card_payments", "transfers"]],
    ["a US platform", "an artist in the UK", () => usPlatform, "GB", "US", ["transfers"]],
    ["a German platform", "an artist in France", () => germanPlatform, "FR", "DE", ["card_payments", "transfers"]],
    ["a German platform", "an artist in the US", () => germanPlatform, "US", "DE", ["transfers"]],
  ])("is one Stripe takes, on %s for %s", async (_platform, _artist, stripe, country, platform, capabilities) => {
    const params = accountParams("a1", country, platform);
    expect(Object.keys(params.capabilities ?? {}).sort()).toEqual(capabilities);
    expect(params.controller?.stripe_dashboard?.type).toBe("express");
    expect(await stripe().accounts.create(params)).toMatchObject({ country });
  });
});
