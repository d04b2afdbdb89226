// A stand-in for the part of PayPal's REST API the marketplace pays artists through, so `npm start` and the
// tests send no money: an OAuth access token (`POST /v1/oauth2/token`, client credentials over Basic auth),
// a payouts batch (`POST /v1/payments/payouts`, once per `PayPal-Request-Id`, as PayPal answers a repeated
// request with the first batch; a `sender_batch_id` used before is refused as PayPal refuses it, linking to
// the first in the error's detail) and its
// outcome (`GET /v1/payments/payouts/{payout_batch_id}`). A batch is processed at once: each item is paid,
// but for a receiver at `unregistered.example`, who has no PayPal account: `UNCLAIMED` until the claim
// window passes (PayPal's 30 days, shortened by its own setting for tests: `POST /_claim_window`), then
// `RETURNED`; and one at `locked.example`, which fails at once. What it paid is listed at `/`, a page for a
// developer, and for tests in `batches` and at `GET /_batches` (its own, not PayPal's). The Worker reaches
// it with the same fetch that reaches PayPal on hosted (PAYPAL_API_URL points it here).
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type PayoutItem = {
  payout_item_id: string;
  transaction_id: string | null;
  transaction_status: "SUCCESS" | "FAILED" | "UNCLAIMED" | "RETURNED";
  payout_batch_id: string;
  payout_item: {
    recipient_type: "EMAIL";
    amount: { value: string; currency: string };
    receiver: string;
    sender_item_id?: string;
    note?: string;
  };
  time_processed: string;
  errors?: { name: string; message: string };
};

export type PayoutBatch = {
  batch_header: {
    payout_batch_id: string;
    batch_status: "SUCCESS";
    time_created: string;
    time_completed: string;
    sender_batch_header: { sender_batch_id: string; email_subject?: string; email_message?: string };
    amount: { value: string; currency: string };
  };
  items: PayoutItem[];
};

export type PaypalStandIn = {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Every batch taken, oldest first. */
  batches: readonly PayoutBatch[];
  /**
   * Sets how long an unclaimed payout waits before PayPal returns it (PayPal's 30 days unless shortened),
   * counted from when it was processed, as `POST /_claim_window` does over HTTP.
   */
  setClaimWindow(seconds: number): void;
  /**
   * Forgets the `PayPal-Request-Id`s seen, as PayPal does once it no longer keeps a request's answer: a
   * batch sent again is then refused for its `sender_batch_id` rather than answered as the first.
   */
  forgetRequestIds(): void;
  close(): Promise<void>;
};

/** The receivers' domain with no PayPal account: their payouts wait to be claimed, then are returned. */
export const unregisteredDomain = "unregistered.example";

/** The receivers' domain whose payouts fail at once, as an account PayPal will not pay. */
export const lockedDomain = "locked.example";

// "Unclaimed: The recipient for this payout does not have a PayPal account. PayPal sent the recipient a
// sign up link to create an account. If the recipient does not create an account and claim the payout
// within 30 days, the funds will be returned to your account." (PayPal's Payouts Payment Processing,
// developer.paypal.com/docs/payouts/reference/payment-processing/; "Handle unclaimed payouts": "these
// payouts expire in 30 days, and PayPal automatically returns the money".)
const paypalClaimWindowSeconds = 30 * 86_400;

/** PayPal's currencies for payouts: two decimals but for these, which take none. */
const wholeCurrencies = new Set(["HUF", "JPY", "TWD"]);

