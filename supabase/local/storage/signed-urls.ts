import { json, type Stack } from "../context.ts";
import { signJwt } from "../jwt.ts";
import type { Target } from "./uploads.ts";
import { asCaller, caller, findObject, jsonBody, storageError } from "./shared.ts";

export async function signOne(req: Request, stack: Stack, object: Target): Promise<Response> {
  const { expiresIn } = await jsonBody<{ expiresIn?: unknown }>(req);
  const seconds = validExpiry(expiresIn);
  await asCaller(stack, caller(req, stack), (tx) => findObject(tx, object), { readOnly: true });
  return json({ signedURL: signedUrl(stack, object, seconds) });
}

export async function signMany(req: Request, stack: Stack, bucket: string | undefined): Promise<Response> {
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

export function nonEmptyStrings(value: unknown, field: string): string[] {
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
