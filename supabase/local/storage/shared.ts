import { asRole, claimsFromRequest, HttpError, type Claims, type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { JwtError } from "../jwt.ts";
import type { BucketRow, ObjectRow, Target } from "./uploads.ts";

// Shared pieces

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

// Runs as the caller and turns the database's refusals into Storage's errors.
export async function asCaller<T>(stack: Stack, claims: Claims, fn: (tx: Db) => Promise<T>, opts: { readOnly?: boolean } = {}): Promise<T> {
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
