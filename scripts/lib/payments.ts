// Payments offline: the Stripe stand-in (stand-ins/stripe.ts) beside the marketplace, and the Worker's
// variables that point its `stripe` client at it and let it check the stand-in's webhook signatures.
import { randomBytes } from "node:crypto";
import { startStripeStandIn, type StripeStandIn } from "@crate/stand-ins/stripe";

export type Payments = { stripe: StripeStandIn; vars: Record<string, string> };

/** The stand-in on `port` (0: any free one), sending its events to the marketplace at `appUrl`. */
export async function startPayments({
  port,
  appUrl,
  verbose = false,
}: {
  port: number;
  appUrl: string;
  verbose?: boolean;
}): Promise<Payments> {
  const stripe = await startStripeStandIn({
    port,
    secretKey: `sk_test_local_${randomBytes(12).toString("hex")}`,
    webhookSecret: `whsec_local_${randomBytes(16).toString("hex")}`,
    webhookUrl: new URL("/webhooks/stripe", appUrl).href,
    verbose,
  });
  return {
    stripe,
    vars: { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_WEBHOOK_SECRET: stripe.webhookSecret, STRIPE_API_URL: stripe.url },
  };
}
