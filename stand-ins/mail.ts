// A stand-in for the part of Resend's email API the marketplace uses, so `npm start` and the tests send no
// mail: `POST /emails` (once per `Idempotency-Key`, as Resend replays the first answer for 24 hours),
// `GET /emails/{id}` and `GET /emails` (the list, newest first). What it is sent is kept in an outbox, a
// page for a developer at `/` and the list for tests; `POST /_failures` (its own, for tests) makes the next
// sends fail as a provider that is down does, and `GET /_limited` (its own) names whom the sends refused
// for the rate limit were to. Sends are held to Resend's rate limit (below). The Worker
// reaches it with the same fetch that reaches Resend on hosted (MAIL_API_URL points it here).
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type SentMail = {
  object: "email";
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string | null;
  headers: Record<string, string>;
  /** Resend's tags (`name` and `value`), as the sender gave them. */
  tags: { name: string; value: string }[];
  created_at: string;
};

export type MailStandIn = {
  url: string;
  apiKey: string;
  /** Every mail taken, oldest first. */
  messages: readonly SentMail[];
  close(): Promise<void>;
};

/** Resend's limit on recipients of one message. */
const mostRecipients = 50;

/**
 * Resend's rate limit: "The default maximum rate limit is 2 requests per second per team. This limit applies
 * across all API keys associated with your team. [...] After that, you'll hit the rate limit and receive a
 * 429 response error code", with the headers `ratelimit-limit`, `ratelimit-remaining`, `ratelimit-reset`
 * ("How many seconds until the limits are reset") and `retry-after` ("How many seconds you should wait
 * before making a follow-up request") (https://resend.com/docs/api-reference/rate-limit); the error is
 * `rate_limit_exceeded` (https://resend.com/docs/api-reference/errors). Held here over a rolling second, for
 * sends alone: Resend counts every request, but a test reading the outbox must not take the Worker's share.
 */
const rateWindowMs = 1000;

