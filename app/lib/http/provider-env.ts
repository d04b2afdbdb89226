import * as v from "valibot";

// The payment providers' variables that more than one Worker needs: each Worker checks its own with these.

/**
 * Stripe's secret key and where its API is (unset: Stripe's; the local stand-in on a local run): the page
 * Worker takes payments with them, and both Workers move artists' money to their Stripe accounts
 * (transfers, and their reversals after a refund).
 */
export const stripeVariables = {
  STRIPE_SECRET_KEY: v.optional(v.string()),
  STRIPE_API_URL: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())])),
  /** The country of the platform's Stripe account (unset: `US`): which artists' accounts Connect makes under the full agreement. */
  STRIPE_PLATFORM_COUNTRY: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.regex(/^[A-Z]{2}$/))])),
};

export type StripeEnv = v.InferOutput<v.ObjectSchema<typeof stripeVariables, undefined>>;

/**
 * PayPal's Payouts, which pay artists who chose PayPal (app/lib/payouts): the PayPal app's credentials (a
 * REST app with Payouts enabled, on a business account) and where its API is: PayPal's live one when unset
 * (`https://api-m.sandbox.paypal.com` for its sandbox; the local stand-in on a local run). Both Workers
 * have them: the media Worker's scheduled job and the page Worker's "Withdraw now" send payouts. Without
 * them artists paid by PayPal keep their balance until they are set.
 */
export const paypalVariables = {
  PAYPAL_CLIENT_ID: v.optional(v.string()),
  PAYPAL_CLIENT_SECRET: v.optional(v.string()),
  PAYPAL_API_URL: v.optional(v.union([v.literal(""), v.pipe(v.string(), v.url())])),
};

export type PaypalEnv = v.InferOutput<v.ObjectSchema<typeof paypalVariables, undefined>>;
