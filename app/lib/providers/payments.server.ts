// The payment providers, each by the name an order keeps of whoever took its money (`orders.provider`),
// made from the page Worker's variables: a provider not configured there is null. A new provider is its
// own folder beside stripe/ (implementing payment-provider.ts) and one line here.
import type { AppEnv } from "~/lib/http/env.server";
import type { PaymentProvider, TaxInPrices } from "./payment-provider";
import { stripePayments } from "./stripe/payments.server";
import { taxInPrices } from "./stripe/client.server";

const paymentProviders = {
  stripe: stripePayments,
} satisfies Record<string, (env: AppEnv) => PaymentProvider | null>;

export type PaymentProviderName = keyof typeof paymentProviders;

const isProviderName = (name: string): name is PaymentProviderName => name in paymentProviders;

/** The provider new checkouts open with (the first one configured), and its name; null when none is. */
export function checkoutProvider(env: AppEnv): { name: PaymentProviderName; provider: PaymentProvider } | null {
  for (const [name, make] of Object.entries(paymentProviders)) {
    const provider = make(env);
    if (provider && isProviderName(name)) return { name, provider };
  }
  return null;
}

/** The provider named (the one that took an order's money, or a webhook's), or null when it is none of ours or not configured. */
export function paymentProvider(env: AppEnv, name: string | null): PaymentProvider | null {
  return name && isProviderName(name) ? paymentProviders[name](env) : null;
}

/** How the prices a buyer sees relate to tax, as the site is set (STRIPE_TAX): added at payment, included, or none collected. */
export const pricesAndTax = (env: AppEnv): TaxInPrices | null => (checkoutProvider(env) ? taxInPrices(env) : null);
