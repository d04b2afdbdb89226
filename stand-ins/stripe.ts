// A stand-in for the part of Stripe's API the marketplace uses, so `npm start` and the tests reach no
// network: Checkout Sessions (create, retrieve, expire, lapsed at their `expires_at`, their line items and
// Stripe Tax on them) and refunds with idempotency keys, the sessions' hosted payment page with Stripe's test
// cards, payment intents (their charge, and its balance transaction in the platform's settlement currency), Connect's Express accounts with their onboarding (account links,
// a hosted form, `account.updated`), transfers to them from a charge in its settlement currency and their
// reversals, and events sent to the marketplace's webhook signed as Stripe signs them. The
// Worker talks to it through the real `stripe` package (its host, port and protocol settings), so the code
// that runs here is the code that runs against Stripe on hosted.
import { createHmac, randomBytes } from "node:crypto";
import Stripe from "stripe";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { startBilling, type BilledLine, type Interval, type Invoice, type Subscription } from "./stripe-billing.ts";

/** Stripe's test cards as its documentation names them: the one that pays, and two declines. */
export const testCards = {
  pays: "4242424242424242",
  declined: "4000000000000002",
  insufficientFunds: "4000000000009995",
} as const;

const declines: Record<string, string> = {
  [testCards.declined]: "Your card was declined.",
  [testCards.insufficientFunds]: "Your card has insufficient funds.",
};

/** The least a Checkout Session may charge, in each currency's smallest unit (Stripe's minimum charge amounts). */
const minimumCharge: Record<string, number> = { usd: 50, eur: 50, gbp: 30 };

/** How a price stands to tax: exclusive, tax goes on top of it; unspecified, the account's default would decide. */
type TaxBehavior = "exclusive" | "inclusive" | "unspecified";
const isTaxBehavior = (value: string): value is TaxBehavior => ["exclusive", "inclusive", "unspecified"].includes(value);

/** A line of a session: its price and product (made from `price_data`), and its tax once Stripe Tax has computed it. */
type LineItem = {
  id: string;
  name: string;
  unitAmount: number;
  quantity: number;
  price: string;
  product: string;
  taxBehavior: TaxBehavior;
  taxCode: string | null;
  tax: Tax | null;
  /** A recurring price's interval (`price_data.recurring`), in a subscription-mode session; null for a one-time price. */
  interval: Interval | null;
};

/** A tax rate as a line item's or the shipping's `taxes` carry it (Stripe's Tax Rate object). */
export type TaxRate = {
  id: string;
  object: "tax_rate";
  active: true;
  country: string;
  created: number;
  description: null;
  display_name: string;
  effective_percentage: number;
  flat_amount: null;
  inclusive: boolean;
  jurisdiction: string;
  jurisdiction_level: "country";
  livemode: false;
  metadata: Record<string, string>;
  percentage: number;
  rate_type: "percentage";
  state: null;
  tax_type: "vat" | "gst" | "sales_tax" | null;
};

/** The tax on one amount: collected at the rate (`standard_rated`), or none where there is no registration (`not_collecting`). */
export type Tax = {
  amount: number;
  rate: TaxRate;
  taxability_reason: "standard_rated" | "not_collecting";
  taxable_amount: number;
};

/** A session's shipping rate, made from its `shipping_rate_data`. */
export type ShippingRate = {
  id: string;
  object: "shipping_rate";
  active: true;
  display_name: string;
  fixed_amount: { amount: number; currency: string };
  livemode: false;
  metadata: Record<string, string>;
  tax_behavior: TaxBehavior;
  tax_code: string | null;
  type: "fixed_amount";
};

export type CheckoutSession = {
  id: string;
  object: "checkout.session";
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_details: { email: string; address: { country: string | null } } | null;
  customer_email: string | null;
  /** In subscription mode, once paid: the customer, subscription and first invoice it made. */
  customer: string | null;
  subscription: string | null;
  invoice: string | null;
  /** Where the buyer asked it shipped, once paid (with `shipping_address_collection`). */
  collected_information: { shipping_details: ShippingDetails | null } | null;
  shipping_address_collection: { allowed_countries: string[] } | null;
  /** The chosen shipping rate's amount, its tax, and (once computed) the taxes on it. */
  shipping_cost: { amount_subtotal: number; amount_tax: number; amount_total: number; shipping_rate: string; taxes?: Tax[] } | null;
  /** Stripe Tax on the session: off (`enabled: false`), waiting for the buyer's address, or computed. */
  automatic_tax: {
    enabled: boolean;
    liability: { type: "self" } | null;
    provider: "stripe" | null;
    status: "requires_location_inputs" | "complete" | null;
  };
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: "payment" | "subscription";
  payment_intent: string | null;
  payment_status: "unpaid" | "paid";
  status: "open" | "complete" | "expired";
  success_url: string;
  url: string | null;
};

export type ShippingDetails = {
  name: string;
  address: { line1: string; line2: string | null; city: string; postal_code: string; state: string | null; country: string };
};

/** A paid session's charge, as `charge.refunded` carries it. */
export type Charge = {
  id: string;
  object: "charge";
  amount: number;
  amount_refunded: number;
  /** What the charge added to the platform's balance, in its settlement currency. */
  balance_transaction: string;
  currency: string;
  payment_intent: string;
  refunded: boolean;
};

/**
 * A charge's entry in the platform's balance: its amount converted to the settlement currency
 * (`exchange_rate` null when none was needed), Stripe's fee, and what is left.
 */
export type BalanceTransaction = {
  id: string;
  object: "balance_transaction";
  amount: number;
  available_on: number;
  created: number;
  currency: string;
  exchange_rate: number | null;
  fee: number;
  net: number;
  source: string;
  status: "pending";
  type: "charge";
};

export type Refund = {
  id: string;
  object: "refund";
  amount: number;
  charge: string;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  status: "succeeded";
};

/** A webhook endpoint at Stripe: where events go, which ones, in which API version (null: the account's). */
export type WebhookEndpoint = {
  id: string;
  object: "webhook_endpoint";
  api_version: string | null;
  /** The platform's Connect application for an endpoint of events on connected accounts; null for the platform's own. */
  application: string | null;
  created: number;
  description: string | null;
  enabled_events: string[];
  livemode: false;
  metadata: Record<string, string>;
  secret: string;
  status: "enabled";
  url: string;
};

/** A Connect account (Express), as `account.updated` carries it. */
export type ConnectAccount = {
  id: string;
  object: "account";
  type: "express";
  country: string;
  email: string | null;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  capabilities: { transfers: "inactive" | "active" };
  requirements: { currently_due: string[] };
  metadata: Record<string, string>;
};

export type Transfer = {
  id: string;
  object: "transfer";
  amount: number;
  amount_reversed: number;
  currency: string;
  created: number;
  description: string | null;
  destination: string;
  metadata: Record<string, string>;
  reversed: boolean;
  source_transaction: string | null;
  transfer_group: string | null;
};

export type StripeEvent = {
  id: string;
  object: "event";
  /** The connected account an event is about (Connect's events). */
  account?: string;
  api_version: string;
  created: number;
  data: { object: CheckoutSession | Charge | ConnectAccount | Subscription | Invoice };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
};

export type StripeStandIn = {
  url: string;
  secretKey: string;
  webhookSecret: string;
  connectWebhookSecret: string;
  sessions: ReadonlyMap<string, CheckoutSession>;
  subscriptions: ReadonlyMap<string, Subscription>;
  invoices: ReadonlyMap<string, Invoice>;
  /** Every refund made, oldest first. */
  refunds: readonly Refund[];
  /** Every event sent, oldest first. */
  events: readonly StripeEvent[];
  /** Every transfer to a connected account, oldest first. */
  transfers: readonly Transfer[];
  /** Settles once every webhook delivery started so far has ended (delivered, or given up). */
  delivered(): Promise<void>;
  /** For tests: moves the stand-in's clock on by `seconds`, lapsing what is due by then (as time passing would). */
  advanceClock(seconds: number): void;
  close(): Promise<void>;
};

