import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileStore } from "@tus/file-store";
import { Server, type Upload } from "@tus/server";
import { HttpError, type Claims, type Stack } from "../context.ts";
import { verifyJwt } from "../jwt.ts";
import { asCaller, caller, findBucket, globalFileSizeLimit, isValidKey, jwtMessage, storageError } from "./shared.ts";
import type { UploadToken } from "./signed-urls.ts";
import { checkLimits, saveObjectRow, storeObject } from "./uploads.ts";

// Resumable uploads: Supabase Storage's TUS endpoint (/storage/v1/upload/resumable), served by tus's own
// server library as Supabase does. The caller's token decides, as for plain uploads: the storage policies
// are tried when an upload is created and with every chunk (in a transaction rolled back), the bucket's
// size and type limits when it is created, and the object row is written as the caller once the last
// byte is in. Until then the bytes sit in a scratch folder and no object exists.
// An upload's id names its object, as on Supabase: base64url of `bucket/object name/version`.
// A signed upload URL's token (createSignedUploadUrl) lets its bearer upload that one object resumably
// too, at /upload/resumable/sign with the token in `x-signature`, as on Supabase: written as the signer,
// with the token's upsert, to no other object.

export const resumablePath = "/storage/v1/upload/resumable";
const signedResumablePath = `${resumablePath}/sign`;

/** `only`: the one object (`bucket/name`) a signed upload's token names. */
type Caller = { claims: Claims; upsert: boolean; only?: string };
type Resumable = { servers: { plain: Server; signed: Server }; scratch: string; temporary: boolean };

// hooks get the same Request object the handler was given
const callers = new WeakMap<Request, Caller>();
const servers = new WeakMap<Stack, Resumable>();

export async function handleResumable(req: Request, stack: Stack): Promise<Response> {
  const signed = new URL(req.url).pathname.startsWith(signedResumablePath);
  callers.set(req, signed ? signedCaller(req, stack) : { claims: caller(req, stack), upsert: req.headers.get("x-upsert") === "true" });
  const { plain, signed: signedServer } = resumableOf(stack).servers;
  return (signed ? signedServer : plain).handleWeb(req);
}

/** The bearer of a signed upload URL's token: the signer, for its one object (an OPTIONS preflight carries none). */
function signedCaller(req: Request, stack: Stack): Caller {
  const token = req.headers.get("x-signature");
  if (!token) {
    if (req.method === "OPTIONS") return { claims: { role: "anon" }, upsert: false };
    throw storageError(403, "AccessDenied", "Missing x-signature header", "Unauthorized");
  }
  let claims: UploadToken;
  try {
    claims = verifyJwt<UploadToken>(token, stack.config.jwtSecret);
  } catch (error) {
    throw storageError(403, "AccessDenied", jwtMessage(error), "Unauthorized");
  }
  if (claims.scope !== "upload" || !claims.url) throw storageError(403, "AccessDenied", "Invalid signature", "Unauthorized");
  const writer: Claims = { role: "service_role", ...(claims.owner ? { sub: claims.owner } : {}) };
  return { claims: writer, upsert: claims.upsert === true, only: claims.url };
}

/** Removes the scratch folder of a stack kept in memory. */
export function closeResumable(stack: Stack): void {
  const resumable = servers.get(stack);
  if (resumable?.temporary) rmSync(resumable.scratch, { recursive: true, force: true });
}

type UploadTarget = { bucket: string; name: string; version: string };

function encodeId(target: UploadTarget): string {
  return Buffer.from(`${target.bucket}/${target.name}/${target.version}`).toString("base64url");
}

function decodeId(id: string): UploadTarget {
  const parts = Buffer.from(id, "base64url").toString("utf8").split("/");
  const version = parts.pop() ?? "";
  const [bucket = "", ...name] = parts;
  return { bucket, name: name.join("/"), version };
}

// tus writes `status_code` and `body` of what a hook throws.
class TusError extends Error {
  status_code: number;
  body: string;
  constructor(status: number, body: string) {
    super(body);
    this.status_code = status;
    this.body = body;
  }
}

function asTusError(error: unknown): unknown {
  if (!(error instanceof HttpError)) return error;
  const body = error.body as { statusCode?: string; message?: string };
  return new TusError(Number(body.statusCode ?? error.status), body.message ?? error.message);
}

function callerOf(req: Request): Caller {
  const found = callers.get(req);
  if (!found) throw new TusError(403, "Access denied");
  return found;
}

