import { json, type Stack } from "../context.ts";
import { signJwt, verifyJwt } from "../jwt.ts";
import {
  asCaller,
  caller,
  findBucket,
  findObject,
  globalFileSizeLimit,
  jsonBody,
  jwtMessage,
  storageError,
  type Target,
} from "./shared.ts";
import { incomingFile, mayWrite, multipartAllowance, storeObject } from "./uploads.ts";

export async function signOne(req: Request, stack: Stack, object: Target): Promise<Response> {
  const { expiresIn } = await jsonBody<{ expiresIn?: unknown }>(req);
  const seconds = validExpiry(expiresIn);
  await asCaller(stack, caller(req, stack), (tx) => findObject(tx, object), { readOnly: true, headers: req.headers });
  return json({ signedURL: signedUrl(stack, object, seconds) });
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

// Signed uploads (createSignedUploadUrl, uploadToSignedUrl): whoever signs must be allowed to write the
// object (the policies decide, tried and rolled back); the token then lets its bearer write that one
// object, as the signer and for two hours, as on Supabase. An upload token is never a download token
// (`scope`), so a listener's signed URL cannot overwrite what it reads.
const uploadTokenSeconds = 2 * 60 * 60;

export type UploadToken = { url?: string; owner?: string | null; upsert?: boolean; scope?: string };

export async function signUpload(req: Request, stack: Stack, object: Target): Promise<Response> {
  const claims = caller(req, stack);
  const upsert = req.headers.get("x-upsert") === "true";
  await mayWrite(stack, claims, object, { upsert });
  const iat = Math.floor(Date.now() / 1000);
  const owner = typeof claims.sub === "string" ? claims.sub : null;
  const url = `${object.bucket}/${object.name}`;
  const token = signJwt({ url, owner, upsert, scope: "upload", iat, exp: iat + uploadTokenSeconds }, stack.config.jwtSecret);
  return json({ url: `/object/upload/sign/${url}?token=${token}` });
}

export async function uploadSigned(req: Request, stack: Stack, object: Target, token: string | null): Promise<Response> {
  if (!token) throw storageError(400, "InvalidRequest", "querystring must have required property 'token'");
  let claims: UploadToken;
  try {
    claims = verifyJwt<UploadToken>(token, stack.config.jwtSecret);
  } catch (error) {
    throw storageError(400, "InvalidJWT", jwtMessage(error));
  }
  if (claims.scope !== "upload" || claims.url !== `${object.bucket}/${object.name}`) {
    throw storageError(400, "InvalidSignature", "Invalid signature");
  }
  const bucket = await findBucket(stack.db, object.bucket);
  const limit = Math.min(bucket.file_size_limit ?? globalFileSizeLimit, globalFileSizeLimit);
  const file = await incomingFile(req, limit + multipartAllowance);
  // Written as the service role (the signature is the permission), owned by whoever signed.
  const writer = { role: "service_role" as const, ...(claims.owner ? { sub: claims.owner } : {}) };
  const id = await storeObject(stack, writer, object, file, { upsert: claims.upsert === true });
  return json({ Id: id, Key: `${object.bucket}/${object.name}` });
}
