// The third parties offline: the Stripe stand-in (stand-ins/stripe.ts), which sends its events to the
// marketplace's webhook, the mail stand-in (stand-ins/mail.ts, Resend's API) whose outbox keeps what the
// marketplace sends, and the PayPal stand-in (stand-ins/paypal.ts, its Payouts API) that pays artists;
// and the Workers' variables that point their clients at them.
import { randomBytes } from "node:crypto";
import { startMailStandIn, type MailStandIn } from "@crate/stand-ins/mail";
import { startPaypalStandIn, type PaypalStandIn } from "@crate/stand-ins/paypal";
import { startStripeStandIn, type StripeStandIn } from "@crate/stand-ins/stripe";

export type Providers = {
  stripe: StripeStandIn;
  mail: MailStandIn;
  paypal: PaypalStandIn;
  vars: Record<string, string>;
  close(): Promise<void>;
};

/**
 * The stand-ins on `stripePort`, `mailPort` and `paypalPort` (0: any free one), Stripe's events sent to
 * the marketplace at `appUrl`.
 */
export async function startProviders({
  stripePort,
  mailPort,
  paypalPort,
  appUrl,
  mailRequestsPerSecond = 2,
  verbose = false,
}: {
  stripePort: number;
  mailPort: number;
  paypalPort: number;
  appUrl: string;
  /** The mail stand-in's rate limit, which the Workers pace their mail to (Resend's default, 2). */
  mailRequestsPerSecond?: number;
  verbose?: boolean;
}): Promise<Providers> {
  const stripe = await startStripeStandIn({
    port: stripePort,
    secretKey: `sk_test_local_${randomBytes(12).toString("hex")}`,
    webhookSecret: `whsec_local_${randomBytes(16).toString("hex")}`,
    connectWebhookSecret: `whsec_local_connect_${randomBytes(16).toString("hex")}`,
    webhookUrl: new URL("/webhooks/stripe", appUrl).href,
    verbose,
  });
  const mail = await startMailStandIn({
    port: mailPort,
    apiKey: `re_local_${randomBytes(12).toString("hex")}`,
    requestsPerSecond: mailRequestsPerSecond,
    verbose,
  }).catch(async (error: unknown) => {
    await stripe.close();
    throw error;
  });
  const paypal = await startPaypalStandIn({
    port: paypalPort,
    clientId: `local_${randomBytes(12).toString("hex")}`,
    clientSecret: randomBytes(24).toString("hex"),
    verbose,
  }).catch(async (error: unknown) => {
    await Promise.all([stripe.close(), mail.close()]);
    throw error;
  });
  return {
    stripe,
    mail,
    paypal,
    vars: {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET: stripe.connectWebhookSecret,
      STRIPE_API_URL: stripe.url,
      // Stripe Tax on, as a launch with Crate's registrations has it: the stand-in adds the tax of its table.
      STRIPE_TAX: "on",
      RESEND_API_KEY: mail.apiKey,
      MAIL_API_URL: mail.url,
      MAIL_REQUESTS_PER_SECOND: String(mailRequestsPerSecond),
      PAYPAL_CLIENT_ID: paypal.clientId,
      PAYPAL_CLIENT_SECRET: paypal.clientSecret,
      PAYPAL_API_URL: paypal.url,
    },
    async close() {
      await Promise.all([stripe.close(), mail.close(), paypal.close()]);
    },
  };
}
