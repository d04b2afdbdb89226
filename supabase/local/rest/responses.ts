import { buffered, HttpError, type Claims } from "../context.ts";

// The request as read, responses and errors

export type RestRequest = {
  method: string;
  schema: string;
  params: URLSearchParams;
  /** Prefer: return (representation or minimal) and count, the only preferences the product sends */
  returnRepresentation: boolean;
  returnMinimal: boolean;
  count: boolean;
  singleObject: boolean;
  /** parsed to see its shape and keys; the text itself goes to Postgres, so no number loses precision */
  body: unknown;
  bodyText: string | undefined;
};

export function respond(status: number, body: string | null, request: RestRequest, headers: Headers): Response {
  if (body === null) return new Response(null, { status, headers });
  headers.set(
    "content-type",
    request.singleObject ? "application/vnd.pgrst.object+json; charset=utf-8" : "application/json; charset=utf-8",
  );
  // HEAD, and postgrest-js's head calls to functions with object arguments (POST, return=minimal)
  const bodiless = request.method === "HEAD" || request.returnMinimal;
  return bodiless ? new Response(null, { status, headers }) : buffered(body, { status, headers });
}

export function apiError(
  status: number,
  code: string,
  message: string,
  extra: { details?: unknown; hint?: string | null; headers?: Record<string, string> } = {},
): HttpError {
  return new HttpError(status, { code, details: extra.details ?? null, hint: extra.hint ?? null, message }, extra.headers);
}

/** A PostgREST feature the product never uses: refused plainly rather than approximated. */
export function unsupported(feature: string): HttpError {
  return apiError(400, "PGRST127", `${feature} is not supported by the local stack`, {
    hint: "The local stack implements the part of PostgREST this product calls (supabase/local/README.md).",
  });
}

export function singularityError(rows: number): HttpError {
  return apiError(406, "PGRST116", "Cannot coerce the result to a single JSON object", {
    details: `The result contains ${rows} rows`,
  });
}

type DatabaseError = Error & { code: string; detail?: string; hint?: string };

export function isDatabaseError(error: unknown): error is DatabaseError {
  const code: unknown = error instanceof Error ? (error as Partial<DatabaseError>).code : undefined;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
}

/** Postgres's error as PostgREST reports it: its code, message, detail and hint, with PostgREST's status. */
export function databaseErrorResponse(error: DatabaseError, claims: Claims): Response {
  const authed = claims.role !== "anon";
  const body = { code: error.code, details: error.detail ?? null, hint: error.hint ?? null, message: error.message };
  const status = httpStatus(error.code, error.message, authed);
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (status === 401) headers["www-authenticate"] = "Bearer";
  return buffered(JSON.stringify(body), { status, headers });
}

// PostgREST's mapping from SQLSTATE to HTTP status (src/PostgREST/Error.hs, mapSQLtoHTTP).
function httpStatus(code: string, message: string, authed: boolean): number {
  const exact: Record<string, number> = {
    "23503": 409,
    "23505": 409,
    "25006": 405,
    "53400": 500,
    "57P01": 503,
    P0001: 400,
    "42883": 404,
    "42P01": 404,
    "42P17": 500,
  };
  if (code === "42501") return authed ? 403 : 401;
  if (code === "21000") return message.endsWith("requires a WHERE clause") ? 400 : 500;
  if (code === "22023") return message.startsWith("role") && message.endsWith("does not exist") ? 401 : 400;
  if (code in exact) return exact[code];
  if (code.startsWith("PT")) {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 ? status : 500;
  }
  const byClass: Record<string, number> = {
    "08": 503,
    "09": 500,
    "0L": 403,
    "0P": 403,
    "25": 500,
    "28": 403,
    "2D": 500,
    "38": 500,
    "39": 500,
    "3B": 500,
    "40": 500,
    "53": 503,
    "54": 500,
    "55": 500,
    "57": 500,
    "58": 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}
