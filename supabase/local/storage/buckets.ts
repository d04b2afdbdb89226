import { json, type Claims, type Stack } from "../context.ts";
import { asCaller, caller, jsonBody, noSuchBucket, storageError } from "./shared.ts";
import { isValidKey } from "./uploads.ts";

// Buckets (what the dashboard and admin scripts use; only the service role passes their policies)

export async function bucketRoute(req: Request, stack: Stack, method: string, segments: string[]): Promise<Response> {
  const claims = caller(req, stack);
  if (method === "GET" && segments.length === 0) return listBuckets(stack, claims);
  if (method === "GET" && segments.length === 1) return getBucket(stack, claims, segments[0]);
  if (method === "POST" && segments.length === 0) return createBucket(req, stack, claims);
  throw storageError(404, "NotFound", `Route ${method}:/bucket/${segments.join("/")} not found`, "Not Found");
}

const bucketColumns = "id, name, owner, owner_id, public, file_size_limit, allowed_mime_types, created_at, updated_at";

async function listBuckets(stack: Stack, claims: Claims): Promise<Response> {
  const sql = `select ${bucketColumns} from storage.buckets order by name`;
  const buckets = await asCaller(stack, claims, (tx) => tx.query(sql), { readOnly: true });
  return json(buckets.rows);
}

async function getBucket(stack: Stack, claims: Claims, id: string): Promise<Response> {
  const sql = `select ${bucketColumns} from storage.buckets where id = $1`;
  const bucket = await asCaller(stack, claims, (tx) => tx.query(sql, [id]), { readOnly: true });
  if (bucket.rows.length === 0) throw noSuchBucket();
  return json(bucket.rows[0]);
}

async function createBucket(req: Request, stack: Stack, claims: Claims): Promise<Response> {
  const body = await jsonBody<{
    id?: unknown;
    name?: unknown;
    public?: unknown;
    file_size_limit?: unknown;
    allowed_mime_types?: unknown;
  }>(req);
  const name = typeof body.name === "string" ? body.name : "";
  const id = typeof body.id === "string" ? body.id : name;
  if (!isValidKey(id) || id.includes("/")) {
    throw storageError(400, "InvalidBucketName", "Bucket name invalid", "Invalid Input");
  }
  const existing = await stack.db.query("select 1 from storage.buckets where id = $1", [id]);
  if (existing.rows.length > 0) throw storageError(409, "BucketAlreadyExists", "The resource already exists", "Duplicate");
  const mimeTypes = Array.isArray(body.allowed_mime_types) ? body.allowed_mime_types : null;
  await asCaller(stack, claims, (tx) =>
    tx.query(
      `insert into storage.buckets (id, name, owner_id, public, file_size_limit, allowed_mime_types)
       values ($1, $2, $3, $4, $5, $6)`,
      [id, name || id, claims.sub ?? null, body.public === true, sizeLimit(body.file_size_limit), mimeTypes],
    ),
  );
  return json({ name: id });
}

// A bucket limit is bytes, or a size such as "50MB" as the dashboard writes it.
function sizeLimit(value: unknown): number | null {
  if (typeof value === "number") return value;
  const match = typeof value === "string" ? /^(\d+)\s*(B|KB|MB|GB)?$/i.exec(value.trim()) : null;
  if (!match) return null;
  const unit = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 }[(match[2] ?? "B").toUpperCase() as "B"];
  return Number(match[1]) * unit;
}
