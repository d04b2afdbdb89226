// What a sale's payment added to the platform's Stripe balance: its charge's balance transaction. Stripe
// settles every charge in the platform's settlement currency (a US platform's in USD), converting one made
// in another ("if you charge a customer 10.00 EUR, the PaymentIntent's amount is 1000 and currency is eur.
// If this is converted to 12.34 USD in your Stripe account, the BalanceTransaction's amount is 1234,
// currency is usd, and exchange_rate is 1.234": the balance transaction's reference). A transfer out of
// the charge (`source_transaction`) must be in that currency, so an artist's share is converted at the
// charge's own rate; the order keeps it all for the books (payment_settled).
import type Stripe from "stripe";

/** A charge's settlement: the charge, and its amount, Stripe's fee and the rate it was converted at (null: none), in `currency`. */
export type ChargeSettlement = { charge: string; currency: string; amount: number; fee: number; exchangeRate: number | null };

/** The settlement of a payment's charge, asked of Stripe in one request; throws when Stripe has none for it yet. */
export async function chargeSettlement(stripe: Stripe, paymentIntent: string): Promise<ChargeSettlement> {
  const intent = await stripe.paymentIntents.retrieve(paymentIntent, { expand: ["latest_charge.balance_transaction"] });
  const charge = intent.latest_charge;
  if (!charge || typeof charge === "string") throw new Error(`payment ${paymentIntent} has no charge`);
  const entry = charge.balance_transaction;
  if (!entry || typeof entry === "string") throw new Error(`charge ${charge.id} is not in the balance yet`);
  return { charge: charge.id, currency: entry.currency, amount: entry.amount, fee: entry.fee, exchangeRate: entry.exchange_rate };
}

/** Digits after the point in a currency's amounts (USD 2, JPY 0), as Intl knows them. */
const decimalsOf = (currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** `cents` of `from` in the smallest unit of `to`, at a balance transaction's `rate` (of whole units), rounded to the nearest. */
export const convertedCents = (cents: number, from: string, to: string, rate: number) =>
  Math.round(cents * rate * 10 ** (decimalsOf(to) - decimalsOf(from)));
