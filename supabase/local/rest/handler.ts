import { asRole, claimsFromRequest, HttpError, type Stack } from "../context.ts";
import { schemaVersionSql } from "../schema-cache.ts";
import { apiError, databaseErrorResponse, isDatabaseError } from "./responses.ts";
import { callFunction } from "./routines.ts";
import { queryRelation } from "./tables.ts";

// The PostgREST subset that postgrest-js uses. Every request is one transaction run as the caller's
// role, so row-level security decides what it sees and changes. Responses are built as JSON by
// Postgres itself (json_agg over the selected rows), so values have exactly PostgREST's shapes.
// Identifiers are always quoted and values always bound as parameters.

const exposedSchemas = ["public"];

export async function handle(req: Request, stack: Stack, subpath: string): Promise<Response> {
  const claims = claimsFromRequest(req, stack);
  const method = req.method;
  if (!["GET", "HEAD", "POST", "PATCH", "DELETE"].includes(method)) {
    throw apiError(405, "PGRST117", `Unsupported HTTP method: ${method}`);
  }
  const readOnly = method === "GET" || method === "HEAD";
  const schema = requestedSchema(req, readOnly);
  const path = decodePath(subpath.replace(/^\/+|\/+$/g, ""));
  if (path === "") throw apiError(404, "PGRST126", "Root endpoint metadata is disabled");

  const url = new URL(req.url);
  const bodyText = readOnly ? undefined : await req.text();
  const request: RestRequest = {
    method,
    schema,
    params: url.searchParams,
    prefer: parsePrefer(req.headers.get("prefer")),
    range: parseRangeHeader(req.headers.get("range")),
    singleObject: (req.headers.get("accept") ?? "").includes("application/vnd.pgrst.object+json"),
    body: parseBody(bodyText),
    bodyText,
  };
  try {
    return await asRole(
      stack.db,
      claims,
      async (tx, version) => {
        const cache = stack.schema.at(version);
        const response = path.startsWith("rpc/")
          ? await callFunction(tx, cache, request, path.slice(4))
          : await queryRelation(tx, cache, request, path);
        // tx=rollback: the caller gets the answer, the database keeps nothing
        if (request.prefer.get("tx") === "rollback") throw new Rollback(response);
        return response;
      },
      { readOnly, method, headers: req.headers, also: stack.schema.enabled ? schemaVersionSql : undefined },
    );
  } catch (error) {
    if (error instanceof Rollback) return error.response;
    if (error instanceof HttpError) throw error;
    if (isDatabaseError(error)) return databaseErrorResponse(error, claims);
    throw error;
  }
}

class Rollback extends Error {
  response: Response;
  constructor(response: Response) {
    super("rollback");
    this.response = response;
  }
}

// The request

export type RestRequest = {
  method: string;
  schema: string;
  params: URLSearchParams;
  prefer: Map<string, string>;
  range: { offset: number; limit?: number } | null;
  singleObject: boolean;
  /** parsed to see its shape and keys; the text itself goes to Postgres, so no number loses precision */
  body: unknown;
  bodyText: string | undefined;
};

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw apiError(404, "PGRST125", "Invalid path specified in request URL");
  }
}

function requestedSchema(req: Request, readOnly: boolean): string {
  const schema = req.headers.get(readOnly ? "accept-profile" : "content-profile") ?? "public";
  if (!exposedSchemas.includes(schema)) {
    throw apiError(406, "PGRST106", `Invalid schema: ${schema}`, {
      hint: `Only the following schemas are exposed: ${exposedSchemas.join(", ")}`,
    });
  }
  return schema;
}

function parsePrefer(header: string | null): Map<string, string> {
  const prefer = new Map<string, string>();
  for (const part of (header ?? "").split(",")) {
    const [key, value = ""] = part.trim().split("=");
    if (key) prefer.set(key.trim(), value.trim());
  }
  return prefer;
}

function parseRangeHeader(header: string | null): RestRequest["range"] {
  const match = /^\s*(\d+)-(\d*)\s*$/.exec(header ?? "");
  if (!match) return null;
  const offset = Number(match[1]);
  return { offset, limit: match[2] ? Math.max(0, Number(match[2]) - offset + 1) : undefined };
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, "PGRST102", "Empty or invalid json");
  }
}
