import { asRole, claimsFromRequest, HttpError, type Stack } from "../context.ts";
import { schemaVersionSql } from "../schema-cache.ts";
import { apiError, databaseErrorResponse, isDatabaseError, type RestRequest, unsupported } from "./responses.ts";
import { callFunction } from "./routines.ts";
import { queryRelation } from "./tables.ts";

// The part of PostgREST that this product's postgrest-js calls use (README.md lists it); anything else
// is refused as unsupported rather than approximated. Every request is one transaction run as the
// caller's role, so row-level security decides what it sees and changes. Responses are built as JSON by
// Postgres itself (json_agg over the selected rows), so values have exactly PostgREST's shapes.

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
  if (req.headers.has("range")) throw unsupported("The Range header (postgrest-js pages with limit and offset)");

  const prefer = parsePrefer(req.headers.get("prefer"));
  const bodyText = readOnly ? undefined : await req.text();
  const request: RestRequest = {
    method,
    schema,
    params: new URL(req.url).searchParams,
    returnRepresentation: prefer.get("return") === "representation",
    returnMinimal: prefer.get("return") === "minimal",
    count: prefer.has("count"),
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
        return path.startsWith("rpc/") ? callFunction(tx, cache, request, path.slice(4)) : queryRelation(tx, cache, request, path);
      },
      { readOnly, method, headers: req.headers, also: stack.schema.enabled ? schemaVersionSql : undefined },
    );
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (isDatabaseError(error)) return databaseErrorResponse(error, claims);
    throw error;
  }
}

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

/** return=representation|minimal and count=… (counted exactly); upserts, tx=rollback and the rest are refused. */
function parsePrefer(header: string | null): Map<string, string> {
  const prefer = new Map<string, string>();
  for (const part of (header ?? "").split(",")) {
    const [key, value = ""] = part
      .trim()
      .split("=")
      .map((text) => text.trim());
    if (!key) continue;
    if (key === "count" || (key === "return" && (value === "representation" || value === "minimal"))) prefer.set(key, value);
    else throw unsupported(`Prefer: ${key}=${value}`);
  }
  return prefer;
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, "PGRST102", "Empty or invalid json");
  }
}
