// The one Stripe client a Worker talks to Stripe through, made from its variables: the `stripe` package's
// Workers build over fetch, pointed at the local stand-in on a local run. The page Worker takes payments
// with it (stripe.server.ts); both Workers move artists' money with it (app/lib/payouts).
import Stripe from "stripe";
import type { StripeEnv } from "~/lib/http/provider-env";

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
