// Storage: the part of Supabase Storage's REST API that storage-js uses. Object bytes live on disk under
// <dataDir>/storage/<bucket>/<name> (in memory when the stack has no data dir); each object's metadata is
// a row in storage.objects, read and written as the caller so the storage policies in our migrations
// decide who may upload, download, list and remove, exactly as on Supabase.
// Errors keep Storage's shape: HTTP 400 (500 for server faults) with the real status in the body.

import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { asRole, claimsFromRequest, HttpError, json, type Claims, type Stack } from "./context.ts";
import type { Db } from "./db.ts";
import { JwtError, signJwt, verifyJwt } from "./jwt.ts";

// Supabase's default global upload limit (config.toml `file_size_limit = "50MiB"`); a bucket may lower it.
const globalFileSizeLimit = 50 * 1024 * 1024;

export async function handle(req: Request, stack: Stack, subpath: string): Promise<Response> {
  const url = new URL(req.url);
  const [resource, ...segments] = subpath.split("/").slice(1).map(decodeURIComponent);
  const method = req.method === "HEAD" ? "GET" : req.method;
  if (resource === "object") return objectRoute(req, stack, method, segments, url.searchParams);
  if (resource === "bucket") return bucketRoute(req, stack, method, segments);
  throw storageError(404, "NotFound", `Route ${req.method}:${subpath} not found`, "Not Found");
}

async function objectRoute(req: Request, stack: Stack, method: string, segments: string[], query: URLSearchParams): Promise<Response> {
  const [first, ...rest] = segments;
  const download = query.get("download") ?? undefined;
  const action = `${method} ${first}`;
  if (action === "POST list") return listObjects(req, stack, rest[0]);
  if (action === "GET public") return publicObject(req, stack, target(rest), download);
  if (action === "GET authenticated") return authenticatedObject(req, stack, target(rest), download);
  if (action === "GET info") {
    // /info/public/… and /info/authenticated/… answer like /info/…: the bucket decides.
    const scoped = rest[0] === "public" || rest[0] === "authenticated";
    return objectInfo(req, stack, target(scoped ? rest.slice(1) : rest));
  }
  if (action === "GET sign") return signedObject(req, stack, target(rest), query.get("token"), download);
  if (action === "POST sign") {
    return rest.length > 1 ? signOne(req, stack, target(rest)) : signMany(req, stack, rest[0]);
  }
  if (method === "DELETE" && segments.length === 1) return removeMany(req, stack, first);
  const object = target(segments);
  if (method === "GET") return authenticatedObject(req, stack, object, download);
  if (method === "POST") return upload(req, stack, object, { upsert: req.headers.get("x-upsert") === "true" });
  if (method === "PUT") return upload(req, stack, object, { update: true });
  if (method === "DELETE") return removeOne(req, stack, object);
  throw storageError(404, "NotFound", `Route ${method}:/object/${segments.join("/")} not found`, "Not Found");
}

// ---------------------------------------------------------------------------------------------------
// Objects

type Target = { bucket: string; name: string };

type ObjectMetadata = {
  eTag: string;
  size: number;
  mimetype: string;
  cacheControl: string;
  lastModified: string;
  contentLength: number;
  httpStatusCode: number;
};

type ObjectRow = {
  id: string;
  name: string;
  bucket_id: string;
  metadata: ObjectMetadata | null;
  user_metadata: unknown;
  version: string | null;
  created_at: string;
  updated_at: string;
};

type BucketRow = {
  id: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
};

function target(segments: string[]): Target {
  const [bucket = "", ...path] = segments;
  const name = path.join("/");
  if (!isValidKey(bucket) || !isValidKey(name)) {
    throw storageError(400, "InvalidKey", `Invalid key: ${bucket}/${name}`);
  }
  return { bucket, name };
}