export type StripeStandInOptions = {
  /** 0 picks a free port. */
  port?: number;
  secretKey: string;
  webhookSecret: string;
  /** Where events are sent (the marketplace's webhook route); none are sent without it. */
  webhookUrl?: string;
  /** The Connect endpoint's secret, which signs events on connected accounts (else `webhookSecret` does). */
  connectWebhookSecret?: string;
  /**
   * The API version the webhook endpoints are set to, in which events are sent ("Events are rendered with
   * the API version of the webhook endpoint", Stripe's "Webhook versioning"): unless set, the version the
   * `stripe` package pins, as `npm run stripe:setup` sets a real endpoint.
   */
  webhookApiVersion?: string;
  /** The account's default API version, in which an event asked for through the API is rendered (unset: an older one than the package's). */
  accountApiVersion?: string;
  /** The platform account's country (unset: `US`), which decides where its Connect accounts may be made under the full agreement. */
  platformCountry?: string;
  /**
   * The currency the platform's balance settles in (unset: `usd`, a US platform's): every charge's balance
   * transaction is in it, converted at the stand-in's rates (`exchangeRate`) when the charge is in another.
   */
  settlementCurrency?: string;
  verbose?: boolean;
};

/**
 * The stand-in's stated rates: what one unit of each currency is worth in US dollars. A charge converts at
 * the ratio of its currency's to the settlement currency's (Stripe's own rates move by the minute and carry
 * a conversion fee; these are fixed, so tests can name the amounts).
 */
export const dollarValue: Readonly<Record<string, number>> = { usd: 1, eur: 1.08, gbp: 1.27 };

/** How much of `to` one unit of `from` buys at the stand-in's rates, to six places as Stripe states a balance transaction's rate. */
export const exchangeRate = (from: string, to: string) => Math.round((dollarValue[from]! / dollarValue[to]!) * 1e6) / 1e6;

/**
 * Stripe's fee on a card charge, in the settlement currency's smallest unit: its standard US rate, 2.9% +
 * 30¢ "per successful transaction for domestic cards" (stripe.com/pricing), one rate for every card here.
 */
export const stripeFee = (amount: number) => Math.round(amount * 0.029) + 30;

/** The account's default API version unless set: an older one, as an account made before the app's pinned version has. */
const accountApiVersion = "2024-06-20";

/** The EEA, the UK and Switzerland, where a platform in one makes accounts in any other under the full agreement. */
const europe = new Set("AT BE BG CH CY CZ DE DK EE ES FI FR GB GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK".split(" "));
const sameRegion = (country: string, platform: string) => country === platform || (europe.has(country) && europe.has(platform));

type TaxRegistration = { percentage: number; display_name: string; tax_type: "vat" | "gst" };
const vat = (percentage: number): TaxRegistration => ({ percentage, display_name: "VAT", tax_type: "vat" });
const gst = (percentage: number): TaxRegistration => ({ percentage, display_name: "GST", tax_type: "gst" });

/**
 * The stand-in's tax registrations, the marketplace's as the seller of record, each at the country's standard
 * rate: "Stripe Tax only calculates tax in jurisdictions where you're registered to collect tax" (Stripe's
 * "Collect taxes", Add registrations). The EU's (one One-Stop Shop registration covers every member state, at
 * the buyer's country's rate), the UK's, Norway's and Switzerland's VAT, and Australia's, New Zealand's and
 * Canada's GST (federal alone: the page asks no province, so no HST, PST or QST). None in the US: Stripe
 * charges US sales tax only in the states where the seller is registered, and the page asks no state, so a
 * US buyer pays none (`not_collecting`), as anyone elsewhere. Music, downloads and merch are at the standard
 * rate alike, and shipping at the goods' rate (in the EU shipping follows the tax treatment of the goods).
 * Fixed, so tests can name the amounts.
 */
export const taxRegistrations: Readonly<Record<string, TaxRegistration>> = {
  AT: vat(20),
  BE: vat(21),
  BG: vat(20),
  CY: vat(19),
  CZ: vat(21),
  DE: vat(19),
  DK: vat(25),
  EE: vat(24),
  ES: vat(21),
  FI: vat(25.5),
  FR: vat(20),
  GR: vat(24),
  HR: vat(25),
  HU: vat(27),
  IE: vat(23),
  IT: vat(22),
  LT: vat(21),
  LU: vat(17),
  LV: vat(21),
  MT: vat(18),
  NL: vat(21),
  PL: vat(23),
  PT: vat(23),
  RO: vat(21),
  SE: vat(25),
  SI: vat(22),
  SK: vat(23),
  GB: vat(20),
  NO: vat(25),
  CH: vat(8.1),
  AU: gst(10),
  NZ: gst(15),
  CA: gst(5),
};