export async function startMailStandIn({
  port = 0,
  apiKey,
  requestsPerSecond = 2,
  verbose = false,
}: {
  port?: number;
  apiKey: string;
  /** The team's rate limit (Resend's default, 2; a bench or test may raise it). */
  requestsPerSecond?: number;
  verbose?: boolean;
}): Promise<MailStandIn> {
  const messages: SentMail[] = [];
  const limited: string[] = [];
  /** When each send within the last second was taken. */
  let recentSends: number[] = [];
  const idempotent = new Map<string, { body: string; answer: [number, unknown] }>();
  let failures = 0;

  function send(body: string): [number, unknown] {
    let params: Record<string, unknown>;
    try {
      params = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return [400, resendError(400, "invalid_parameter", "The body is not valid JSON.")];
    }
    const to = typeof params.to === "string" ? [params.to] : params.to;
    if (typeof params.from !== "string" || !params.from.includes("@"))
      return [422, resendError(422, "validation_error", "Invalid `from` field.")];
    if (
      !Array.isArray(to) ||
      to.length === 0 ||
      to.length > mostRecipients ||
      !to.every((r) => typeof r === "string" && /^[^@\s]+@[^@\s]+$/.test(r))
    )
      return [422, resendError(422, "validation_error", "Invalid `to` field.")];
    if (typeof params.subject !== "string" || params.subject === "")
      return [422, resendError(422, "validation_error", "Missing `subject` field.")];
    if (typeof params.html !== "string" && typeof params.text !== "string")
      return [422, resendError(422, "validation_error", "Missing `html` or `text` field.")];
    const headers = params.headers && typeof params.headers === "object" ? (params.headers as Record<string, string>) : {};
    const tags = Array.isArray(params.tags)
      ? params.tags.flatMap((tag: unknown) =>
          tag && typeof tag === "object" && "name" in tag && "value" in tag ? [{ name: String(tag.name), value: String(tag.value) }] : [],
        )
      : [];
    const mail: SentMail = {
      object: "email",
      id: randomUUID(),
      from: params.from,
      to: to as string[],
      subject: params.subject,
      html: typeof params.html === "string" ? params.html : "",
      text: typeof params.text === "string" ? params.text : null,
      headers,
      tags,
      created_at: new Date().toISOString(),
    };
    messages.push(mail);
    if (verbose) console.log(`[mail] ${mail.subject} for ${mail.to.join(", ")}`);
    return [200, { id: mail.id }];
  }

  /** Takes a place for one send within the rate limit: the answer's `ratelimit-*` headers, and `retry-after` when there is none. */
  function rateLimit(): { headers: Record<string, string>; refused: boolean } {
    const now = Date.now();
    recentSends = recentSends.filter((at) => at > now - rateWindowMs);
    const refused = recentSends.length >= requestsPerSecond;
    if (!refused) recentSends.push(now);
    const reset = Math.max(1, Math.ceil((recentSends[0]! + rateWindowMs - now) / 1000));
    const headers = {
      "ratelimit-limit": String(requestsPerSecond),
      "ratelimit-remaining": String(requestsPerSecond - recentSends.length),
      "ratelimit-reset": String(reset),
    };
    return { headers: refused ? { ...headers, "retry-after": String(reset) } : headers, refused };
  }

  function api(request: IncomingMessage, path: string, body: string): [number, unknown, Record<string, string>?] {
    if (!request.headers.authorization) return [401, resendError(401, "missing_api_key", "Missing API key in the authorization header.")];
    if (request.headers.authorization !== `Bearer ${apiKey}`) return [403, resendError(403, "invalid_api_key", "API key is invalid.")];
    if (request.method === "POST" && path === "/emails") {
      const limit = rateLimit();
      if (limit.refused) {
        limited.push(recipientsOf(body));
        return [
          429,
          resendError(
            429,
            "rate_limit_exceeded",
            `Too many requests. You can only make ${requestsPerSecond} requests per second. See rate limit response headers for more information.`,
          ),
          limit.headers,
        ];
      }
      const [status, answer] = sendOnce(request, body);
      return [status, answer, limit.headers];
    }
    if (request.method === "GET" && path === "/emails") return [200, { object: "list", has_more: false, data: messages.toReversed() }];
    const one = /^\/emails\/([^/]+)$/.exec(path);
    if (request.method === "GET" && one) {
      const mail = messages.find((m) => m.id === one[1]);
      return mail ? [200, mail] : [404, resendError(404, "not_found", "Email not found")];
    }
    return [404, resendError(404, "not_found", "The requested endpoint does not exist.")];
  }

  /** A send within the limit: once per idempotency key, or failing while a test asked for failures. */
  function sendOnce(request: IncomingMessage, body: string): [number, unknown] {
    const key = request.headers["idempotency-key"];
    const seen = typeof key === "string" ? idempotent.get(key) : undefined;
    if (seen && seen.body !== body)
      return [409, resendError(409, "invalid_idempotent_request", "Same idempotency key used with a different request payload.")];
    if (seen) return seen.answer;
    if (failures > 0) {
      failures -= 1;
      return [500, resendError(500, "internal_server_error", "An unexpected error occurred.")];
    }
    const answer = send(body);
    if (typeof key === "string" && answer[0] === 200) idempotent.set(key, { body, answer });
    return answer;
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = new URL(request.url ?? "/", "http://stand-in").pathname;
      // The stand-in's own control, for tests (not Resend's): the next N sends fail.
      if (request.method === "POST" && path === "/_failures") {
        failures = Number(Buffer.concat(chunks).toString("utf8")) || 0;
        response.writeHead(204).end();
        return;
      }
      // Its own too: whom the sends refused for the rate limit were to, oldest first.
      if (request.method === "GET" && path === "/_limited") {
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(limited));
        return;
      }
      if (request.method === "GET" && path === "/") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
        response.end(outboxPage(messages));
        return;
      }
      const [status, answer, headers] = api(request, path, Buffer.concat(chunks).toString("utf8"));
      response.writeHead(status, { "content-type": "application/json", ...headers });
      response.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: listening } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${listening}`,
    apiKey,
    messages,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Whom a send was to, as its body names them ("" when it names nobody). */
function recipientsOf(body: string): string {
  try {
    const { to } = JSON.parse(body) as { to?: unknown };
    return Array.isArray(to) ? to.join(", ") : typeof to === "string" ? to : "";
  } catch {
    return "";
  }
}

function resendError(statusCode: number, name: string, message: string) {
  return { statusCode, name, message };
}

/** The outbox as a page, newest message first (each mail's own HTML in a sandboxed frame). */
function outboxPage(messages: readonly SentMail[]): string {
  const items = messages
    .toReversed()
    .map(
      (m) => `<article>
  <h2>${escape(m.subject)}</h2>
  <p>To <b>${escape(m.to.join(", "))}</b> from ${escape(m.from)} at <time>${escape(m.created_at)}</time></p>
  ${headerList(m)}
  <iframe sandbox title="${escape(m.subject)}" srcdoc="${escape(m.html)}"></iframe>
</article>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Local mail outbox</title>
<style>body{font:16px system-ui;max-width:48rem;margin:2rem auto;padding:0 1rem}article{border-top:1px solid #ccc;padding:1rem 0}iframe{width:100%;height:28rem;border:1px solid #ccc}dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;font-size:14px}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}</style>
<h1>Local mail outbox</h1>
${items || "<p>No messages yet.</p>"}
</html>`;
}

/**
 * A mail's headers (`List-Unsubscribe`, `List-Unsubscribe-Post`: what a mail client offers as its own
 * unsubscribe button) and tags, as a person checking a mail would want to see them.
 */
function headerList(mail: SentMail): string {
  const rows = [
    ...Object.entries(mail.headers).map(([name, value]) => [name, value] as const),
    ...mail.tags.map((tag) => [`tag ${tag.name}`, tag.value] as const),
  ];
  if (rows.length === 0) return "";
  return `<dl>${rows.map(([name, value]) => `<dt>${escape(name)}</dt><dd>${escape(value)}</dd>`).join("")}</dl>`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
