import { createHash, randomUUID } from "node:crypto";
import { json, type Claims, type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import {
  asCaller,
  type BucketRow,
  caller,
  findBucket,
  globalFileSizeLimit,
  type ObjectMetadata,
  storageError,
  type Target,
} from "./shared.ts";
import { filesOf } from "./files.ts";

// Objects

/**
 * A plain upload. The body arrives as a stream (server.ts) and is read only once the caller may write
 * here: the bucket exists, the declared size is within its limit, and the policies let the caller write
 * this object (tried first in a transaction that is rolled back). An anonymous 300 MB POST is refused
 * before a byte of it is read; a body that runs past the limit stops being read there.
 */
export async function upload(req: Request, stack: Stack, object: Target, mode: { upsert: boolean }): Promise<Response> {
  const claims = caller(req, stack);
  const bucket = await findBucket(stack.db, object.bucket);
  const limit = Math.min(bucket.file_size_limit ?? globalFileSizeLimit, globalFileSizeLimit);
  if (Number(req.headers.get("content-length") ?? 0) > limit + multipartAllowance) throw tooLarge();
  await mayWrite(stack, claims, object, mode);
  const file = await incomingFile(req, limit + multipartAllowance);
  const id = await storeObject(stack, claims, object, file, mode);
  return json({ Id: id, Key: `${object.bucket}/${object.name}` });
}

/** A multipart body carries its boundaries and fields beside the file. */
export const multipartAllowance = 64 * 1024;

const tooLarge = () => storageError(413, "EntityTooLarge", "The object exceeded the maximum allowed size", "Payload too large");

/** Whether the policies let the caller write this object: the row is written and rolled back. */
export async function mayWrite(stack: Stack, claims: Claims, { bucket, name }: Target, mode: { upsert: boolean }) {
  const trial = Symbol("trial");
  const owner = typeof claims.sub === "string" ? claims.sub : null;
  const values = [bucket, name, owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null, owner, {}, null];
  await asCaller(stack, claims, async (tx) => {
    await saveObjectRow(tx, mode, values);
    throw trial;
  }).catch((error: unknown) => {
    if (error !== trial) throw error;
  });
}

/** The body's bytes, refused once they run past `limit`. */
async function bodyBytes(req: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body?.getReader();
  if (!reader) return new Uint8Array();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

export type IncomingFile = { bytes: Uint8Array<ArrayBuffer>; mimetype: string; cacheControl: string; userMetadata: unknown };

/** Saves a whole file as the caller: a plain upload, or the last chunk of a resumable one. */
export async function storeObject(
  stack: Stack,
  claims: Claims,
  { bucket: bucketId, name }: Target,
  file: IncomingFile,
  mode: { upsert: boolean },
): Promise<string> {
  const bucket = await findBucket(stack.db, bucketId);
  const metadata: ObjectMetadata = {
    eTag: `"${createHash("md5").update(file.bytes).digest("hex")}"`,
    size: file.bytes.length,
    // What the bucket's limits checked, nothing more: 'image/png;text/html' is kept as image/png.
    mimetype: mediaType(file.mimetype),
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: file.bytes.length,
    httpStatusCode: 200,
  };
  const owner = typeof claims.sub === "string" ? claims.sub : null;
  const ownerUuid = owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null;
  const values = [bucketId, name, ownerUuid, owner, metadata, file.userMetadata];

  return asCaller(stack, claims, async (tx) => {
    // The policies decide first, as on Supabase, then the bucket's limits; only then are bytes written.
    const id = await saveObjectRow(tx, mode, values);
    checkLimits(bucket, file.mimetype, file.bytes.length);
    await filesOf(stack).write(bucketId, name, file.bytes);
    return id;
  });
}

// Values: bucket, name, owner (uuid), owner_id (text), metadata, user_metadata. A plain upload needs only
// the insert policy (hence no RETURNING, which would need select too); an upsert needs insert, select and
// update.
export async function saveObjectRow(tx: Db, mode: { upsert: boolean }, values: unknown[]): Promise<string> {
  if (mode.upsert) {
    const upserted = await tx.query<{ id: string }>(
      `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata)
       values ($1, $2, $3, $4, $5, $6)
       on conflict (bucket_id, name) do update
         set owner = excluded.owner, owner_id = excluded.owner_id, metadata = excluded.metadata,
             user_metadata = excluded.user_metadata, updated_at = now(), last_accessed_at = now()
       returning id`,
      values,
    );
    return upserted.rows[0].id;
  }
  const id = randomUUID();
  await tx.query(
    `insert into storage.objects (id, bucket_id, name, owner, owner_id, metadata, user_metadata)
     values ($7, $1, $2, $3, $4, $5, $6)`,
    [...values, id],
  );
  return id;
}

// storage-js sends either the raw bytes (Content-Type and Cache-Control headers) or multipart form data
// (a `cacheControl` field and the file as a part with an empty field name).
export async function incomingFile(req: Request, limit: number): Promise<IncomingFile> {
  const contentType = req.headers.get("content-type") ?? "";
  const body = await bodyBytes(req, limit);
  if (!contentType.startsWith("multipart/form-data")) {
    return {
      bytes: body,
      mimetype: contentType || "application/octet-stream",
      cacheControl: req.headers.get("cache-control") ?? "no-cache",
      userMetadata: decodeMetadata(req.headers.get("x-metadata"), "base64"),
    };
  }
  const form = await new Response(body, { headers: { "content-type": contentType } }).formData().catch(() => {
    throw storageError(400, "InvalidRequest", "Unexpected empty file received");
  });
  const file = [...form.values()].find((value) => typeof value !== "string");
  if (!file) throw storageError(400, "InvalidRequest", "No file provided");
  const cacheTime = form.get("cacheControl");
  const declaredType = form.get("contentType");
  return {
    bytes: new Uint8Array(await file.arrayBuffer()),
    mimetype: (typeof declaredType === "string" && declaredType) || file.type || "application/octet-stream",
    cacheControl: typeof cacheTime === "string" && cacheTime ? `max-age=${cacheTime}` : "no-cache",
    userMetadata: decodeMetadata(form.get("metadata"), "utf8"),
  };
}

function decodeMetadata(value: unknown, encoding: "base64" | "utf8"): unknown {
  if (typeof value !== "string" || !value) return null;
  try {
    return JSON.parse(Buffer.from(value, encoding).toString("utf8"));
  } catch {
    throw storageError(400, "InvalidRequest", "Invalid metadata");
  }
}

// The bucket's limits apply to the declared type (header, part type or contentType field), never to
// the bytes, as on Supabase. Wildcards like `audio/*` match a whole type.
export function checkLimits(bucket: BucketRow, mimetype: string, size: number): void {
  const allowed = bucket.allowed_mime_types ?? [];
  if (allowed.length > 0 && !allowed.some((pattern) => mimeMatches(pattern, mimetype))) {
    throw storageError(415, "InvalidMimeType", `mime type ${mimetype} is not supported`, "invalid_mime_type");
  }
  const limit = Math.min(bucket.file_size_limit ?? globalFileSizeLimit, globalFileSizeLimit);
  if (size > limit) {
    throw tooLarge();
  }
}

/** A type's `type/subtype` without its parameters, or application/octet-stream when it is not one. */
export function mediaType(mimetype: string): string {
  const bare = mimetype.split(";")[0].trim().toLowerCase();
  return /^[a-z0-9][\w.+-]*\/[a-z0-9][\w.+-]*$/.test(bare) ? bare : "application/octet-stream";
}

function mimeMatches(pattern: string, mimetype: string): boolean {
  // Parameters such as `;charset=UTF-8` do not change what a file is.
  const [type, subtype] = mediaType(mimetype).split("/");
  const [allowedType, allowedSubtype] = pattern.trim().toLowerCase().split("/");
  return Boolean(subtype) && allowedType === type && (allowedSubtype === "*" || allowedSubtype === subtype);
}