export async function startPaypalStandIn({
  port = 0,
  clientId,
  clientSecret,
  verbose = false,
}: {
  port?: number;
  clientId: string;
  clientSecret: string;
  verbose?: boolean;
}): Promise<PaypalStandIn> {
  const batches: PayoutBatch[] = [];
  // How long an unclaimed payout waits before it is returned: PayPal's 30 days unless a test shortens it.
  let claimWindow = paypalClaimWindowSeconds;
  const tokens = new Set<string>();
  const byRequestId = new Map<string, PayoutBatch>();
  let base = "";

  function token(request: IncomingMessage, body: string): [number, unknown] {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    if (request.headers.authorization !== expected)
      return [401, { error: "invalid_client", error_description: "Client Authentication failed" }];
    if (new URLSearchParams(body).get("grant_type") !== "client_credentials")
      return [400, { error: "unsupported_grant_type", error_description: "Grant Type is NULL" }];
    const accessToken = `A21AA${randomBytes(24).toString("hex")}`;
    tokens.add(accessToken);
    return [
      200,
      {
        scope: "https://uri.paypal.com/payments/payouts",
        access_token: accessToken,
        token_type: "Bearer",
        app_id: "APP-LOCAL",
        expires_in: 32400,
        nonce: randomUUID(),
      },
    ];
  }

  function createBatch(request: IncomingMessage, body: string): [number, unknown] {
    const requestId = request.headers["paypal-request-id"];
    const repeated = typeof requestId === "string" ? byRequestId.get(requestId) : undefined;
    if (repeated) return [201, created(repeated)];
    let params: { sender_batch_header?: PayoutBatch["batch_header"]["sender_batch_header"]; items?: PayoutItem["payout_item"][] };
    try {
      params = JSON.parse(body) as typeof params;
    } catch {
      return [400, paypalError("MALFORMED_REQUEST", "Json request malformed.", [])];
    }
    const header = params.sender_batch_header;
    if (!header || typeof header.sender_batch_id !== "string" || header.sender_batch_id === "")
      return [
        400,
        paypalError("VALIDATION_ERROR", "Invalid request - see details", [
          { field: "sender_batch_header.sender_batch_id", issue: "Required field missing" },
        ]),
      ];
    const earlier = batches.find((b) => b.batch_header.sender_batch_header.sender_batch_id === header.sender_batch_id);
    // "If you specify a sender_batch_id that was used in the last 30 days, the API rejects the request with
    // an error message that shows the duplicate sender_batch_id and includes a HATEOAS link to the original
    // payout" (PayPal's Payouts API reference, sender_batch_header): the link is the error detail's, and
    // the error's own `links` is empty.
    if (earlier)
      return [
        400,
        {
          ...paypalError("USER_BUSINESS_ERROR", "User business error.", [
            {
              field: "SENDER_BATCH_ID",
              location: "body",
              issue: `Batch with given sender_batch_id already exists: ${header.sender_batch_id}`,
              link: [
                {
                  href: `${base}/v1/payments/payouts/${earlier.batch_header.payout_batch_id}`,
                  rel: "self",
                  method: "GET",
                  encType: "application/json",
                },
              ],
            },
          ]),
          links: [],
        },
      ];
    const items = params.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > 15000)
      return [400, paypalError("VALIDATION_ERROR", "Invalid request - see details", [{ field: "items", issue: "Required field missing" }])];
    for (const item of items) {
      const amount = item?.amount;
      const places = wholeCurrencies.has(amount?.currency) ? 0 : 2;
      if (
        item?.recipient_type !== "EMAIL" ||
        typeof item.receiver !== "string" ||
        !/^[^@\s]+@[^@\s]+$/.test(item.receiver) ||
        typeof amount?.currency !== "string" ||
        !/^[A-Z]{3}$/.test(amount.currency) ||
        typeof amount.value !== "string" ||
        !new RegExp(places ? `^\\d+\\.\\d{${places}}$` : "^\\d+$").test(amount.value) ||
        Number(amount.value) <= 0
      )
        return [400, paypalError("VALIDATION_ERROR", "Invalid request - see details", [{ field: "items[0]", issue: "Invalid item" }])];
    }
    const now = new Date().toISOString();
    const id = randomBytes(7).toString("hex").toUpperCase();
    const currency = items[0]!.amount.currency;
    const batch: PayoutBatch = {
      batch_header: {
        payout_batch_id: id,
        // "SUCCESS: Your payout batch was processed and completed. Check the status of each item for any
        // holds or unclaimed transactions." (PayPal's batch_status values)
        batch_status: "SUCCESS",
        time_created: now,
        time_completed: now,
        sender_batch_header: header,
        amount: {
          currency,
          value: items.reduce((sum, item) => sum + Number(item.amount.value), 0).toFixed(wholeCurrencies.has(currency) ? 0 : 2),
        },
      },
      items: items.map((item) => {
        const domain = item.receiver.toLowerCase().split("@").at(-1);
        const processed = {
          payout_item_id: randomBytes(7).toString("hex").toUpperCase(),
          transaction_id: randomBytes(9).toString("hex").toUpperCase(),
          payout_batch_id: id,
          payout_item: item,
          time_processed: now,
        };
        // No PayPal account at that address: PayPal takes the money and mails a sign-up link; the item
        // names why it waits (PayPal's item error RECEIVER_UNREGISTERED) until it is claimed or returned.
        if (domain === unregisteredDomain)
          return {
            ...processed,
            transaction_status: "UNCLAIMED",
            errors: { name: "RECEIVER_UNREGISTERED", message: "Receiver is unregistered" },
          } as const;
        // An account PayPal will not pay: the item fails and no money moves (no transaction).
        if (domain === lockedDomain)
          return {
            ...processed,
            transaction_id: null,
            transaction_status: "FAILED",
            errors: { name: "RECEIVER_ACCOUNT_LOCKED", message: "Receiver account is locked or inactive" },
          } as const;
        return { ...processed, transaction_status: "SUCCESS" } as const;
      }),
    };
    batches.push(batch);
    if (typeof requestId === "string") byRequestId.set(requestId, batch);
    if (verbose)
      console.log(`[paypal] payout ${id}: ${batch.batch_header.amount.value} ${currency} to ${items.map((i) => i.receiver).join(", ")}`);
    return [201, created(batch)];
  }

  /** Each unclaimed item whose claim window has passed, returned to the sender (measured on the stand-in's clock). */
  function returnUnclaimed(): PayoutBatch[] {
    const now = Date.now();
    for (const item of batches.flatMap((batch) => batch.items))
      if (item.transaction_status === "UNCLAIMED" && Date.parse(item.time_processed) + claimWindow * 1000 <= now)
        item.transaction_status = "RETURNED";
    return batches;
  }

  function created(batch: PayoutBatch) {
    return {
      batch_header: {
        sender_batch_header: batch.batch_header.sender_batch_header,
        payout_batch_id: batch.batch_header.payout_batch_id,
        batch_status: "PENDING",
      },
      links: [{ href: `${base}/v1/payments/payouts/${batch.batch_header.payout_batch_id}`, rel: "self", method: "GET" }],
    };
  }

  function api(request: IncomingMessage, path: string, body: string): [number, unknown] {
    if (request.method === "POST" && path === "/v1/oauth2/token") return token(request, body);
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "");
    if (!bearer || !tokens.has(bearer[1]!))
      return [401, { error: "invalid_token", error_description: "Token signature verification failed" }];
    if (request.method === "POST" && path === "/v1/payments/payouts") return createBatch(request, body);
    const one = /^\/v1\/payments\/payouts\/([^/]+)$/.exec(path);
    if (request.method === "GET" && one) {
      const batch = returnUnclaimed().find((b) => b.batch_header.payout_batch_id === one[1]);
      return batch ? [200, batch] : [404, paypalError("INVALID_RESOURCE_ID", "Requested resource ID was not found.", [])];
    }
    return [404, paypalError("NOT_FOUND", "The specified resource does not exist.", [])];
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://stand-in").pathname;
      if (request.method === "GET" && path === "/") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        response.end(payoutsPage(returnUnclaimed()));
        return;
      }
      // The stand-in's own listing, for tests (not PayPal's): every batch taken, oldest first.
      if (request.method === "GET" && path === "/_batches") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(returnUnclaimed()));
        return;
      }
      // The stand-in's own setting, for tests (not PayPal's): `{"seconds": n}`, the claim window from now on.
      if (request.method === "POST" && path === "/_claim_window") {
        const seconds = secondsOf(Buffer.concat(chunks).toString("utf8"));
        if (seconds === null) {
          response.writeHead(400, { "content-type": "application/json" });
          response.end(JSON.stringify({ error: "seconds must be a number, 0 or more" }));
          return;
        }
        claimWindow = seconds;
        response.writeHead(204);
        response.end();
        return;
      }
      const [status, answer] = api(request, path, Buffer.concat(chunks).toString("utf8"));
      response.writeHead(status, { "content-type": "application/json", "paypal-debug-id": randomBytes(6).toString("hex") });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: listening } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${listening}`;
  return {
    url: base,
    clientId,
    clientSecret,
    get batches() {
      return returnUnclaimed();
    },
    setClaimWindow: (seconds) => {
      claimWindow = seconds;
    },
    forgetRequestIds: () => byRequestId.clear(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `{"seconds": n}`'s n, a number of seconds 0 or more; null for anything else. */
function secondsOf(body: string): number | null {
  try {
    const seconds = (JSON.parse(body) as { seconds?: unknown } | null)?.seconds;
    return typeof seconds === "number" && Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
  } catch {
    return null;
  }
}

function paypalError(name: string, message: string, details: Record<string, unknown>[]) {
  return { name, message, debug_id: randomBytes(6).toString("hex"), details };
}

/** What was paid, newest first: each payout's receiver, amount and outcome. */
function payoutsPage(batches: readonly PayoutBatch[]): string {
  const rows = batches
    .toReversed()
    .flatMap((batch) =>
      batch.items.map(
        (item) =>
          `<tr><td><time>${escape(item.time_processed)}</time></td><td>${escape(item.payout_item.receiver)}</td><td>${escape(item.payout_item.amount.value)} ${escape(item.payout_item.amount.currency)}</td><td>${escape(item.transaction_status)}${item.errors ? `: ${escape(item.errors.message)}` : ""}</td><td>${escape(batch.batch_header.payout_batch_id)}</td></tr>`,
      ),
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Local PayPal payouts</title>
<style>body{font:16px system-ui;max-width:56rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ccc;padding:.4rem;text-align:left}</style>
<h1>Local PayPal payouts</h1>
${rows ? `<table><thead><tr><th>When</th><th>To</th><th>Amount</th><th>Outcome</th><th>Batch</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : "<p>No payouts yet.</p>"}
</html>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
