import { json, type Stack } from "../context.ts";
import { signJwt } from "../jwt.ts";
import { asCaller, caller, findObject, jsonBody, storageError, type Target } from "./shared.ts";

export async function signOne(req: Request, stack: Stack, object: Target): Promise<Response> {
  const { expiresIn } = await jsonBody<{ expiresIn?: unknown }>(req);
  const seconds = validExpiry(expiresIn);
  await asCaller(stack, caller(req, stack), (tx) => findObject(tx, object), { readOnly: true });
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
