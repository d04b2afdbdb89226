// The payout providers, each by the payout method an artist chose (`payouts.method`), made for one run of
// the payout job from a Worker's variables: a provider not configured there is null, and its payouts wait.
import type { PaypalEnv, StripeEnv } from "~/lib/http/provider-env";
import { paypalPayouts } from "./paypal/paypal.server";
import type { PayoutProvider } from "./payout-provider";
import { stripeTransfers } from "./stripe/transfers.server";

const payoutProviders = {
  paypal: paypalPayouts,
  stripe: stripeTransfers,
} satisfies Record<string, (env: PaypalEnv & StripeEnv) => PayoutProvider | null>;

/** The payout methods an artist may choose (`payouts.method`, checked in SQL), each with its provider. */
export type PayoutMethod = keyof typeof payoutProviders;

/** The providers of one run, each made once, on first use; null for a method whose provider is not configured. */
export function payoutProvidersFor(env: PaypalEnv & StripeEnv): (method: PayoutMethod) => PayoutProvider | null {
  const made = new Map<PayoutMethod, PayoutProvider | null>();
  return (method) => {
    if (!made.has(method)) made.set(method, payoutProviders[method](env));
    return made.get(method)!;
  };
}