// Storage's own key rule (S3-safe characters), plus no empty, `.` or `..` segments so that every key
// maps to a file inside its bucket's folder.
function isValidKey(key: string): boolean {
  return /^[\w/!\-.*'() &$@=;:+,?]+$/.test(key) && key.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

async function upload(
  req: Request,
  stack: Stack,
  { bucket: bucketId, name }: Target,
  mode: { upsert?: boolean; update?: boolean },
): Promise<Response> {
  const claims = caller(req, stack);
  const bucket = await findBucket(stack.db, bucketId);
  const file = await incomingFile(req);
  const metadata: ObjectMetadata = {
    eTag: `"${createHash("md5").update(file.bytes).digest("hex")}"`,
    size: file.bytes.length,
    mimetype: file.mimetype,
    cacheControl: file.cacheControl,
    lastModified: new Date().toISOString(),
    contentLength: file.bytes.length,
    httpStatusCode: 200,
  };
  const owner = typeof claims.sub === "string" ? claims.sub : null;
  const ownerUuid = owner && /^[0-9a-f-]{36}$/i.test(owner) ? owner : null;
  const values = [bucketId, name, ownerUuid, owner, metadata, file.userMetadata];

  const id = await asCaller(stack, claims, async (tx) => {
    // The policies decide first, as on Supabase, then the bucket's limits; only then are bytes written.
    const id = await saveObjectRow(tx, mode, values);
    checkLimits(bucket, file.mimetype, file.bytes.length);
    await filesOf(stack).write(bucketId, name, file.bytes);
    return id;
  });
  return json({ Id: id, Key: `${bucketId}/${name}` });
}

// Values: bucket, name, owner (uuid), owner_id (text), metadata, user_metadata. A plain upload needs only
// the insert policy (hence no RETURNING, which would need select too); an upsert needs insert, select and
// update; an update needs update.
async function saveObjectRow(tx: Db, mode: { upsert?: boolean; update?: boolean }, values: unknown[]): Promise<string> {
  if (mode.update) {
    const updated = await tx.query<{ id: string }>(
      `update storage.objects set owner = $3, owner_id = $4, metadata = $5, user_metadata = $6,
              updated_at = now(), last_accessed_at = now()
       where bucket_id = $1 and name = $2 returning id`,
      values,
    );
    if (updated.rows.length === 0) throw noSuchKey();
    return updated.rows[0].id;
  }
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

type IncomingFile = { bytes: Uint8Array<ArrayBuffer>; mimetype: string; cacheControl: string; userMetadata: unknown };

// storage-js sends either the raw bytes (Content-Type and Cache-Control headers) or multipart form data
// (a `cacheControl` field and the file as a part with an empty field name).
async function incomingFile(req: Request): Promise<IncomingFile> {
  const contentType = req.headers.get("content-type") ?? "";
  if (!contentType.startsWith("multipart/form-data")) {
    return {
      bytes: new Uint8Array(await req.arrayBuffer()),
      mimetype: contentType || "application/octet-stream",
      cacheControl: req.headers.get("cache-control") ?? "no-cache",
      userMetadata: decodeMetadata(req.headers.get("x-metadata"), "base64"),
    };
  }
  const form = await req.formData().catch(() => {
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
function checkLimits(bucket: BucketRow, mimetype: string, size: number): void {
  const allowed = bucket.allowed_mime_types ?? [];
  if (allowed.length > 0 && !allowed.some((pattern) => mimeMatches(pattern, mimetype))) {
    throw storageError(415, "InvalidMimeType", `mime type ${mimetype} is not supported`, "invalid_mime_type");
  }
  const limit = Math.min(bucket.file_size_limit ?? globalFileSizeLimit, globalFileSizeLimit);
  if (size > limit) {
    throw storageError(413, "EntityTooLarge", "The object exceeded the maximum allowed size", "Payload too large");
  }
}

function mimeMatches(pattern: string, mimetype: string): boolean {
  // Parameters such as `;charset=UTF-8` do not change what a file is.
  const [type, subtype] = mimetype.split(";")[0].trim().toLowerCase().split("/");
  const [allowedType, allowedSubtype] = pattern.trim().toLowerCase().split("/");
  return Boolean(subtype) && allowedType === type && (allowedSubtype === "*" || allowedSubtype === subtype);
}

async function authenticatedObject(req: Request, stack: Stack, object: Target, download?: string): Promise<Response> {
  const claims = caller(req, stack);
  await findBucket(stack.db, object.bucket);
  const row = await asCaller(stack, claims, (tx) => findObject(tx, object), { readOnly: true });
  return sendObject(req, stack, row, { download });
}

async function publicObject(req: Request, stack: Stack, object: Target, download?: string): Promise<Response> {
  const bucket = await findBucket(stack.db, object.bucket);
  if (!bucket.public) throw noSuchBucket();
  return sendObject(req, stack, await findObject(stack.db, object), { download });
}

async function signedObject(req: Request, stack: Stack, object: Target, token: string | null, download?: string): Promise<Response> {
  if (!token) throw storageError(400, "InvalidRequest", "querystring must have required property 'token'");
  let claims: { url?: string; exp?: number };
  try {
    claims = verifyJwt(token, stack.config.jwtSecret);
  } catch (error) {
    throw storageError(400, "InvalidJWT", jwtMessage(error));
  }
  if (claims.url !== `${object.bucket}/${object.name}`) {
    throw storageError(400, "InvalidSignature", "Invalid signature");
  }
  const row = await findObject(stack.db, object);
  const expires = claims.exp ? new Date(claims.exp * 1000).toUTCString() : undefined;
  return sendObject(req, stack, row, { download, expires });
}

async function objectInfo(req: Request, stack: Stack, object: Target): Promise<Response> {
  const bucket = await findBucket(stack.db, object.bucket);
  const row = bucket.public
    ? await findObject(stack.db, object)
    : await asCaller(stack, caller(req, stack), (tx) => findObject(tx, object), { readOnly: true });
  return json({
    id: row.id,
    name: row.name,
    version: row.version,
    bucket_id: row.bucket_id,
    size: row.metadata?.size ?? null,
    content_type: row.metadata?.mimetype ?? null,
    cache_control: row.metadata?.cacheControl ?? null,
    etag: row.metadata?.eTag ?? null,
    metadata: row.user_metadata,
    last_modified: row.updated_at,
    created_at: row.created_at,
  });
}

// Streams the object's bytes, honouring one HTTP Range (audio seeking) and the ETag (revalidation).
async function sendObject(req: Request, stack: Stack, row: ObjectRow, options: { download?: string; expires?: string }): Promise<Response> {
  const file = await filesOf(stack).open(row.bucket_id, row.name);
  if (!file) {
    return json({ error: "Not found", message: "The resource was not found", statusCode: "404" }, 400, {
      "cache-control": "no-store",
    });
  }
  // Rows written by plain SQL (a seed, say) may lack Storage's metadata; their bytes still serve.
  const metadata: Partial<ObjectMetadata> = row.metadata ?? {};
  const mimetype = metadata.mimetype ?? "application/octet-stream";
  const headers: Record<string, string> = {
    "accept-ranges": "bytes",
    // Never let a stored page run as this origin's HTML.
    "content-type": mimetype.includes("text/html") ? "text/plain" : mimetype,
    "last-modified": new Date(metadata.lastModified ?? row.updated_at).toUTCString(),
  };
  if (metadata.eTag) headers.etag = metadata.eTag;
  if (options.expires) headers.expires = options.expires;
  else headers["cache-control"] = metadata.cacheControl ?? "no-cache";
  if (options.download !== undefined) {
    const fileName = encodeURIComponent(options.download);
    headers["content-disposition"] = fileName ? `attachment; filename=${fileName}; filename*=UTF-8''${fileName};` : "attachment;";
  }

  if (metadata.eTag && req.headers.get("if-none-match") === metadata.eTag) {
    await file.close();
    return new Response(null, { status: 304, headers });
  }
  if (req.method === "HEAD") {
    await file.close();
    return new Response(null, { headers: { ...headers, "content-length": String(file.size) } });
  }
  const range = parseRange(req.headers.get("range"), file.size);
  if (range === "unsatisfiable") {
    await file.close();
    const body = { statusCode: "416", code: "InvalidRange", error: "invalid_range", message: "invalid range provided" };
    return json(body, 416, { "content-range": `bytes */${file.size}` });
  }
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  headers["content-length"] = String(Math.max(end - start + 1, 0));
  if (range) headers["content-range"] = `bytes ${start}-${end}/${file.size}`;
  return new Response(file.size === 0 ? null : file.stream(start, end), { status: range ? 206 : 200, headers });
}

// One range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; anything else (several ranges, other units) is
// ignored and the whole object is sent, as HTTP allows.
function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(size - suffix, 0), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

async function signOne(req: Request, stack: Stack, object: Target): Promise<Response> {
  const { expiresIn } = await jsonBody<{ expiresIn?: unknown }>(req);
  const seconds = validExpiry(expiresIn);
  await asCaller(stack, caller(req, stack), (tx) => findObject(tx, object), { readOnly: true });
  return json({ signedURL: signedUrl(stack, object, seconds) });
}

async function signMany(req: Request, stack: Stack, bucket: string | undefined): Promise<Response> {
  const body = await jsonBody<{ expiresIn?: unknown; paths?: unknown }>(req);
  const seconds = validExpiry(body.expiresIn);
  const paths = nonEmptyStrings(body.paths, "paths");
  const sql = "select name from storage.objects where bucket_id = $1 and name = any($2)";
  const visible = await asCaller(stack, caller(req, stack), (tx) => tx.query<{ name: string }>(sql, [bucket, paths]), {
    readOnly: true,
  });
  const names = new Set(visible.rows.map((row) => row.name));
  return json(
    paths.map((path) =>
      names.has(path)
        ? { error: null, path, signedURL: signedUrl(stack, { bucket: bucket ?? "", name: path }, seconds) }
        : { error: "Either the object does not exist or you do not have access to it", path, signedURL: null },
    ),
  );
}

function nonEmptyStrings(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === "string")) {
    throw storageError(400, "InvalidRequest", `body/${field} must be a non-empty array of strings`);
  }
  return value;
}

function validExpiry(expiresIn: unknown): number {
  if (typeof expiresIn !== "number" || !Number.isInteger(expiresIn) || expiresIn < 1) {
    throw storageError(400, "InvalidRequest", "body/expiresIn must be an integer >= 1");
  }
  return expiresIn;
}

function signedUrl(stack: Stack, { bucket, name }: Target, expiresIn: number): string {
  const url = `${bucket}/${name}`;
  const iat = Math.floor(Date.now() / 1000);
  const token = signJwt({ url, iat, exp: iat + expiresIn }, stack.config.jwtSecret);
  return `/object/sign/${url}?token=${token}`;
}

// Removes what the caller's delete policy allows among the given names, and answers with those rows.
async function removeMany(req: Request, stack: Stack, bucket: string | undefined): Promise<Response> {
  const prefixes = nonEmptyStrings((await jsonBody<{ prefixes?: unknown }>(req)).prefixes, "prefixes");
  const deleted = await asCaller(stack, caller(req, stack), async (tx) => {
    const result = await tx.query<{ objects: ObjectRow[] }>(
      `with deleted as (delete from storage.objects where bucket_id = $1 and name = any($2) returning *)
       select coalesce(json_agg(deleted), '[]') as objects from deleted`,
      [bucket, prefixes],
    );
    return result.rows[0].objects;
  });
  await Promise.all(deleted.map((row) => filesOf(stack).remove(row.bucket_id, row.name)));
  return json(deleted);
}

async function removeOne(req: Request, stack: Stack, object: Target): Promise<Response> {
  const removed = await asCaller(stack, caller(req, stack), (tx) =>
    tx.query("delete from storage.objects where bucket_id = $1 and name = $2 returning id", [object.bucket, object.name]),
  );
  if (removed.rows.length === 0) throw noSuchKey();
  await filesOf(stack).remove(object.bucket, object.name);
  return json({ message: "Successfully deleted" });
}

const sortColumns = new Set(["name", "created_at", "updated_at", "last_accessed_at"]);

// Storage's `storage.search`: the entries one level below the prefix, folders (with null fields) first,
// filtered by what the caller may select.
async function listObjects(req: Request, stack: Stack, bucket: string | undefined): Promise<Response> {
  const body = await jsonBody<{
    prefix?: unknown;
    limit?: unknown;
    offset?: unknown;
    search?: unknown;
    sortBy?: { column?: unknown; order?: unknown };
  }>(req);
  let prefix = typeof body.prefix === "string" ? body.prefix : "";
  // A prefix always names a folder.
  if (prefix.length > 0 && !prefix.endsWith("/")) prefix += "/";
  const level = prefix.split("/").length;
  const column = sortColumns.has(String(body.sortBy?.column)) ? String(body.sortBy?.column) : "name";
  const order = body.sortBy?.order === "desc" ? "desc" : "asc";
  const limit = Number.isInteger(body.limit) ? Number(body.limit) : 100;
  const offset = Number.isInteger(body.offset) ? Number(body.offset) : 0;
  const search = typeof body.search === "string" ? body.search : "";

  const listed = await asCaller(
    stack,
    caller(req, stack),
    (tx) =>
      tx.query<{ entries: unknown[] }>(
        `with matching as (
           select *, string_to_array(name, '/') as tokens from storage.objects
           where bucket_id = $1 and name ilike $2 || $3 || '%'
         ),
         folders as (
           select tokens[$4] as folder from matching where array_length(tokens, 1) <> $4 group by folder
         ),
         entries as (
           (select folder as name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
                   null::timestamptz as last_accessed_at, null::jsonb as metadata
            from folders order by folder ${order})
           union all
           (select tokens[$4], id, updated_at, created_at, last_accessed_at, metadata
            from matching where array_length(tokens, 1) = $4 order by ${column} ${order})
           limit $5 offset $6
         )
         select coalesce(json_agg(entries), '[]') as entries from entries`,
        [bucket, escapeLike(prefix), escapeLike(search), level, limit, offset],
      ),
    { readOnly: true },
  );
  return json(listed.rows[0].entries);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

// ---------------------------------------------------------------------------------------------------
// Buckets (what the dashboard and admin scripts use; only the service role passes their policies)

async function bucketRoute(req: Request, stack: Stack, method: string, segments: string[]): Promise<Response> {
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

// ---------------------------------------------------------------------------------------------------
// Shared pieces

function storageError(statusCode: number, code: string, message: string, error = code): HttpError {
  return new HttpError(statusCode >= 500 ? 500 : 400, { statusCode: String(statusCode), code, error, message });
}

const noSuchKey = () => storageError(404, "NoSuchKey", "Object not found", "not_found");
const noSuchBucket = () => storageError(404, "NoSuchBucket", "Bucket not found", "Bucket not found");

function jwtMessage(error: unknown): string {
  if (error instanceof JwtError && error.expired) return "jwt expired";
  return error instanceof Error ? error.message : "invalid token";
}

// Storage refuses a bad or expired token as AccessDenied rather than PostgREST's 401.
function caller(req: Request, stack: Stack): Claims {
  try {
    return claimsFromRequest(req, stack);
  } catch (error) {
    if (error instanceof HttpError) throw storageError(403, "AccessDenied", error.message, "Unauthorized");
    throw error;
  }
}

// Runs as the caller and turns the database's refusals into Storage's errors.
async function asCaller<T>(stack: Stack, claims: Claims, fn: (tx: Db) => Promise<T>, opts: { readOnly?: boolean } = {}): Promise<T> {
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
async function findBucket(db: Db, id: string): Promise<BucketRow> {
  const result = await db.query<BucketRow>("select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1", [
    id,
  ]);
  if (result.rows.length === 0) throw noSuchBucket();
  return result.rows[0];
}

async function findObject(db: Db, { bucket, name }: Target): Promise<ObjectRow> {
  const result = await db.query<ObjectRow>(
    `select id, name, bucket_id, metadata, user_metadata, version, created_at, updated_at
     from storage.objects where bucket_id = $1 and name = $2`,
    [bucket, name],
  );
  if (result.rows.length === 0) throw noSuchKey();
  return result.rows[0];
}

async function jsonBody<T>(req: Request): Promise<T> {
  const body: unknown = await req.json().catch(() => null);
  if (typeof body !== "object" || body === null) throw storageError(400, "InvalidRequest", "body must be object");
  return body as T;
}

// ---------------------------------------------------------------------------------------------------
// Where the bytes live

type StoredFile = { size: number; stream(start: number, end: number): ReadableStream; close(): Promise<void> };

type FileStore = {
  write(bucket: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  open(bucket: string, name: string): Promise<StoredFile | null>;
  remove(bucket: string, name: string): Promise<void>;
};

const stores = new WeakMap<Stack, FileStore>();

function filesOf(stack: Stack): FileStore {
  let store = stores.get(stack);
  if (!store) {
    store = stack.dataDir ? diskStore(join(stack.dataDir, "storage")) : memoryStore();
    stores.set(stack, store);
  }
  return store;
}

function diskStore(root: string): FileStore {
  const pathOf = (bucket: string, name: string) => join(root, bucket, name);
  return {
    async write(bucket, name, bytes) {
      const path = pathOf(bucket, name);
      await mkdir(dirname(path), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${path}.${randomUUID()}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, path);
    },
    async open(bucket, name) {
      const handle = await open(pathOf(bucket, name)).catch(() => null);
      if (!handle) return null;
      const { size } = await handle.stat();
      return {
        size,
        // Streamed from disk: a range of a large track never sits in memory whole.
        stream: (start, end) => Readable.toWeb(handle.createReadStream({ start, end })) as ReadableStream,
        close: () => handle.close(),
      };
    },
    async remove(bucket, name) {
      await rm(pathOf(bucket, name), { force: true });
    },
  };
}

function memoryStore(): FileStore {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  const keyOf = (bucket: string, name: string) => `${bucket}/${name}`;
  return {
    async write(bucket, name, bytes) {
      files.set(keyOf(bucket, name), bytes);
    },
    async open(bucket, name) {
      const bytes = files.get(keyOf(bucket, name));
      if (!bytes) return null;
      return {
        size: bytes.length,
        stream: (start, end) => new Blob([bytes.subarray(start, end + 1)]).stream(),
        close: async () => {},
      };
    },
    async remove(bucket, name) {
      files.delete(keyOf(bucket, name));
    },
  };
}
