// Stripe, with Crate as the seller of record: the one client the Worker pays through, made from its
// variables (the secret key; on a local run the stand-in's address), and its webhook's signature check.
// The `stripe` package's Workers build talks over fetch and checks signatures with Web Crypto.
import type { RouterContextProvider } from "react-router";
import Stripe from "stripe";
import { envFrom } from "~/lib/http/env.server";
import { stripeClient } from "./stripe-client.server";

/** The Stripe client, or null when payments are not configured (no secret key, or no webhook secret). */
export function stripeFrom(context: Readonly<RouterContextProvider>): Stripe | null {
  const env = envFrom(context);
  return env.STRIPE_WEBHOOK_SECRET ? stripeClient(env) : null;
}

/** Whether fans can pay: Buy Now offers the cart and checkout, instead of "available soon". */
export const paymentsOn = (context: Readonly<RouterContextProvider>) => stripeFrom(context) !== null;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * The event a webhook request carries, checked as Stripe signs it (`Stripe-Signature`, HMAC-SHA256 of its
 * timestamp and body with the endpoint's secret, at most five minutes old); null when it is not one. Two
 * endpoints may send to this one address, each with its own secret: the platform's own events, and Connect's
 * events on the artists' accounts (`STRIPE_CONNECT_WEBHOOK_SECRET`).
 */
export async function verifiedEvent(context: Readonly<RouterContextProvider>, payload: string, signature: string | null) {
  const stripe = stripeFrom(context);
  const env = envFrom(context);
  if (!stripe || !signature) return null;
  for (const secret of [env.STRIPE_WEBHOOK_SECRET, env.STRIPE_CONNECT_WEBHOOK_SECRET]) {
    if (!secret) continue;
    try {
      return await stripe.webhooks.constructEventAsync(payload, signature, secret, 300, cryptoProvider);
    } catch {
      // Not this endpoint's: the next secret, if any.
    }
  }
  return null;
}