/** Stripe's product tax codes: `txcd_` and eight digits (Stripe Tax, "Product tax codes"). */
const taxCodePattern = /^txcd_\d{8}$/;

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const sessions = new Map<string, CheckoutSession>();
  const lineItems = new Map<string, LineItem[]>();
  /** Each country's tax rate, made the first time a buyer there pays (one object per rate, as Stripe keeps them). */
  const taxRates = new Map<string, TaxRate>();
  const shippingRates = new Map<string, ShippingRate>();
  /** Each paid session's charge, by its payment intent. */
  const charges = new Map<string, Charge>();
  const balanceTransactions = new Map<string, BalanceTransaction>();
  const settlementCurrency = options.settlementCurrency ?? "usd";
  const refunds: Refund[] = [];
  const events: StripeEvent[] = [];
  const accounts = new Map<string, ConnectAccount>();
  /** Each account link's account and where it sends its holder back. */
  const accountLinks = new Map<string, { account: string; returnUrl: string; refreshUrl: string; expiresAt: number; used: boolean }>();
  const transfers: Transfer[] = [];
  const webhookEndpoints = new Map<string, WebhookEndpoint>();
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const deliveries = new Set<Promise<void>>();
  /** The API paths failing for now (`/_failures`), by their start. */
  const failing = new Set<string>();
  let origin = "";

  const platformCountry = options.platformCountry ?? "US";
  let clockAhead = 0;
  const now = () => Math.floor(Date.now() / 1000) + clockAhead;

  /**
   * Open sessions past their `expires_at` expire, and say so with `checkout.session.expired`: "If the
   * Checkout Session expires, customers can no longer complete it" (Stripe's "Expire a session" guide);
   * looked at before every request, its page's too, and every few seconds besides.
   */
  function lapse() {
    for (const session of sessions.values()) {
      if (session.status !== "open" || session.expires_at > now()) continue;
      Object.assign(session, { status: "expired", url: null });
      send("checkout.session.expired", session);
    }
  }
  /** Each subscription-mode session's `subscription_data.metadata`, given to the subscription it makes. */
  const subscriptionMetadata = new Map<string, Record<string, string>>();
  const billing = startBilling({
    id: (prefix) => id(prefix),
    now: () => now(),
    send: (type, object) => send(type, object),
    error: stripeError,
    // An invoice is paid as a session is: a payment intent, its charge and the charge's balance transaction.
    charge(amount, currency) {
      const charge = {
        id: id("ch"),
        object: "charge" as const,
        amount,
        amount_refunded: 0,
        currency,
        payment_intent: id("pi"),
        refunded: false,
      };
      charges.set(charge.payment_intent, { ...charge, balance_transaction: chargeEntry(charge).id });
      return charge.payment_intent;
    },
  });
  const lapsing = setInterval(lapse, 5_000);
  lapsing.unref();
  const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

  function send(type: string, session: CheckoutSession | Charge | ConnectAccount | Subscription | Invoice) {
    const event: StripeEvent = {
      id: id("evt"),
      object: "event",
      ...(session.object === "account" ? { account: session.id } : {}),
      api_version: options.webhookApiVersion ?? Stripe.API_VERSION,
      created: now(),
      data: { object: structuredClone(session) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(event);
    if (!options.webhookUrl) return;
    const secret = event.account ? (options.connectWebhookSecret ?? options.webhookSecret) : options.webhookSecret;
    const delivery = deliver(options.webhookUrl, secret, event, options.verbose ?? false).finally(() => deliveries.delete(delivery));
    deliveries.add(delivery);
  }

  async function api(request: IncomingMessage, path: string, body: string, query: URLSearchParams): Promise<[number, unknown]> {
    lapse();
    if (request.headers.authorization !== `Bearer ${options.secretKey}`)
      return [401, stripeError("invalid_request_error", "Invalid API Key provided.")];
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (request.method === "POST" && path === "/v1/checkout/sessions") return createSession(decodeForm(body));
    if (request.method === "POST" && path === "/v1/refunds") return refund(decodeForm(body));
    if (request.method === "GET" && path === "/v1/refunds") return listRefunds(query);
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (request.method === "GET" && intentPath) return paymentIntent(intentPath[1]!, query);
    if (request.method === "POST" && path === "/v1/payment_intents") return createPaymentIntent(decodeForm(body));
    const chargePath = /^\/v1\/charges\/([^/]+)$/.exec(path);
    if (request.method === "GET" && chargePath) {
      const charge = [...charges.values()].find((kept) => kept.id === chargePath[1]);
      return charge ? [200, charge] : [404, stripeError("invalid_request_error", `No such charge: '${chargePath[1]}'`, "id")];
    }
    const balanceTransactionPath = /^\/v1\/balance_transactions\/([^/]+)$/.exec(path);
    if (request.method === "GET" && balanceTransactionPath) {
      const entry = balanceTransactions.get(balanceTransactionPath[1]!);
      return entry
        ? [200, entry]
        : [404, stripeError("invalid_request_error", `No such balance transaction: '${balanceTransactionPath[1]}'`, "id")];
    }
    if (path === "/v1/webhook_endpoints" || path.startsWith("/v1/webhook_endpoints/")) return webhookEndpoint(request, path, body);
    const eventPath = /^\/v1\/events\/([^/]+)$/.exec(path);
    if (request.method === "GET" && eventPath) {
      // An event on a connected account is that account's, asked for on its behalf (`Stripe-Account`); one
      // asked for is in the account's version at its making, not the endpoint's ("rendered according to
      // Stripe API version at its creation time", the Events reference).
      const event = events.find((sent) => sent.id === eventPath[1] && sent.account === request.headers["stripe-account"]);
      return event
        ? [200, { ...event, api_version: options.accountApiVersion ?? accountApiVersion }]
        : [404, stripeError("invalid_request_error", `No such event: '${eventPath[1]}'`, "id")];
    }
    if (request.method === "POST" && path === "/v1/accounts") return createAccount(decodeForm(body));
    const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (request.method === "GET" && accountPath) {
      const account = accounts.get(accountPath[1]!);
      return account ? [200, account] : [404, stripeError("invalid_request_error", `No such account: '${accountPath[1]}'`, "account")];
    }
    if (request.method === "POST" && path === "/v1/account_links") return createAccountLink(decodeForm(body));
    if (request.method === "POST" && path === "/v1/transfers") return createTransfer(decodeForm(body));
    const reversalPath = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path);
    if (request.method === "POST" && reversalPath) return reverseTransfer(reversalPath[1]!, decodeForm(body));
    if (request.method === "GET" && sessionPath && !sessionPath[2]) {
      const session = sessions.get(sessionPath[1]!);
      return session ? [200, expandSession(session, expansions(query))] : [404, noSuchSession(sessionPath[1]!)];
    }
    const lineItemsPath = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/.exec(path);
    if (request.method === "GET" && lineItemsPath) {
      const session = sessions.get(lineItemsPath[1]!);
      return session ? [200, lineItemList(session, expansions(query), query)] : [404, noSuchSession(lineItemsPath[1]!)];
    }
    if (request.method === "POST" && sessionPath?.[2]) {
      const session = sessions.get(sessionPath[1]!);
      if (!session) return [404, noSuchSession(sessionPath[1]!)];
      if (session.status !== "open")
        return [400, stripeError("invalid_request_error", `Only Checkout Sessions with a status in ["open"] can be expired.`)];
      Object.assign(session, { status: "expired", url: null });
      send("checkout.session.expired", session);
      return [200, session];
    }
    const billed = billing.api(request.method ?? "GET", path, decodeForm(body), expansions(query));
    if (billed) return billed;
    return [404, stripeError("invalid_request_error", `Unrecognized request URL (${request.method}: ${path}).`)];
  }

  /**
   * A session with what is asked expanded ("Expanding Responses", Stripe's API reference): its `line_items`
   * (and what they expand, `line_items.data.taxes`), and its shipping cost's `shipping_rate` (an id unless asked).
   */
  function expandSession(session: CheckoutSession, expand: Set<string>) {
    const items = [...expand].filter((field) => field === "line_items" || field.startsWith("line_items.data."));
    const nested = new Set(items.map((field) => field.replace(/^line_items(\.|$)/, "")));
    const shippingRate = expand.has("shipping_cost.shipping_rate") && session.shipping_cost;
    return {
      ...session,
      ...(items.length > 0 ? { line_items: lineItemList(session, nested, new URLSearchParams()) } : {}),
      ...(shippingRate ? { shipping_cost: { ...shippingRate, shipping_rate: shippingRates.get(shippingRate.shipping_rate) } } : {}),
    };
  }

  /**
   * A paid session's payment intent, its charge expanded as asked (`expand[]=latest_charge`, and
   * `latest_charge.balance_transaction`: "Expanding Responses", Stripe's API reference); unexpanded, an id.
   */
  function paymentIntent(intentId: string, query: URLSearchParams): [number, unknown] {
    const charge = charges.get(intentId);
    if (!charge) return [404, stripeError("invalid_request_error", `No such payment_intent: '${intentId}'`, "intent")];
    const expand = expansions(query);
    const latestCharge = expand.has("latest_charge.balance_transaction")
      ? { ...charge, balance_transaction: balanceTransactions.get(charge.balance_transaction) }
      : expand.has("latest_charge")
        ? charge
        : charge.id;
    return [
      200,
      {
        id: intentId,
        object: "payment_intent",
        amount: charge.amount,
        currency: charge.currency,
        latest_charge: latestCharge,
        status: "succeeded",
      },
    ];
  }

  /**
   * A payment made at once with one of Stripe's test payment methods (`pm_card_visa`, confirmed on
   * creation), as a test makes a payment of its own without a Checkout page; nothing else is taken.
   */
  function createPaymentIntent(params: Form): [number, unknown] {
    const amount = Number(params.amount);
    const currency = text(params.currency)?.toLowerCase();
    if (!Number.isInteger(amount) || amount < 1) return [400, stripeError("invalid_request_error", "Invalid integer: amount", "amount")];
    if (!currency || !(currency in dollarValue)) return [400, stripeError("invalid_request_error", "Invalid currency.", "currency")];
    if (params.payment_method !== "pm_card_visa" || params.confirm !== "true")
      return [400, stripeError("invalid_request_error", "This stand-in takes pm_card_visa, confirmed at once, alone.", "payment_method")];
    const charge = {
      id: id("ch"),
      object: "charge" as const,
      amount,
      amount_refunded: 0,
      currency,
      payment_intent: id("pi"),
      refunded: false,
    };
    charges.set(charge.payment_intent, { ...charge, balance_transaction: chargeEntry(charge).id });
    return paymentIntent(charge.payment_intent, new URLSearchParams());
  }

  /**
   * A charge in the platform's balance: in its settlement currency, converted at the stand-in's rate when
   * the charge is in another ("If the currency you charge in differs from your settlement currency, Stripe
   * converts the charge": the balance transaction's `exchange_rate`), less Stripe's fee.
   */
  function chargeEntry(charge: Omit<Charge, "balance_transaction">): BalanceTransaction {
    const rate = charge.currency === settlementCurrency ? null : exchangeRate(charge.currency, settlementCurrency);
    const amount = rate === null ? charge.amount : Math.round(charge.amount * rate);
    const fee = stripeFee(amount);
    const entry: BalanceTransaction = {
      id: id("txn"),
      object: "balance_transaction",
      amount,
      available_on: now() + 2 * 86_400,
      created: now(),
      currency: settlementCurrency,
      exchange_rate: rate,
      fee,
      net: amount - fee,
      source: charge.id,
      status: "pending",
      type: "charge",
    };
    balanceTransactions.set(entry.id, entry);
    return entry;
  }

  /**
   * Stripe Tax on a session the buyer is paying, from their country: "Checkout uses the shipping address
   * entered during the session to determine the customer's location for calculating tax. If you don't collect
   * shipping information, Checkout uses the billing address" (Stripe's "Collect taxes", Checkout). Each line
   * is taxed on its own and rounded to the cent, as Stripe gives each line item its own `amount_tax` in whole
   * cents (the session's is their sum), the shipping likewise; on top: `amount_total` = subtotal + shipping + tax.
   */
  function collectTax(session: CheckoutSession, items: LineItem[], country: string) {
    const registration = taxRegistrations[country];
    // On top (exclusive), the rate of the price; included (inclusive), the part of the price that is tax:
    // "When set to inclusive, the amount your buyer pays never changes, even if the tax rate varies"
    // (Stripe's "Automatically collect tax on Checkout sessions").
    const tax = (amount: number, behavior: TaxBehavior): Tax => {
      const included = behavior === "inclusive";
      const rate = taxRate(country, included);
      if (!registration) return { amount: 0, rate, taxability_reason: "not_collecting", taxable_amount: 0 };
      const taxed = included
        ? amount - Math.round((amount * 100) / (100 + registration.percentage))
        : Math.round((amount * registration.percentage) / 100);
      return { amount: taxed, rate, taxability_reason: "standard_rated", taxable_amount: included ? amount - taxed : amount };
    };
    let amountTax = 0;
    let addedTax = 0;
    for (const item of items) {
      item.tax = tax(item.unitAmount * item.quantity, item.taxBehavior);
      amountTax += item.tax.amount;
      if (item.taxBehavior !== "inclusive") addedTax += item.tax.amount;
    }
    if (session.shipping_cost) {
      const behavior = shippingRates.get(session.shipping_cost.shipping_rate)?.tax_behavior ?? "exclusive";
      const shippingTax = tax(session.shipping_cost.amount_subtotal, behavior);
      amountTax += shippingTax.amount;
      const added = behavior === "inclusive" ? 0 : shippingTax.amount;
      addedTax += added;
      Object.assign(session.shipping_cost, {
        amount_tax: shippingTax.amount,
        amount_total: session.shipping_cost.amount_subtotal + added,
        taxes: [shippingTax],
      });
    }
    Object.assign(session, {
      amount_total: session.amount_subtotal + session.total_details.amount_shipping + addedTax,
      automatic_tax: { ...session.automatic_tax, status: "complete" },
      total_details: { ...session.total_details, amount_tax: amountTax },
    });
  }

  /** A country's tax rate: its registration's, or a 0% one where the stand-in has none (US sales tax included). */
  function taxRate(country: string, inclusive: boolean): TaxRate {
    const registration = taxRegistrations[country];
    const made = taxRates.get(`${country}:${inclusive}`) ?? {
      id: id("txr"),
      object: "tax_rate" as const,
      active: true as const,
      country,
      created: now(),
      description: null,
      display_name: registration?.display_name ?? (country === "US" ? "Sales tax" : "Tax"),
      effective_percentage: registration?.percentage ?? 0,
      flat_amount: null,
      inclusive,
      jurisdiction: regionNames.of(country) ?? country,
      jurisdiction_level: "country" as const,
      livemode: false as const,
      metadata: {},
      percentage: registration?.percentage ?? 0,
      rate_type: "percentage" as const,
      state: null,
      tax_type: registration?.tax_type ?? (country === "US" ? ("sales_tax" as const) : null),
    };
    taxRates.set(`${country}:${inclusive}`, made);
    return made;
  }

  /**
   * A session's line items, in the order they were given (`limit`, `starting_after`), each with its price;
   * `data.taxes` and `data.price.product` when expanded ("taxes" is includable: absent unless asked).
   */
  function lineItemList(session: CheckoutSession, expand: Set<string>, query: URLSearchParams) {
    const items = lineItems.get(session.id) ?? [];
    const limit = Math.min(Math.max(Number(query.get("limit") ?? 10) || 10, 1), 100);
    const after = items.findIndex((item) => item.id === query.get("starting_after"));
    const page = items.slice(after + 1, after + 1 + limit);
    return {
      object: "list",
      data: page.map((item) => {
        const subtotal = item.unitAmount * item.quantity;
        const amountTax = item.tax?.amount ?? 0;
        // Tax included in the price is part of its subtotal already; tax on top is added.
        const addedTax = item.taxBehavior === "inclusive" ? 0 : amountTax;
        return {
          id: item.id,
          object: "item",
          adjustable_quantity: null,
          amount_discount: 0,
          amount_subtotal: subtotal,
          amount_tax: amountTax,
          amount_total: subtotal + addedTax,
          currency: session.currency,
          description: item.name,
          metadata: {},
          price: {
            id: item.price,
            object: "price",
            active: true,
            currency: session.currency,
            livemode: false,
            product: expand.has("data.price.product")
              ? { id: item.product, object: "product", active: true, name: item.name, tax_code: item.taxCode }
              : item.product,
            tax_behavior: item.taxBehavior,
            ...(item.interval ? { recurring: { interval: item.interval, interval_count: 1 } } : {}),
            type: item.interval ? "recurring" : "one_time",
            unit_amount: item.unitAmount,
          },
          quantity: item.quantity,
          ...(expand.has("data.taxes") ? { taxes: item.tax ? [item.tax] : [] } : {}),
        };
      }),
      has_more: after + 1 + limit < items.length,
      url: `/v1/checkout/sessions/${session.id}/line_items`,
    };
  }

  function createSession(params: Form): [number, unknown] {
    if (params.mode !== "payment" && params.mode !== "subscription")
      return [400, stripeError("invalid_request_error", "This stand-in takes mode=payment or mode=subscription.", "mode")];
    const mode = params.mode;
    const successUrl = text(params.success_url);
    if (!successUrl) return [400, stripeError("invalid_request_error", "Missing required param: success_url.", "success_url")];
    const items: LineItem[] = [];
    let currency: string | null = null;
    for (const [index, item] of list(params.line_items).entries()) {
      const priceData = record(record(item).price_data);
      const unitAmount = Number(priceData.unit_amount);
      const quantity = Number(record(item).quantity ?? 1);
      const itemCurrency = text(priceData.currency)?.toLowerCase() ?? null;
      const name = text(record(priceData.product_data).name);
      const taxBehavior = text(priceData.tax_behavior) ?? "unspecified";
      const taxCode = text(record(priceData.product_data).tax_code);
      // "You must provide at least one recurring price in `subscription` mode when using prices", and a
      // recurring price is refused in payment mode (Stripe's Checkout Session reference, `mode`).
      const recurring = priceData.recurring === undefined ? null : text(record(priceData.recurring).interval);
      if (priceData.recurring !== undefined && recurring !== "month" && recurring !== "year")
        return [
          400,
          stripeError(
            "invalid_request_error",
            "Invalid recurring[interval]: this stand-in takes month or year.",
            `line_items[${index}][price_data][recurring][interval]`,
          ),
        ];
      if (mode === "payment" && recurring)
        return [
          400,
          stripeError(
            "invalid_request_error",
            "You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.",
            "mode",
          ),
        ];
      if (mode === "subscription" && !recurring)
        return [
          400,
          stripeError(
            "invalid_request_error",
            "This stand-in takes recurring prices alone in `subscription` mode.",
            `line_items[${index}][price_data][recurring]`,
          ),
        ];
      if (!Number.isInteger(unitAmount) || unitAmount < 0 || !Number.isInteger(quantity) || quantity < 1 || !name || !itemCurrency)
        return [400, stripeError("invalid_request_error", `Invalid line_items[${index}].`, `line_items[${index}]`)];
      if (!isTaxBehavior(taxBehavior)) return [400, invalidTaxBehavior(`line_items[${index}][price_data][tax_behavior]`)];
      if (taxCode !== null && !taxCodePattern.test(taxCode))
        return [400, invalidTaxCode(taxCode, `line_items[${index}][price_data][product_data][tax_code]`)];
      if (currency && itemCurrency !== currency)
        return [400, stripeError("invalid_request_error", "All line items must have the same currency.", "line_items")];
      currency = itemCurrency;
      items.push({
        id: id("li"),
        name,
        unitAmount,
        quantity,
        price: id("price"),
        product: id("prod"),
        taxBehavior,
        taxCode,
        tax: null,
        interval: recurring === "month" || recurring === "year" ? recurring : null,
      });
    }
    if (mode === "subscription" && items.length !== 1)
      return [400, stripeError("invalid_request_error", "This stand-in takes one recurring line item per subscription.", "line_items")];
    if (mode === "subscription" && params.shipping_options !== undefined)
      return [400, stripeError("invalid_request_error", "This stand-in takes no shipping in `subscription` mode.", "shipping_options")];
    if (!currency || !(currency in minimumCharge))
      return [400, stripeError("invalid_request_error", "A Checkout Session needs line items in usd, eur or gbp.", "line_items")];
    // Shipping: the one fixed rate this stand-in takes, and the countries an address may be in.
    const rates = list(params.shipping_options).map((option) => record(record(option).shipping_rate_data));
    const allowed = list(record(params.shipping_address_collection).allowed_countries).map(String);
    if (rates.length > 1)
      return [400, stripeError("invalid_request_error", "This stand-in takes one shipping option.", "shipping_options")];
    const rate = rates[0];
    const shipping = rate ? Number(record(rate.fixed_amount).amount) : 0;
    if (rate && (rate.type !== "fixed_amount" || !Number.isInteger(shipping) || shipping < 0 || !text(rate.display_name)))
      return [400, stripeError("invalid_request_error", "Invalid shipping_options[0].", "shipping_options[0]")];
    if (rate && text(record(rate.fixed_amount).currency)?.toLowerCase() !== currency)
      return [400, stripeError("invalid_request_error", "The shipping rate's currency must be the session's.", "shipping_options[0]")];
    const shippingTaxBehavior = (rate && text(rate.tax_behavior)) ?? "unspecified";
    const shippingTaxCode = rate ? text(rate.tax_code) : null;
    if (!isTaxBehavior(shippingTaxBehavior)) return [400, invalidTaxBehavior("shipping_options[0][shipping_rate_data][tax_behavior]")];
    if (shippingTaxCode !== null && !taxCodePattern.test(shippingTaxCode))
      return [400, invalidTaxCode(shippingTaxCode, "shipping_options[0][shipping_rate_data][tax_code]")];
    // Stripe Tax prices each line and the shipping as their tax behavior says: "Setting the tax behavior
    // explicitly on a price is optional, if you set up the default tax behavior in the Stripe Tax settings"
    // (Stripe's "Automatically collect tax on Checkout sessions"); the stand-in's settings have no default, so
    // each must say, as Stripe answers a price without one ("does not have a `tax_behavior` set which is
    // required for automatic tax computation").
    const automaticTax = record(params.automatic_tax).enabled === "true";
    if (automaticTax) {
      const behaviors = [
        ...items.map((item, index) => [item.taxBehavior, `line_items[${index}][price_data][tax_behavior]`] as const),
        ...(rate ? [[shippingTaxBehavior, "shipping_options[0][shipping_rate_data][tax_behavior]"] as const] : []),
      ];
      for (const [behavior, param] of behaviors) {
        if (behavior === "unspecified")
          return [
            400,
            stripeError(
              "invalid_request_error",
              `The price does not have a \`tax_behavior\` set which is required for automatic tax computation: set ${param}.`,
              param,
            ),
          ];
      }
    }
    if (params.shipping_address_collection !== undefined && (allowed.length === 0 || allowed.some((code) => !/^[A-Z]{2}$/.test(code))))
      return [
        400,
        stripeError("invalid_request_error", "Invalid shipping_address_collection[allowed_countries].", "shipping_address_collection"),
      ];
    const subtotal = items.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
    const total = subtotal + shipping;
    if (total < minimumCharge[currency]!)
      return [
        400,
        stripeError("invalid_request_error", "The Checkout Session's total amount due must add up to at least the minimum charge amount."),
      ];
    // "The Epoch time in seconds at which the Checkout Session will expire. It can be anywhere from 30
    // minutes to 24 hours after Checkout Session creation" (Stripe's API reference, Create a Checkout
    // Session), measured from Stripe's own receipt of the request.
    const expiresAt = params.expires_at === undefined ? now() + 24 * 3600 : Number(params.expires_at);
    if (!Number.isInteger(expiresAt)) return [400, stripeError("invalid_request_error", "Invalid integer: expires_at", "expires_at")];
    if (expiresAt < now() + 30 * 60)
      return [
        400,
        stripeError(
          "invalid_request_error",
          "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.",
          "expires_at",
        ),
      ];
    if (expiresAt > now() + 24 * 3600)
      return [
        400,
        stripeError(
          "invalid_request_error",
          "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.",
          "expires_at",
        ),
      ];
    const shippingRate: ShippingRate | null = rate
      ? {
          id: id("shr"),
          object: "shipping_rate",
          active: true,
          display_name: text(rate.display_name)!,
          fixed_amount: { amount: shipping, currency },
          livemode: false,
          metadata: {},
          tax_behavior: shippingTaxBehavior,
          tax_code: shippingTaxCode,
          type: "fixed_amount",
        }
      : null;
    if (shippingRate) shippingRates.set(shippingRate.id, shippingRate);
    const sessionId = id("cs");
    const session: CheckoutSession = {
      id: sessionId,
      object: "checkout.session",
      amount_subtotal: subtotal,
      amount_total: total,
      cancel_url: text(params.cancel_url),
      client_reference_id: text(params.client_reference_id),
      created: now(),
      currency,
      customer_details: null,
      customer_email: text(params.customer_email),
      customer: null,
      subscription: null,
      invoice: null,
      collected_information: null,
      shipping_address_collection: allowed.length > 0 ? { allowed_countries: allowed } : null,
      shipping_cost: shippingRate
        ? { amount_subtotal: shipping, amount_tax: 0, amount_total: shipping, shipping_rate: shippingRate.id }
        : null,
      // Until the buyer's address is known, Stripe Tax waits for it ("requires_location_inputs") and the tax is 0.
      automatic_tax: automaticTax
        ? { enabled: true, liability: { type: "self" }, provider: "stripe", status: "requires_location_inputs" }
        : { enabled: false, liability: null, provider: null, status: null },
      total_details: { amount_discount: 0, amount_shipping: shipping, amount_tax: 0 },
      expires_at: expiresAt,
      livemode: false,
      metadata: Object.fromEntries(Object.entries(record(params.metadata)).map(([key, value]) => [key, String(value)])),
      mode,
      payment_intent: null,
      payment_status: "unpaid",
      status: "open",
      success_url: successUrl,
      url: `${origin}/pay/${sessionId}`,
    };
    sessions.set(sessionId, session);
    lineItems.set(sessionId, items);
    if (mode === "subscription")
      subscriptionMetadata.set(
        sessionId,
        Object.fromEntries(Object.entries(record(record(params.subscription_data).metadata)).map(([key, value]) => [key, String(value)])),
      );
    return [200, session];
  }

  /** A refund of a paid session's charge, whole or in part (`amount`); `charge.refunded` follows. */
  function refund(params: Form): [number, unknown] {
    const paymentIntent = text(params.payment_intent);
    const charge = paymentIntent ? charges.get(paymentIntent) : undefined;
    if (!charge) return [400, stripeError("invalid_request_error", `No such payment_intent: '${paymentIntent ?? ""}'`, "payment_intent")];
    const left = charge.amount - charge.amount_refunded;
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) return [400, stripeError("invalid_request_error", "Invalid integer: amount", "amount")];
    if (amount > left)
      return [
        400,
        stripeError("invalid_request_error", `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`, "amount"),
      ];
    const made: Refund = {
      id: id("re"),
      object: "refund",
      amount,
      charge: charge.id,
      created: now(),
      currency: charge.currency,
      metadata: Object.fromEntries(Object.entries(record(params.metadata)).map(([key, value]) => [key, String(value)])),
      payment_intent: charge.payment_intent,
      status: "succeeded",
    };
    refunds.push(made);
    Object.assign(charge, {
      amount_refunded: charge.amount_refunded + amount,
      refunded: charge.amount_refunded + amount === charge.amount,
    });
    send("charge.refunded", charge);
    return [200, made];
  }

  /**
   * A charge's or a payment's refunds, newest first (`charge`, `payment_intent`, `limit`): what
   * `charge.refunded` no longer carries ("the refunds property on a charge is no longer expanded by
   * default", Stripe's API upgrades, 2022-11-15).
   */
  function listRefunds(query: URLSearchParams): [number, unknown] {
    const charge = query.get("charge");
    const paymentIntent = query.get("payment_intent");
    const limit = Math.min(Math.max(Number(query.get("limit") ?? 10) || 10, 1), 100);
    const matching = refunds
      .filter((made) => (charge === null || made.charge === charge) && (paymentIntent === null || made.payment_intent === paymentIntent))
      .toReversed();
    return [200, { object: "list", data: matching.slice(0, limit), has_more: matching.length > limit, url: "/v1/refunds" }];
  }

  /**
   * Webhook endpoints as `npm run stripe:setup` makes them: listed, created (on the API version asked for,
   * a Connect one with the platform's `application`; the signing secret in the answer to its creation
   * alone), updated (but never their version: "you can't change the API version of an existing webhook
   * endpoint", Stripe's webhook versioning guide) and deleted. Events still go to the stand-in's own
   * `webhookUrl`, signed with its own secrets.
   */
  function webhookEndpoint(request: IncomingMessage, path: string, body: string): [number, unknown] {
    const one = /^\/v1\/webhook_endpoints\/([^/]+)$/.exec(path);
    const found = one ? webhookEndpoints.get(one[1]!) : undefined;
    if (one && !found) return [404, stripeError("invalid_request_error", `No such webhook endpoint: '${one[1]}'`, "id")];
    if (request.method === "GET" && !one) {
      const data = [...webhookEndpoints.values()].toReversed().map(({ secret: _secret, ...shown }) => shown);
      return [200, { object: "list", data, has_more: false, url: "/v1/webhook_endpoints" }];
    }
    if (request.method === "DELETE" && found) {
      webhookEndpoints.delete(found.id);
      return [200, { id: found.id, object: "webhook_endpoint", deleted: true }];
    }
    if (request.method !== "POST")
      return [404, stripeError("invalid_request_error", `Unrecognized request URL (${request.method}: ${path}).`)];
    const params = decodeForm(body);
    const events = list(params.enabled_events).map(String);
    if (found) {
      if (params.api_version !== undefined)
        return [400, stripeError("invalid_request_error", "Received unknown parameter: api_version", "api_version")];
      if (events.length > 0) found.enabled_events = events;
      if (typeof params.description === "string") found.description = params.description;
      const { secret: _secret, ...shown } = found;
      return [200, shown];
    }
    const url = text(params.url);
    if (!url) return [400, stripeError("invalid_request_error", "Missing required param: url.", "url")];
    if (events.length === 0)
      return [400, stripeError("invalid_request_error", "Missing required param: enabled_events.", "enabled_events")];
    const version = text(params.api_version);
    if (version !== null && !/^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/.test(version))
      return [400, stripeError("invalid_request_error", `Invalid api_version: ${version}`, "api_version")];
    const made: WebhookEndpoint = {
      id: id("we"),
      object: "webhook_endpoint",
      api_version: version,
      application: params.connect === "true" ? "ca_stand_in_platform" : null,
      created: now(),
      description: text(params.description),
      enabled_events: events,
      livemode: false,
      metadata: {},
      secret: `whsec_${randomBytes(24).toString("hex")}`,
      status: "enabled",
      url,
    };
    webhookEndpoints.set(made.id, made);
    return [200, made];
  }

  /** An Express account the platform creates for an artist: nothing enabled until its onboarding is done. */
  function createAccount(params: Form): [number, unknown] {
    const controller = record(params.controller);
    if (params.type !== "express" && record(controller.stripe_dashboard).type !== "express")
      return [400, stripeError("invalid_request_error", "This stand-in makes Express accounts alone.", "controller")];
    const capabilities = record(params.capabilities);
    const requested = (name: string) => record(capabilities[name]).requested === "true";
    const recipient = record(params.tos_acceptance).service_agreement === "recipient";
    const country = text(params.country) ?? platformCountry;
    // Stripe's own refusals, as its Connect guides give them: transfers alone need the `recipient` service
    // agreement ("Your platform needs approval for accounts to have requested the `transfers` capability
    // without the `card_payments` capability"), which in turn takes no card payments; and the full
    // agreement reaches only the platform's own region (cross-border payouts go under `recipient`).
    if (requested("transfers") && !requested("card_payments") && !recipient)
      return [
        400,
        stripeError(
          "invalid_request_error",
          "Your platform needs approval for accounts to have requested the `transfers` capability without the `card_payments` capability.",
          "capabilities",
        ),
      ];
    if (recipient && requested("card_payments"))
      return [
        400,
        stripeError(
          "invalid_request_error",
          "The `recipient` service agreement cannot be used with the `card_payments` capability.",
          "tos_acceptance",
        ),
      ];
    if (!recipient && !sameRegion(country, platformCountry))
      return [
        400,
        stripeError(
          "invalid_request_error",
          `Connected accounts in ${country} cannot be created by a platform in ${platformCountry} under the full service agreement.`,
          "country",
        ),
      ];
    const account: ConnectAccount = {
      id: `acct_${randomBytes(8).toString("hex")}`,
      object: "account",
      type: "express",
      country,
      email: text(params.email),
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      capabilities: { transfers: "inactive" },
      requirements: { currently_due: ["external_account", "individual.first_name", "individual.last_name", "tos_acceptance.date"] },
      metadata: Object.fromEntries(Object.entries(record(params.metadata)).map(([key, value]) => [key, String(value)])),
    };
    accounts.set(account.id, account);
    return [200, account];
  }

  /** A single-use link to an account's onboarding, good for five minutes as Stripe's are. */
  function createAccountLink(params: Form): [number, unknown] {
    const account = text(params.account);
    if (!account || !accounts.has(account))
      return [400, stripeError("invalid_request_error", `No such account: '${account ?? ""}'`, "account")];
    const returnUrl = text(params.return_url);
    const refreshUrl = text(params.refresh_url);
    if (params.type !== "account_onboarding" || !returnUrl || !refreshUrl)
      return [400, stripeError("invalid_request_error", "An account link needs type=account_onboarding, return_url and refresh_url.")];
    const link = randomBytes(12).toString("hex");
    const expiresAt = now() + 300;
    accountLinks.set(link, { account, returnUrl, refreshUrl, expiresAt, used: false });
    return [200, { object: "account_link", created: now(), expires_at: expiresAt, url: `${origin}/connect/${link}` }];
  }

  /**
   * Money from the platform to a connected account, out of one charge (`source_transaction`): in the
   * currency of that charge's balance transaction, the platform's settlement currency, never the charge's
   * own when the two differ (Stripe's Connect guide: a transfer with `source_transaction` is made from the
   * funds the charge added to the balance), and never past what the charge left there.
   */
  function createTransfer(params: Form): [number, unknown] {
    const destination = accounts.get(text(params.destination) ?? "");
    if (!destination)
      return [400, stripeError("invalid_request_error", `No such destination: '${text(params.destination) ?? ""}'`, "destination")];
    if (destination.capabilities.transfers !== "active")
      return [
        400,
        stripeError(
          "invalid_request_error",
          "Your destination account needs to have at least one of the following capabilities enabled: transfers",
        ),
      ];
    const amount = Number(params.amount);
    const currency = text(params.currency)?.toLowerCase();
    if (!Number.isInteger(amount) || amount < 1) return [400, stripeError("invalid_request_error", "Invalid integer: amount", "amount")];
    const chargeId = text(params.source_transaction);
    const charge = chargeId ? [...charges.values()].find((candidate) => candidate.id === chargeId) : undefined;
    if (chargeId && !charge) return [400, stripeError("invalid_request_error", `No such charge: '${chargeId}'`, "source_transaction")];
    const entry = charge ? balanceTransactions.get(charge.balance_transaction)! : undefined;
    if (entry && currency !== entry.currency)
      return [
        400,
        stripeError(
          "invalid_request_error",
          `The currency of this transfer (${currency ?? ""}) must match the currency of the source transaction's balance transaction (${entry.currency}).`,
          "currency",
        ),
      ];
    const transferred = transfers
      .filter((transfer) => transfer.source_transaction === chargeId)
      .reduce((sum, transfer) => sum + transfer.amount - transfer.amount_reversed, 0);
    const refunded = charge && entry ? Math.round(charge.amount_refunded * (entry.exchange_rate ?? 1)) : 0;
    if (entry && amount > entry.amount - refunded - transferred)
      return [400, stripeError("invalid_request_error", "Insufficient funds in the source transaction for this transfer.", "amount")];
    const transfer: Transfer = {
      id: id("tr"),
      object: "transfer",
      amount,
      amount_reversed: 0,
      currency: currency ?? "usd",
      created: now(),
      description: text(params.description),
      destination: destination.id,
      metadata: Object.fromEntries(Object.entries(record(params.metadata)).map(([key, value]) => [key, String(value)])),
      reversed: false,
      source_transaction: chargeId,
      transfer_group: text(params.transfer_group),
    };
    transfers.push(transfer);
    return [200, transfer];
  }

  /** Money taken back from a connected account (all that is left of the transfer without `amount`). */
  function reverseTransfer(transferId: string, params: Form): [number, unknown] {
    const transfer = transfers.find((candidate) => candidate.id === transferId);
    if (!transfer) return [404, stripeError("invalid_request_error", `No such transfer: '${transferId}'`, "id")];
    const left = transfer.amount - transfer.amount_reversed;
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1 || amount > left)
      return [400, stripeError("invalid_request_error", `Invalid amount: the transfer has ${left} left to reverse.`, "amount")];
    Object.assign(transfer, {
      amount_reversed: transfer.amount_reversed + amount,
      reversed: transfer.amount_reversed + amount === transfer.amount,
    });
    return [
      200,
      { id: id("trr"), object: "transfer_reversal", amount, currency: transfer.currency, transfer: transfer.id, created: now() },
    ];
  }

  /**
   * Connect's hosted onboarding, as an account link opens it: the artist's name and bank account; submitted
   * whole, the account can take transfers, `account.updated` is sent, and the artist goes back (`return_url`).
   * An expired or used link goes to `refresh_url`, as Stripe's do.
   */
  function onboardingPage(request: IncomingMessage, linkId: string, body: string, response: ServerResponse) {
    const link = accountLinks.get(linkId);
    if (!link || link.used || link.expiresAt < now()) {
      response.writeHead(303, { Location: link?.refreshUrl ?? origin }).end();
      return;
    }
    const account = accounts.get(link.account)!;
    const typed = request.method === "POST" ? Object.fromEntries(new URLSearchParams(body)) : {};
    const name = (typed.name ?? "").trim();
    const bank = (typed.bank_account ?? "").replace(/\s+/g, "");
    if (request.method === "POST" && name && /^[A-Z0-9]{8,34}$/i.test(bank)) {
      link.used = true;
      Object.assign(account, {
        charges_enabled: true,
        payouts_enabled: true,
        details_submitted: true,
        capabilities: { transfers: "active" },
        requirements: { currently_due: [] },
      });
      send("account.updated", account);
      response.writeHead(303, { Location: link.returnUrl }).end();
      return;
    }
    const problem = request.method === "POST" ? "Enter your name and a bank account number (8 to 34 letters and digits)." : null;
    const field = (name: string, label: string, attributes = "") =>
      `<p><label for="${name}">${label}</label><br><input id="${name}" name="${name}" value="${escape(typed[name] ?? "")}" ${attributes}></p>`;
    page(
      response,
      problem ? 400 : 200,
      "Set up payouts",
      `<p>Crate partners with Stripe to pay you${account.email ? ` (${escape(account.email)})` : ""}.</p>
<form method="post">
${problem ? `<p role="alert" class="problem">${escape(problem)}</p>` : ""}
${field("name", "Legal name", 'autocomplete="name" required')}
${field("bank_account", "Bank account number or IBAN", 'autocomplete="off" required')}
<p><button type="submit">Agree and submit</button></p>
</form>
<p><a href="${escape(link.returnUrl)}">Return to Crate without finishing</a></p>`,
    );
  }

  /** The hosted payment page: a card form; a test card that pays completes the session and returns to the shop. */
  async function payPage(request: IncomingMessage, sessionId: string, body: string, response: ServerResponse) {
    lapse();
    const session = sessions.get(sessionId);
    if (!session || session.status !== "open") {
      page(response, 410, "This checkout has ended", `<p>This checkout is no longer open.</p>`);
      return;
    }
    const items = lineItems.get(sessionId) ?? [];
    let problem: string | null = null;
    let typed: Record<string, string> = {};
    if (request.method === "POST") {
      typed = Object.fromEntries(new URLSearchParams(body));
      const card = (typed.card ?? "").replace(/\s+/g, "");
      const email = (session.customer_email ?? typed.email ?? "").trim();
      const allowed = session.shipping_address_collection?.allowed_countries;
      const shipTo = allowed ? shippingDetails(typed) : null;
      const country = /^[A-Z]{2}$/.test(typed.country ?? "") ? typed.country! : null;
      // Stripe Tax's location: the shipping address when the session asks one, else the billing country.
      const taxCountry = shipTo?.address.country ?? country;
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) problem = "Your email address is incomplete.";
      else if (allowed && !shipTo) problem = "Your shipping address is incomplete.";
      else if (allowed && shipTo && !allowed.includes(shipTo.address.country)) problem = "We cannot ship to this country.";
      else if (session.automatic_tax.enabled && !taxCountry) problem = "Your country is needed to calculate tax.";
      else if (declines[card]) problem = declines[card]!;
      else if (card !== testCards.pays) problem = "Your card number is invalid.";
      else {
        // The tax is known once the address is, before the charge, which is of the whole total.
        if (session.automatic_tax.enabled) collectTax(session, items, taxCountry!);
        if (session.mode === "subscription") {
          // Subscription mode: no payment intent of the session's own; the subscription's first invoice is
          // paid, and the session names the customer, subscription and invoice it made.
          const item = items[0]!;
          const line: BilledLine = { ...item, interval: item.interval!, tax: item.tax };
          const made = billing.subscribe(email, line, session.currency, subscriptionMetadata.get(session.id) ?? {});
          Object.assign(session, {
            status: "complete",
            payment_status: "paid",
            ...made,
            customer_details: { email, address: { country } },
            collected_information: { shipping_details: null },
            url: null,
          });
          send("checkout.session.completed", session);
          response.writeHead(303, { Location: session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id) }).end();
          return;
        }
        Object.assign(session, {
          status: "complete",
          payment_status: "paid",
          payment_intent: id("pi"),
          customer_details: { email, address: { country } },
          collected_information: { shipping_details: shipTo },
          url: null,
        });
        const charge = {
          id: id("ch"),
          object: "charge" as const,
          amount: session.amount_total,
          amount_refunded: 0,
          currency: session.currency,
          payment_intent: session.payment_intent!,
          refunded: false,
        };
        charges.set(charge.payment_intent, { ...charge, balance_transaction: chargeEntry(charge).id });
        send("checkout.session.completed", session);
        response.writeHead(303, { Location: session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id) }).end();
        return;
      }
    }
    // What the page says of tax: added when the buyer pays, or already in the prices (Checkout shows it so).
    const taxNote = !session.automatic_tax.enabled ? null : items.every((item) => item.taxBehavior === "inclusive") ? "included" : "added";
    const money = (cents: number) => new Intl.NumberFormat("en", { style: "currency", currency: session.currency }).format(cents / 100);
    const rows = items
      .map(
        (item) =>
          `<li>${escape(item.name)}${item.quantity > 1 ? ` × ${item.quantity}` : ""} <b>${money(item.unitAmount * item.quantity)}</b></li>`,
      )
      .join("");
    const field = (name: string, label: string, attributes = "") =>
      `<p><label for="${name}">${label}</label><br><input id="${name}" name="${name}" value="${escape(typed[name] ?? "")}" ${attributes}></p>`;
    const allowed = session.shipping_address_collection?.allowed_countries;
    const shippingFields = allowed
      ? `<fieldset><legend>Shipping address</legend>
${field("shipping_name", "Full name", 'autocomplete="shipping name" required')}
${field("shipping_line1", "Address", 'autocomplete="shipping address-line1" required')}
${field("shipping_city", "City", 'autocomplete="shipping address-level2" required')}
${field("shipping_postal_code", "Postal code", 'autocomplete="shipping postal-code" required')}
<p><label for="shipping_country">Country</label><br><select id="shipping_country" name="shipping_country">${allowed
          .map((code) => `<option value="${code}">${escape(regionNames.of(code) ?? code)}</option>`)
          .join("")}</select></p>
</fieldset>${session.shipping_cost ? `<p>Shipping <b>${money(session.shipping_cost.amount_total)}</b></p>` : ""}`
      : "";
    page(
      response,
      problem ? 402 : 200,
      "Pay",
      `<ul>${rows}</ul><p>Total <b>${money(session.amount_total)}</b>${taxNote === "added" ? " plus tax, from your address, when you pay" : taxNote === "included" ? ", tax included" : ""}</p>
<form method="post">
${problem ? `<p role="alert" class="problem">${escape(problem)}</p>` : ""}
${session.customer_email ? `<p>Email: ${escape(session.customer_email)}</p>` : field("email", "Email", 'type="email" autocomplete="email" required')}
${shippingFields}
${field("card", "Card number", 'inputmode="numeric" autocomplete="cc-number" required')}
${field("expiry", "Expiry (MM / YY)", 'autocomplete="cc-exp" required')}
${field("cvc", "CVC", 'inputmode="numeric" autocomplete="cc-csc" required')}
<p><label for="country">Country</label><br><select id="country" name="country">${countries
        .map(([code, name]) => `<option value="${code}"${typed.country === code ? " selected" : ""}>${name}</option>`)
        .join("")}</select></p>
<p><button type="submit">Pay ${money(session.amount_total)}${taxNote === "added" ? " plus tax" : ""}</button></p>
</form>
${session.cancel_url ? `<p><a href="${escape(session.cancel_url)}">Back to the shop</a></p>` : ""}`,
    );
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const { pathname: path, searchParams: query } = new URL(request.url ?? "/", "http://stand-in");
      const pay = /^\/pay\/([^/]+)$/.exec(path);
      if (pay) {
        void payPage(request, pay[1]!, body, response);
        return;
      }
      const onboarding = /^\/connect\/([^/]+)$/.exec(path);
      if (onboarding) {
        onboardingPage(request, onboarding[1]!, body, response);
        return;
      }
      // The stand-in's own listing, for tests (not Stripe's): every transfer, oldest first.
      if (request.method === "GET" && path === "/_transfers") {
        reply(response, 200, transfers);
        return;
      }
      // Its own switch, for tests (not Stripe's): the API paths starting with `path` fail as Stripe does
      // when it has trouble (500, `api_error`) until it is turned off (DELETE).
      // Its own, for tests (not Stripe's): the test clock the next customers Checkout makes are made on
      // (`{"test_clock": "clock_…"}`), or none (DELETE); 404 for a clock it does not have.
      if (path === "/_test_clock") {
        const clock = request.method === "DELETE" ? null : String((JSON.parse(body || "{}") as { test_clock?: unknown }).test_clock ?? "");
        response.writeHead(billing.useClock(clock) ? 204 : 404).end();
        return;
      }
      if (path === "/_failures") {
        if (request.method === "DELETE") failing.clear();
        else failing.add(String((JSON.parse(body || "{}") as { path?: unknown }).path ?? "/"));
        response.writeHead(204).end();
        return;
      }
      if ([...failing].some((prefix) => path.startsWith(prefix))) {
        reply(response, 500, stripeError("api_error", "An unknown error occurred"));
        return;
      }
      const key = request.method === "POST" ? request.headers["idempotency-key"] : undefined;
      const kept = typeof key === "string" ? idempotent.get(key) : undefined;
      if (kept && kept.body !== body) {
        reply(
          response,
          400,
          stripeError(
            "idempotency_error",
            "Keys for idempotent requests can only be used with the same parameters they were first used with.",
          ),
        );
        return;
      }
      if (kept) {
        reply(response, kept.status, kept.answer);
        return;
      }
      void api(request, path, body, query).then(([status, answer]) => {
        if (typeof key === "string") idempotent.set(key, { body, status, answer: structuredClone(answer) });
        reply(response, status, answer);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    secretKey: options.secretKey,
    webhookSecret: options.webhookSecret,
    connectWebhookSecret: options.connectWebhookSecret ?? options.webhookSecret,
    sessions,
    subscriptions: billing.subscriptions,
    invoices: billing.invoices,
    refunds,
    events,
    transfers,
    async delivered() {
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
    },
    advanceClock(seconds) {
      clockAhead += seconds;
      lapse();
      billing.runUnclocked();
    },
    async close() {
      clearInterval(lapsing);
      await Promise.allSettled([...deliveries]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The `Stripe-Signature` header Stripe sends with `payload`: a timestamp and the HMAC-SHA256 of `{t}.{payload}`. */
export function stripeSignature(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const signature = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${signature}`;
}

/** Sends an event as Stripe does, again after 1, 4 and 16 seconds while the endpoint answers anything but 2xx. */
async function deliver(url: string, secret: string, event: StripeEvent, verbose: boolean): Promise<void> {
  const payload = JSON.stringify(event, null, 2);
  for (const wait of [0, 1000, 4000, 16000]) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "User-Agent": "Stripe/1.0",
          "Stripe-Signature": stripeSignature(payload, secret),
        },
        body: payload,
      });
      await response.body?.cancel();
      if (verbose) console.log(`[stripe] ${event.type} ${event.id} → ${response.status}`);
      if (response.ok) return;
    } catch (error) {
      if (verbose) console.log(`[stripe] ${event.type} ${event.id} → ${error instanceof Error ? error.message : error}`);
    }
  }
}

type Form = Record<string, unknown>;

/** A form body as Stripe reads it: `a[b][0][c]=d` is `{ a: { b: [{ c: "d" }] } }`. */
export function decodeForm(body: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((part) => part !== "");
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

const record = (value: unknown): Record<string, unknown> => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});
const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
/** A form's list (`line_items[0]`, `line_items[1]`, …) in its order. */
const list = (value: unknown): unknown[] =>
  Object.entries(record(value))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, item]) => item);

/** The fields a request asks expanded (`expand[]=…`, `expand[0]=…`). */
const expansions = (query: URLSearchParams) =>
  new Set([...query].filter(([key]) => /^expand(\[\d*\])?$/.test(key)).map(([, value]) => value));

function stripeError(type: string, message: string, param?: string) {
  return { error: { type, message, ...(param ? { param } : {}) } };
}

const invalidTaxBehavior = (param: string) =>
  stripeError("invalid_request_error", "Invalid tax_behavior: must be one of exclusive, inclusive, or unspecified", param);
const invalidTaxCode = (code: string, param: string) =>
  stripeError("invalid_request_error", `Invalid tax_code: '${code}' is not a product tax code (txcd_ and eight digits).`, param);

const noSuchSession = (sessionId: string) => stripeError("invalid_request_error", `No such checkout.session: '${sessionId}'`, "session");

function reply(response: ServerResponse, status: number, answer: unknown) {
  response.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${randomBytes(8).toString("hex")}` });
  response.end(JSON.stringify(answer));
}

function page(response: ServerResponse, status: number, title: string, content: string) {
  response.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  response.end(`<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Stripe (local stand-in)</title>
<style>body{font:16px system-ui;max-width:28rem;margin:2rem auto;padding:0 1rem}input,select,button{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}.problem{color:#a00;font-weight:600}:focus-visible{outline:3px solid #635bff;outline-offset:2px}</style>
<main><h1>${escape(title)}</h1><p>Local stand-in for Stripe Checkout: test card 4242 4242 4242 4242 pays.</p>${content}</main>
</html>`);
}

function escape(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

/** The shipping address typed on the payment page, when it is whole. */
function shippingDetails(typed: Record<string, string>): ShippingDetails | null {
  const [name, line1, city, postalCode, country] = [
    "shipping_name",
    "shipping_line1",
    "shipping_city",
    "shipping_postal_code",
    "shipping_country",
  ].map((field) => (typed[field] ?? "").trim());
  if (!name || !line1 || !city || !postalCode || !/^[A-Z]{2}$/.test(country ?? "")) return null;
  return { name, address: { line1, line2: null, city, postal_code: postalCode, state: null, country: country! } };
}

/** The billing countries the page offers: the US, every country the stand-in collects tax in, and Japan, where it does not. */
const countries: [code: string, name: string][] = ["US", ...Object.keys(taxRegistrations).sort(), "JP"].map((code) => [
  code,
  regionNames.of(code) ?? code,
]);
