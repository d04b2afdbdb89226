import type { StackConfig } from "./config.ts";
import type { Db } from "./db.ts";
import { JwtError, verifyJwt } from "./jwt.ts";
import type { SchemaCache } from "./schema-cache.ts";

// What every service shares: the database, the configuration, and who the caller is.

export type Claims = {
  role: "anon" | "authenticated" | "service_role";
  sub?: string;
  email?: string;
  app_metadata?: Record<string, unknown>;
  user_metadata?: Record<string, unknown>;
  session_id?: string;
  exp?: number;
  [k: string]: unknown;
};

/** Auth emails (password reset and the like) land here instead of being sent, like Supabase's local mail catcher. */
export type Outbox = {
  messages: { to: string; subject: string; text: string; html: string; link?: string; at: string }[];
};

export type Stack = {
  db: Db;
  config: StackConfig;
  dataDir: string | null;
  outbox: Outbox;
  schema: SchemaCache;
  /** verified tokens → claims (claimsFromRequest), so a client's repeated token is not re-verified */
  tokens: TokenCache;
};

export class HttpError extends Error {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  constructor(status: number, body: unknown, headers?: Record<string, string>) {
    super(typeof body === "object" && body && "message" in body ? String(body.message) : `HTTP ${status}`);
    this.name = "HttpError";
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return buffered(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
}

// Bodies already in memory, by response: the HTTP server writes them in one call instead of reading
// the response's stream back chunk by chunk. The Response still carries the same body for anyone else.
const bodies = new WeakMap<Response, string>();

/** A Response whose body is this string, marked so the server can write it directly. */
export function buffered(body: string, init: ResponseInit): Response {
  const response = new Response(body, init);
  bodies.set(response, body);
  return response;
}

/** The in-memory body of a response made by buffered(), if its stream has not been read since. */
export function bufferedBody(response: Response): string | undefined {
  return response.bodyUsed ? undefined : bodies.get(response);
}

const roles = new Set(["anon", "authenticated", "service_role"]);

/**
 * The caller's claims, as PostgREST derives them: the Bearer token, else the `apikey` header (which is
 * itself a JWT: the anon or service-role key), else the anonymous role.
 */
export function claimsFromRequest(req: Request, stack: Pick<Stack, "config" | "tokens">): Claims {
  const authorization = req.headers.get("authorization") ?? "";
  const bearer = /^bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim();
  const token = bearer || req.headers.get("apikey");
  if (!token) return { role: "anon" };
  const cached = stack.tokens.get(token);
  if (cached) return cached;
  const claims = verifiedClaims(token, stack.config);
  stack.tokens.set(token, claims);
  return claims;
}

function verifiedClaims(token: string, config: StackConfig): Claims {
  let claims: Record<string, unknown>;
  try {
    claims = verifyJwt<Record<string, unknown>>(token, config.jwtSecret);
  } catch (error) {
    const message = error instanceof JwtError ? error.message : "JWT cannot be decoded";
    throw new HttpError(
      401,
      { code: "PGRST301", details: null, hint: null, message },
      { "www-authenticate": `Bearer error="invalid_token", error_description="${message}"` },
    );
  }
  const role = claims.role ?? "anon";
  if (typeof role !== "string" || !roles.has(role)) {
    throw new HttpError(401, {
      code: "PGRST303",
      details: null,
      hint: null,
      message: `JWT role "${String(role)}" is not one of anon, authenticated, service_role`,
    });
  }
  return Object.freeze({ ...claims, role }) as Claims;
}

/**
 * Claims of tokens that passed verifyJwt, least recently used dropped first. A token's signature and
 * claims never change, but time does: exp is checked again on every use, and an expired token is
 * dropped and verified afresh, which refuses it (nbf, once passed, stays passed). Failures are never
 * cached. The claims are frozen, as one object serves many requests.
 */
export class TokenCache {
  #max: number;
  #entries = new Map<string, Claims>();
  constructor(max = 1000) {
    this.#max = max;
  }

  get(token: string): Claims | undefined {
    const claims = this.#entries.get(token);
    if (!claims) return undefined;
    this.#entries.delete(token);
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp === "number" && claims.exp <= now) return undefined;
    this.#entries.set(token, claims);
    return claims;
  }

  set(token: string, claims: Claims): void {
    this.#entries.delete(token);
    this.#entries.set(token, claims);
    if (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  get size(): number {
    return this.#entries.size;
  }
}

/**
 * Runs fn in one transaction as the caller, exactly as PostgREST does: the role is switched and the
 * claims published for auth.uid()/auth.jwt() with transaction-local settings, so RLS decides what the
 * statements may see and change, and nothing leaks to the next request on the same connection.
 * BEGIN, READ ONLY and the settings go in one round trip, so the values are quoted into the SQL rather
 * than bound. The role switch stays a statement of its own before fn's: RLS policies and privileges are
 * applied when a statement is planned, so the role must be set by an earlier statement than fn's.
 * `also`: a select-list expression evaluated in the same statement (the schema version), handed to fn.
 *
 * Round trips on PostgreSQL: a cached read is BEGIN + settings, then its one query; a read-only
 * transaction's COMMIT is not waited for (db.ts). Merging the opening and the query would mean building
 * the query before the transaction has read the schema version that validates the cache it is built
 * from, i.e. a speculative query, retried on a version change; and the query's values are bound
 * parameters, so it cannot join the opening's multi-statement simple query. Not worth that complexity.
 */
export async function asRole<T>(
  db: Db,
  claims: Claims,
  fn: (tx: Db, also: unknown) => Promise<T>,
  opts: { readOnly?: boolean; method?: string; also?: string; headers?: Headers } = {},
): Promise<T> {
  const method = opts.method ?? (opts.readOnly ? "GET" : "POST");
  const role = quote(claims.role);
  // As PostgREST: the request's headers, names in lower case, for functions that read them.
  const headers = JSON.stringify(Object.fromEntries(opts.headers ?? []));
  // As PostgREST, the role's own settings too: its statement timeout (platform.sql), read before the switch.
  const opening = `
    select ${opts.also ?? "null"} as also,
           set_config('statement_timeout', coalesce((
             select split_part(setting, '=', 2)
             from pg_catalog.pg_db_role_setting s cross join unnest(s.setconfig) as setting
             where s.setrole = ${role}::regrole and s.setdatabase = 0 and setting like 'statement_timeout=%'
           ), current_setting('statement_timeout')), true),
           set_config('role', ${role}, true),
           set_config('request.jwt.claims', ${quote(JSON.stringify(claims))}, true),
           set_config('request.jwt.claim.sub', ${quote(String(claims.sub ?? ""))}, true),
           set_config('request.jwt.claim.role', ${role}, true), set_config('request.method', ${quote(method)}, true),
           set_config('request.headers', ${quote(headers)}, true)`;
  return db.transaction((tx, opened) => fn(tx, opened[0]?.also), { opening, readOnly: opts.readOnly });
}

/** A string constant whatever standard_conforming_strings says: E'…' with quotes and backslashes escaped. */
function quote(text: string): string {
  return `E'${text.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}
