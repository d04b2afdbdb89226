import { json, type Stack } from "../context.ts";
import { verifyJwt } from "../jwt.ts";
import { mediaType } from "./uploads.ts";
import {
  asCaller,
  caller,
  findBucket,
  findObject,
  jwtMessage,
  noSuchBucket,
  type ObjectMetadata,
  type ObjectRow,
  storageError,
  type Target,
} from "./shared.ts";
import { filesOf } from "./files.ts";

export async function authenticatedObject(req: Request, stack: Stack, object: Target, download?: string): Promise<Response> {
  const claims = caller(req, stack);
  await findBucket(stack.db, object.bucket);
  const row = await asCaller(stack, claims, (tx) => findObject(tx, object), { readOnly: true, headers: req.headers });
  return sendObject(req, stack, row, { download });
}

export async function publicObject(req: Request, stack: Stack, object: Target, download?: string): Promise<Response> {
  const bucket = await findBucket(stack.db, object.bucket);
  if (!bucket.public) throw noSuchBucket();
  return sendObject(req, stack, await findObject(stack.db, object), { download });
}

export async function signedObject(req: Request, stack: Stack, object: Target, token: string | null, download?: string): Promise<Response> {
  if (!token) throw storageError(400, "InvalidRequest", "querystring must have required property 'token'");
  let claims: { url?: string; exp?: number; scope?: string };
  try {
    claims = verifyJwt(token, stack.config.jwtSecret);
  } catch (error) {
    throw storageError(400, "InvalidJWT", jwtMessage(error));
  }
  // An upload token (signed-urls.ts) is not a download token.
  if (claims.scope === "upload" || claims.url !== `${object.bucket}/${object.name}`) {
    throw storageError(400, "InvalidSignature", "Invalid signature");
  }
  const row = await findObject(stack.db, object);
  const expires = claims.exp ? new Date(claims.exp * 1000).toUTCString() : undefined;
  return sendObject(req, stack, row, { download, expires });
}

export async function objectInfo(req: Request, stack: Stack, object: Target): Promise<Response> {
  const bucket = await findBucket(stack.db, object.bucket);
  const row = bucket.public
    ? await findObject(stack.db, object)
    : await asCaller(stack, caller(req, stack), (tx) => findObject(tx, object), { readOnly: true, headers: req.headers });
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
  const mimetype = mediaType(metadata.mimetype ?? "application/octet-stream");
  const headers: Record<string, string> = {
    "accept-ranges": "bytes",
    // A stored file is never a page of this origin: not HTML, not sniffed into something else, and
    // opened on its own it runs nothing (a sandbox with no sources).
    "content-type": mimetype === "text/html" ? "text/plain" : mimetype,
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
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
