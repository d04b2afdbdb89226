import { mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { pipeline } from "node:stream/promises";
import * as auth from "./auth/handler.ts";
import { localDefaults, projectRecoveryTemplate, type StackConfig } from "./config.ts";
import { bufferedBody, HttpError, json, TokenCache, type Stack } from "./context.ts";
import { openDb } from "./db.ts";
import * as functions from "./functions.ts";
import { migrate } from "./migrate.ts";
import * as realtime from "./realtime.ts";
import * as rest from "./rest/handler.ts";
import { SchemaCache } from "./schema-cache.ts";
import { seedMedia } from "./seed-media.ts";
import * as storage from "./storage/handler.ts";

// `@crate/local-supabase`: one HTTP server in front of every service, routed by the same prefixes as
// Supabase's API gateway, and what the scripts need beside it (the defaults, an empty migrated database).

export { localDefaults } from "./config.ts";
export { openDb, type Db } from "./db.ts";
export { migrate } from "./migrate.ts";

type Service = { handle(req: Request, stack: Stack, subpath: string): Promise<Response> };
const services: Record<string, Service> = { auth, rest, storage, realtime, functions };

export const repoDataDir = join(import.meta.dirname, "..", "..", ".data");

export type LocalStack = { url: string; anonKey: string; serviceRoleKey: string; stack: Stack; close(): Promise<void> };

export async function startLocalStack(
  opts: {
    /** 0 picks a free port */
    port?: number;
    /** files (database, storage) live here; null or memory: true keeps everything in memory */
    dataDir?: string | null;
    databaseUrl?: string;
    memory?: boolean;
    /** run supabase/seed.sql on a fresh database (default true) */
    seed?: boolean;
    /** generate demo audio and artwork after a fresh seed (default true) */
    seedMedia?: boolean;
    /** in memory: start from this database (a PGlite `snapshot()`) and apply only what it lacks */
    snapshot?: Blob;
    /** let services print what a developer needs to see, e.g. outbox links */
    verbose?: boolean;
    /** the app's origin: auth redirects (password reset links) may go there */
    siteUrl?: string;
    /** /token requests allowed per client address per five minutes (GoTrue's default 150) */
    tokenRateLimit?: { perFiveMinutes: number };
    /** sign-ups per address per five minutes (30) and reset emails per address per hour (30) */
    signUpRateLimit?: { perFiveMinutes: number };
    recoveryRateLimit?: { perHour: number };
    /** the secret a proxy sends in X-Forwarded-Secret for its X-Forwarded-For to be believed */
    forwardedSecret?: string;
    /** Turnstile's secret: Auth then asks a captcha token of sign-in, sign-up and recovery (GoTrue's captcha) */
    captchaSecret?: string;
  } = {},
): Promise<LocalStack> {
  const memory = opts.memory === true || opts.dataDir === null;
  const dataDir = memory ? null : (opts.dataDir ?? repoDataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const db = await openDb({
    databaseUrl: opts.databaseUrl,
    dataDir: dataDir ? join(dataDir, "db") : undefined,
    memory: dataDir === null,
    snapshot: opts.snapshot,
  });
  const { seeded } = await migrate(db, { seed: opts.seed ?? true }).catch(async (error) => {
    await db.close();
    throw error;
  });

  const config: StackConfig = {
    ...localDefaults,
    port: 0,
    publicUrl: "",
    verbose: opts.verbose ?? false,
    siteUrl: opts.siteUrl ?? localDefaults.siteUrl,
    redirectAllowList: opts.siteUrl ? [...localDefaults.redirectAllowList, `${opts.siteUrl}/**`] : localDefaults.redirectAllowList,
    tokenRateLimit: opts.tokenRateLimit,
    signUpRateLimit: opts.signUpRateLimit,
    recoveryRateLimit: opts.recoveryRateLimit,
    forwardedSecret: opts.forwardedSecret,
    captchaSecret: opts.captchaSecret,
    // as `supabase start` reads the templates supabase/config.toml names
    recoveryTemplate: projectRecoveryTemplate,
  };
  const schema = new SchemaCache();
  await schema.install(db).catch(async (error) => {
    await db.close();
    throw error;
  });
  const stack: Stack = { db, config, dataDir, outbox: { messages: [] }, schema, tokens: new TokenCache() };

  const server = createServer((req, res) => {
    serve(req, res, stack).catch((error) => {
      // services answer their own errors; this is a broken request or a client gone mid-response
      if (!res.headersSent) res.writeHead(400).end();
      else res.destroy(error);
    });
  });
  const realtimeServer = realtime.attachRealtime(server, stack);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? localDefaults.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  }).catch(async (error) => {
    await realtimeServer.close();
    await db.close();
    throw error;
  });
  config.port = (server.address() as AddressInfo).port;
  config.publicUrl = `http://127.0.0.1:${config.port}`;

  const close = async () => {
    await functions.stopFunctions(stack);
    await realtimeServer.close();
    server.closeAllConnections();
    storage.closeResumable(stack);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await db.close();
  };

  if (seeded && opts.seedMedia !== false) {
    await seedMedia(stack, config.publicUrl).catch(async (error) => {
      await close();
      throw error;
    });
  }

  return { url: config.publicUrl, anonKey: config.anonKey, serviceRoleKey: config.serviceRoleKey, stack, close };
}

