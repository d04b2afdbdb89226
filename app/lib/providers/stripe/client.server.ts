// The one Stripe client a Worker talks to Stripe through, made from its variables: the `stripe` package's
// Workers build over fetch, pointed at the local stand-in on a local run. The page Worker takes payments
// with it (payments.server.ts); both Workers move artists' money with it (transfers.server.ts).
import Stripe from "stripe";
import type { StripeEnv } from "~/lib/http/provider-env";
import type { TaxInPrices } from "../payment-provider";

/** The page Worker's Stripe variables for payments: the key, the webhook endpoints' signing secrets, Stripe Tax. */
export type StripePaymentEnv = StripeEnv & {
  STRIPE_WEBHOOK_SECRET?: string | undefined;
  /** The signing secret of the Connect endpoint (events on the artists' Stripe accounts: `account.updated`). */
  STRIPE_CONNECT_WEBHOOK_SECRET?: string | undefined;
  STRIPE_TAX?: "" | "on" | "off" | "included" | undefined;
};

/**
 * How the marketplace's prices relate to tax (STRIPE_TAX): `on`, the tax added on top, the default, so an
 * artist's price and share are the same for every buyer; `included`, prices include it (the buyer pays the
 * price whatever their rate, and the order keeps its lines before tax); none without Stripe Tax.
 */
export const taxInPrices = (env: StripePaymentEnv): TaxInPrices | null =>
  env.STRIPE_TAX === "on" ? "added" : env.STRIPE_TAX === "included" ? "included" : null;

/**
 * The API version the app speaks, the one the `stripe` package pins (its types are of it): requests are
 * made in it, and the webhook endpoints must send their events in it too (`npm run stripe:setup` sets
 * them so), since an event's objects have the shape of its endpoint's version.
 */
export const stripeApiVersion = Stripe.API_VERSION;

let client: { key: string; stripe: Stripe } | null = null;

/** The Stripe client for a Worker's variables (its secret key; on a local run the stand-in's address), or null without a key. */
export function stripeClient(env: StripeEnv): Stripe | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  if (client?.key !== env.STRIPE_SECRET_KEY) {
    const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null;
    client = {
      key: env.STRIPE_SECRET_KEY,
      stripe: new Stripe(env.STRIPE_SECRET_KEY, {
        httpClient: Stripe.createFetchHttpClient(),
        maxNetworkRetries: 2,
        ...(api ? { host: api.hostname, port: api.port, protocol: api.protocol === "https:" ? "https" : "http" } : {}),
      }),
    };
  }
  return client.stripe;
}
