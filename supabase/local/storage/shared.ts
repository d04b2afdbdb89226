import { asRole, claimsFromRequest, HttpError, type Claims, type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { JwtError } from "../jwt.ts";

// What the routes share: the object and bucket rows, keys, errors, the caller

// Supabase's default global upload limit (config.toml `file_size_limit = "50MiB"`); a bucket may lower it.
export const globalFileSizeLimit = 50 * 1024 * 1024;

export type Target = { bucket: string; name: string };

export type ObjectMetadata = {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
};

export type ObjectRow = {
  id: string;
  name: string;
  bucket_id: string;
  metadata: ObjectMetadata | null;
  user_metadata: unknown;
  version: string | null;
  created_at: string;
  updated_at: string;
};

export type BucketRow = {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
};

export function target(segments: string[]): Target {
  const [bucket = "", ...path] = segments;
  const name = path.join("/");
  if (!isValidKey(bucket) || !isValidKey(name)) {
    throw storageError(400, "InvalidKey", `Invalid key: ${bucket}/${name}`);
  }
  return { bucket, name };
}

// Storage's own key rule (S3-safe characters), plus no empty, `.` or `..` segments so that every key
// maps to a file inside its bucket's folder.
export function isValidKey(key: string): boolean {
  return /^[\w/!\-.*'() &$@=;:+,?]+$/.test(key) && key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

export function storageError(statusCode: number, code: string, message: string, error = code): HttpError {
  return new HttpError(statusCode >= 500 ? 500 : 400, { statusCode: String(statusCode), code, error, message });
}

export const noSuchKey = () => storageError(404, "NoSuchKey", "Object not found", "not_found");
export const noSuchBucket = () => storageError(404, "NoSuchBucket", "Bucket not found", "Bucket not found");

export function jwtMessage(error: unknown): string {
  if (error instanceof JwtError && error.expired) return "jwt expired";
  return error instanceof Error ? error.message : "invalid token";
}

// Storage refuses a bad or expired token as AccessDenied rather than PostgREST's 401.
export function caller(req: Request, stack: Stack): Claims {
  try {
    return claimsFromRequest(req, stack);
  } catch (error) {
    if (error instanceof HttpError) throw storageError(403, "AccessDenied", error.message, "Unauthorized");
    throw error;
  }
}

// Runs as the caller (its request's headers readable by policies as `request.headers`, as Supabase's
// Storage sets them) and turns the database's refusals into Storage's errors.
export async function asCaller<T>(
  stack: Stack,
  claims: Claims,
  fn: (tx: Db) => Promise<T>,
  opts: { readOnly?: boolean; headers?: Headers } = {},
): Promise<T> {
  try {
    return await asRole(stack.db, claims, fn, opts);
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: string };
    if (code === "42501") {
      const reason = message?.includes("row-level security") ? "new row violates row-level security policy" : message;
      throw storageError(403, "AccessDenied", reason ?? "Access denied", "Unauthorized");
    }
    if (code === "23505") throw storageError(409, "KeyAlreadyExists", "The resource already exists", "Duplicate");
    throw error;
  }
}

// Buckets are looked up as the service itself, as Storage does: their existence is not a secret.
export async function findBucket(db: Db, id: string): Promise<BucketRow> {
  const result = await db.query<BucketRow>("select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1", [
    id,
  ]);
  if (result.rows.length === 0) throw noSuchBucket();
  return result.rows[0];
}

export async function findObject(db: Db, { bucket, name }: Target): Promise<ObjectRow> {
  const result = await db.query<ObjectRow>(
    `select id, name, bucket_id, metadata, user_metadata, version, created_at, updated_at
     from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, name],
  );
  if (result.rows.length === 0) throw noSuchKey();
  return result.rows[0];
}

export async function jsonBody<T>(req: Request): Promise<T> {
  const body: unknown = await req.json().catch(() => null);
  if (typeof body !== "object" || body === null) throw storageError(400, "InvalidRequest", "body must be object");
  return body as T;
}
