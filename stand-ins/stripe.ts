// A stand-in for the part of Stripe's API the marketplace uses, so `npm start` and the tests reach no
// network: Checkout Sessions (create, retrieve, expire) and refunds with idempotency keys, the sessions'
// hosted payment page with Stripe's test cards, and events sent to the marketplace's webhook signed as Stripe signs them. The
// Worker talks to it through the real `stripe` package (its host, port and protocol settings), so the code
// that runs here is the code that runs against Stripe on hosted.
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

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

type LineItem = { name: string; unitAmount: number; quantity: number };

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
  /** Where the buyer asked it shipped, once paid (with `shipping_address_collection`). */
  collected_information: { shipping_details: ShippingDetails | null } | null;
  shipping_address_collection: { allowed_countries: string[] } | null;
  /** The chosen shipping rate's amount. */
  shipping_cost: { amount_subtotal: number; amount_total: number } | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: "payment";
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
  currency: string;
  payment_intent: string;
  refunded: boolean;
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

export type StripeEvent = {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: CheckoutSession | Charge };
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
};

export type StripeStandIn = {
  url: string;
  secretKey: string;
  webhookSecret: string;
  sessions: ReadonlyMap<string, CheckoutSession>;
  /** Every refund made, oldest first. */
  refunds: readonly Refund[];
  /** Every event sent, oldest first. */
  events: readonly StripeEvent[];
  /** Settles once every webhook delivery started so far has ended (delivered, or given up). */
  delivered(): Promise<void>;
  close(): Promise<void>;
};

export type StripeStandInOptions = {
  /** 0 picks a free port. */
  port?: number;
  secretKey: string;
  webhookSecret: string;
  /** Where events are sent (the marketplace's webhook route); none are sent without it. */
  webhookUrl?: string;
  verbose?: boolean;
};

const apiVersion = "2025-01-01";

export async function startStripeStandIn(options: StripeStandInOptions): Promise<StripeStandIn> {
  const sessions = new Map<string, CheckoutSession>();
  const lineItems = new Map<string, LineItem[]>();
  /** Each paid session's charge, by its payment intent. */
  const charges = new Map<string, Charge>();
  const refunds: Refund[] = [];
  const events: StripeEvent[] = [];
  const idempotent = new Map<string, { body: string; status: number; answer: unknown }>();
  const deliveries = new Set<Promise<void>>();
  let origin = "";

  const now = () => Math.floor(Date.now() / 1000);
  const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

  function send(type: string, session: CheckoutSession | Charge) {
    const event: StripeEvent = {
      id: id("evt"),
      object: "event",
      api_version: apiVersion,
      created: now(),
      data: { object: structuredClone(session) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    events.push(event);
    if (!options.webhookUrl) return;
    const delivery = deliver(options.webhookUrl, options.webhookSecret, event, options.verbose ?? false).finally(() =>
      deliveries.delete(delivery),
    );
    deliveries.add(delivery);
  }

  async function api(request: IncomingMessage, path: string, body: string): Promise<[number, unknown]> {
    if (request.headers.authorization !== `Bearer ${options.secretKey}`)
      return [401, stripeError("invalid_request_error", "Invalid API Key provided.")];
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (request.method === "POST" && path === "/v1/checkout/sessions") return createSession(decodeForm(body));
    if (request.method === "POST" && path === "/v1/refunds") return refund(decodeForm(body));
    if (request.method === "GET" && sessionPath && !sessionPath[2]) {
      const session = sessions.get(sessionPath[1]!);
      return session ? [200, session] : [404, noSuchSession(sessionPath[1]!)];
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
    return [404, stripeError("invalid_request_error", `Unrecognized request URL (${request.method}: ${path}).`)];
  }

  function createSession(params: Form): [number, unknown] {
    if (params.mode !== "payment") return [400, stripeError("invalid_request_error", "This stand-in takes mode=payment alone.", "mode")];
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
      if (!Number.isInteger(unitAmount) || unitAmount < 0 || !Number.isInteger(quantity) || quantity < 1 || !name || !itemCurrency)
        return [400, stripeError("invalid_request_error", `Invalid line_items[${index}].`, `line_items[${index}]`)];
      if (currency && itemCurrency !== currency)
        return [400, stripeError("invalid_request_error", "All line items must have the same currency.", "line_items")];
      currency = itemCurrency;
      items.push({ name, unitAmount, quantity });
    }
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
      collected_information: null,
      shipping_address_collection: allowed.length > 0 ? { allowed_countries: allowed } : null,
      shipping_cost: rate ? { amount_subtotal: shipping, amount_total: shipping } : null,
      expires_at: Number(params.expires_at) || now() + 24 * 3600,
      livemode: false,
      metadata: Object.fromEntries(Object.entries(record(params.metadata)).map(([key, value]) => [key, String(value)])),
      mode: "payment",
      payment_intent: null,
      payment_status: "unpaid",
      status: "open",
      success_url: successUrl,
      url: `${origin}/pay/${sessionId}`,
    };
    sessions.set(sessionId, session);
    lineItems.set(sessionId, items);
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

  /** The hosted payment page: a card form; a test card that pays completes the session and returns to the shop. */
  async function payPage(request: IncomingMessage, sessionId: string, body: string, response: ServerResponse) {
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
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) problem = "Your email address is incomplete.";
      else if (allowed && !shipTo) problem = "Your shipping address is incomplete.";
      else if (allowed && shipTo && !allowed.includes(shipTo.address.country)) problem = "We cannot ship to this country.";
      else if (declines[card]) problem = declines[card]!;
      else if (card !== testCards.pays) problem = "Your card number is invalid.";
      else {
        Object.assign(session, {
          status: "complete",
          payment_status: "paid",
          payment_intent: id("pi"),
          customer_details: { email, address: { country: /^[A-Z]{2}$/.test(typed.country ?? "") ? typed.country : null } },
          collected_information: { shipping_details: shipTo },
          url: null,
        });
        charges.set(session.payment_intent!, {
          id: id("ch"),
          object: "charge",
          amount: session.amount_total,
          amount_refunded: 0,
          currency: session.currency,
          payment_intent: session.payment_intent!,
          refunded: false,
        });
        send("checkout.session.completed", session);
        response.writeHead(303, { Location: session.success_url.replaceAll("{CHECKOUT_SESSION_ID}", session.id) }).end();
        return;
      }
    }
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
      `<ul>${rows}</ul><p>Total <b>${money(session.amount_total)}</b></p>
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
<p><button type="submit">Pay ${money(session.amount_total)}</button></p>
</form>
${session.cancel_url ? `<p><a href="${escape(session.cancel_url)}">Back to the shop</a></p>` : ""}`,
    );
  }

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const path = new URL(request.url ?? "/", "http://stand-in").pathname;
      const pay = /^\/pay\/([^/]+)$/.exec(path);
      if (pay) {
        void payPage(request, pay[1]!, body, response);
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
      void api(request, path, body).then(([status, answer]) => {
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
    sessions,
    refunds,
    events,
    async delivered() {
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
    },
    async close() {
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

function stripeError(type: string, message: string, param?: string) {
  return { error: { type, message, ...(param ? { param } : {}) } };
}

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

const countries: [code: string, name: string][] = [
  ["US", "United States"],
  ["GB", "United Kingdom"],
  ["DE", "Germany"],
  ["FR", "France"],
  ["NL", "Netherlands"],
  ["IE", "Ireland"],
  ["CA", "Canada"],
  ["AU", "Australia"],
  ["JP", "Japan"],
];