function resumableOf(stack: Stack): Resumable {
  const existing = servers.get(stack);
  if (existing) return existing;
  const temporary = stack.dataDir === null;
  const scratch = temporary ? mkdtempSync(join(tmpdir(), "resumable-")) : join(stack.dataDir ?? "", "storage-resumable");
  // Supabase lets an unfinished upload's address live for a day at most (TUS_URL_EXPIRY_MS).
  const datastore = new FileStore({ directory: scratch, expirationPeriodInMilliseconds: 24 * 60 * 60 * 1000 });

  // The insert (or upsert) policy tried as the caller and rolled back: what Supabase calls canUpload.
  async function mayUpload(req: Request, { bucket, name }: UploadTarget): Promise<void> {
    const { claims, upsert, only } = callerOf(req);
    if (only !== undefined && only !== `${bucket}/${name}`) throw new TusError(403, "Invalid signature");
    const rollback = Symbol("rollback");
    try {
      await asCaller(stack, claims, async (tx) => {
        await saveObjectRow(tx, { upsert }, [bucket, name, null, claims.sub ?? null, null, null]);
        throw rollback;
      });
    } catch (error) {
      if (error !== rollback) throw asTusError(error);
    }
  }

  // Unfinished uploads past their expiry are dropped now and then, as Supabase does on its own.
  let lastExpirySweep = 0;
  const dropExpired = () => {
    if (Date.now() - lastExpirySweep < 60 * 60 * 1000) return;
    lastExpirySweep = Date.now();
    void server.cleanUpExpiredUploads().catch((error: unknown) => console.error("dropping expired resumable uploads failed", error));
  };

  const tusServer = (path: string) =>
    new Server({
      path,
      datastore,
      disableTerminationForFinishedUploads: true,
      relativeLocation: false,
      namingFunction: (_req, metadata) => {
        const bucket = metadata?.bucketName ?? "";
        const name = metadata?.objectName ?? "";
        if (!isValidKey(bucket) || !isValidKey(name)) throw new TusError(400, `Invalid key: ${bucket}/${name}`);
        return encodeId({ bucket, name, version: randomUUID() });
      },
      generateUrl: (_req, { proto, host, path, id }) => `${proto}://${host}${path}/${id}`,
      maxSize: async (_req, id) => {
        if (!id) return globalFileSizeLimit;
        const bucket = await findBucket(stack.db, decodeId(id).bucket).catch((error: unknown) => {
          throw asTusError(error);
        });
        return Math.min(bucket.file_size_limit ?? globalFileSizeLimit, globalFileSizeLimit);
      },
      onIncomingRequest: async (req, id) => {
        // Reading an upload's state (HEAD) is asked like writing to it, as Supabase does: only the caller the
        // policies let upload there learns its offset and metadata.
        if (req.method === "OPTIONS") return;
        await mayUpload(req as Request, decodeId(id));
      },
      onUploadCreate: async (_req, upload) => {
        dropExpired();
        const metadata = { ...upload.metadata };
        const bucket = await findBucket(stack.db, decodeId(upload.id).bucket).catch((error: unknown) => {
          throw asTusError(error);
        });
        try {
          if (metadata.contentType) checkLimits(bucket, metadata.contentType, upload.size ?? 0);
        } catch (error) {
          throw asTusError(error);
        }
        metadata.cacheControl = /^-?\d+$/.test(metadata.cacheControl ?? "") ? `max-age=${metadata.cacheControl}` : "no-cache";
        return { metadata };
      },
      onUploadFinish: async (req, upload) => {
        const { claims, upsert } = callerOf(req as Request);
        const target = decodeId(upload.id);
        const bytes = new Uint8Array(await readFile(join(scratch, upload.id)));
        try {
          await storeObject(
            stack,
            claims,
            target,
            {
              bytes,
              mimetype: upload.metadata?.contentType || "application/octet-stream",
              cacheControl: upload.metadata?.cacheControl || "no-cache",
              userMetadata: parseUserMetadata(upload),
            },
            { upsert },
          );
        } catch (error) {
          throw asTusError(error);
        } finally {
          // Stored or refused, the scratch copy has served its purpose.
          await datastore.remove(upload.id).catch(() => {});
        }
        return { headers: { "Tus-Complete": "1" } };
      },
    });
  const server = tusServer(resumablePath);
  const resumable = { servers: { plain: server, signed: tusServer(signedResumablePath) }, scratch, temporary };
  servers.set(stack, resumable);
  return resumable;
}

function parseUserMetadata(upload: Upload): unknown {
  try {
    return upload.metadata?.metadata ? JSON.parse(upload.metadata.metadata) : null;
  } catch {
    return null;
  }
}
