import { type Stack } from "../context.ts";
import { authenticatedObject, objectInfo, publicObject, signedObject } from "./downloads.ts";
import { listObjects, removeMany, removeOne } from "./remove-and-list.ts";
import { handleResumable } from "./resumable.ts";
import { storageError, target } from "./shared.ts";
import { signOne, signUpload, uploadSigned } from "./signed-urls.ts";
import { upload } from "./uploads.ts";

export { closeResumable, resumablePath } from "./resumable.ts";

// Storage: the part of Supabase Storage's REST API that this product's storage-js calls use. Object
// bytes live on disk under <dataDir>/storage/<bucket>/<name> (in memory when the stack has no data dir);
// each object's metadata is a row in storage.objects, read and written as the caller so the storage
// policies in our migrations decide who may upload, download, list and remove, exactly as on Supabase.
// Errors keep Storage's shape: HTTP 400 (500 for server faults) with the real status in the body.

export async function handle(req: Request, stack: Stack, subpath: string): Promise<Response> {
  const url = new URL(req.url);
  const [resource, ...segments] = subpath.split("/").slice(1).map(decodeURIComponent);
  const method = req.method === "HEAD" ? "GET" : req.method;
  if (resource === "object") return objectRoute(req, stack, method, segments, url.searchParams);
  if (resource === "upload" && segments[0] === "resumable") return handleResumable(req, stack);
  throw unsupported(`${req.method} /${resource}`);
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
  if (action === "POST sign" && rest.length > 1) return signOne(req, stack, target(rest));
  if (action === "POST upload" && rest[0] === "sign") return signUpload(req, stack, target(rest.slice(1)));
  if (action === "PUT upload" && rest[0] === "sign") return uploadSigned(req, stack, target(rest.slice(1)), query.get("token"));
  if (method === "DELETE" && segments.length === 1) return removeMany(req, stack, first);
  if (["sign", "move", "copy", "upload", "list"].includes(first)) throw unsupported(`${method} /object/${first}`);
  const object = target(segments);
  if (method === "GET") return authenticatedObject(req, stack, object, download);
  if (method === "POST") return upload(req, stack, object, { upsert: req.headers.get("x-upsert") === "true" });
  if (method === "DELETE") return removeOne(req, stack, object);
  throw unsupported(`${method} /object`);
}

/** A Storage route this product never calls (buckets, update, move, copy, signing many downloads): refused, not approximated. */
function unsupported(route: string) {
  return storageError(400, "NotSupported", `${route} is not supported by the local stack`, "Not Supported");
}