async function serve(req: IncomingMessage, res: ServerResponse, stack: Stack): Promise<void> {
  const url = new URL(req.url ?? "/", stack.config.publicUrl);
  let request: Request;
  try {
    request = await toWebRequest(req, url);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // Refused before it was read: the connection closes rather than take the rest of the body.
    res.writeHead(error.status, { "content-type": "application/json", connection: "close" }).end(JSON.stringify(error.body));
    return;
  }
  const response = request.method === "OPTIONS" ? preflight(request) : await route(request, url.pathname, stack);
  withCors(response.headers, request);
  res.statusCode = response.status;
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body || request.method === "HEAD") {
    res.end();
    return;
  }
  // JSON and other bodies built in memory go out in one write; streams (file downloads, Range, Edge
  // Functions) are piped, so a large file is never held in memory and a client gone mid-way stops it.
  const body = bufferedBody(response);
  if (body !== undefined) {
    res.end(body);
    return;
  }
  await pipeline(Readable.fromWeb(response.body as ReadableStream), res);
}

const prefix = /^\/(auth|rest|storage|realtime|functions)\/v1(\/.*)?$/;

async function route(request: Request, pathname: string, stack: Stack): Promise<Response> {
  // The subpath stays percent-encoded, as in URL.pathname; each service decodes what it reads.
  const match = prefix.exec(pathname);
  if (!match) return json({ message: "no Route matched with those values" }, 404);
  try {
    return await services[match[1]].handle(request, stack, match[2] ?? "/");
  } catch (error) {
    if (error instanceof HttpError) return json(error.body, error.status, error.headers);
    console.error(`${request.method} ${request.url}:`, error);
    return json({ message: error instanceof Error ? error.message : String(error) }, 500);
  }
}

/** The largest body read into memory: requests other than uploads carry JSON. */
const bufferedBodyLimit = 10 * 1024 * 1024;

async function toWebRequest(req: IncomingMessage, url: URL): Promise<Request> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  // The socket's address, for per-client limits; never what the client claims in this header.
  headers.set("x-local-client-ip", req.socket.remoteAddress ?? "local");
  const method = req.method ?? "GET";
  // A resumable upload's chunk is read as it arrives, so the bytes before a dropped connection are kept;
  // a plain upload's body is read by Storage only once the caller may write it (storage/uploads.ts).
  const streamed =
    url.pathname.startsWith(storage.resumablePath) ||
    (url.pathname.startsWith("/storage/v1/object/") && (method === "POST" || method === "PUT"));
  if (streamed && method !== "GET" && method !== "HEAD") {
    // Node needs `duplex` for a streamed body; the DOM typings do not list it.
    const streamed: RequestInit & { duplex: "half" } = {
      method,
      headers,
      body: Readable.toWeb(req) as globalThis.ReadableStream,
      duplex: "half",
    };
    return new Request(url, streamed);
  }
  // Anything else is small (JSON for Auth, REST and functions): a body past the cap is refused, never held.
  if (Number(req.headers["content-length"] ?? 0) > bufferedBodyLimit)
    throw new HttpError(413, { statusCode: "413", error: "Payload too large", message: "The request body is too large" });
  const chunks: Buffer[] = [];
  let size = 0;
  if (method !== "GET" && method !== "HEAD") {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > bufferedBodyLimit)
        throw new HttpError(413, { statusCode: "413", error: "Payload too large", message: "The request body is too large" });
      chunks.push(chunk);
    }
  }
  return new Request(url, {
    method,
    headers,
    body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
  });
}

// CORS as Supabase's gateway answers it: any origin, the headers supabase-js sends, and the response
// headers it reads (counts and ranges).
const allowHeaders = [
  "authorization",
  "apikey",
  "content-type",
  "x-client-info",
  "x-supabase-api-version",
  "prefer",
  "range",
  "accept-profile",
  "content-profile",
  "x-upsert",
  "cache-control",
  "x-retry-count",
  "x-region",
];
const exposeHeaders = [
  "Content-Range",
  "X-Total-Count",
  "Link",
  "Content-Length",
  "Accept-Ranges",
  "Content-Type",
  "X-Supabase-Api-Version",
];

function preflight(request: Request): Response {
  const requested = (request.headers.get("access-control-request-headers") ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-headers": [...new Set([...allowHeaders, ...requested])].join(", "),
      "access-control-max-age": "3600",
    },
  });
}

function withCors(headers: Headers, request: Request): void {
  // a service (an Edge Function, say) that answered CORS itself keeps its answer
  if (headers.has("access-control-allow-origin")) return;
  const origin = request.headers.get("origin");
  headers.set("access-control-allow-origin", origin ?? "*");
  if (origin) {
    headers.set("access-control-allow-credentials", "true");
    headers.append("vary", "Origin");
  }
  headers.set("access-control-expose-headers", exposeHeaders.join(", "));
}
