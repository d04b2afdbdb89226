import { createHmac, timingSafeEqual } from "node:crypto";

// HS256 only: every token this stack issues or accepts is signed with the one shared JWT secret,
// as on a Supabase project with the legacy JWT secret.

const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

export function signJwt(payload: object, secret: string): string {
  const body = base64url(JSON.stringify(payload));
  return `${header}.${body}.${sign(`${header}.${body}`, secret)}`;
}

export class JwtError extends Error {
  expired: boolean;
  constructor(message: string, expired = false) {
    super(message);
    this.name = "JwtError";
    this.expired = expired;
  }
}

export function verifyJwt<T>(token: string, secret: string): T {
  const parts = token.split(".");
  if (parts.length !== 3) throw new JwtError("Expected 3 parts in JWT; got " + parts.length);
  const [head, body, signature] = parts;
  let alg: unknown;
  let payload: Record<string, unknown>;
  try {
    alg = JSON.parse(Buffer.from(head, "base64url").toString("utf8")).alg;
    payload = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw new JwtError("JWT cannot be decoded");
  }
  if (alg !== "HS256") throw new JwtError("Wrong or unsupported encoding algorithm");
  const expected = Buffer.from(sign(`${head}.${body}`, secret));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new JwtError("JWSInvalidSignature");
  }
  if (typeof payload !== "object" || payload === null) throw new JwtError("JWT claims are not an object");
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.exp === "number" && payload.exp <= now) throw new JwtError("JWT expired", true);
  if (typeof payload.nbf === "number" && payload.nbf > now) throw new JwtError("JWT not yet valid");
  return payload as T;
}

function sign(input: string, secret: string): string {
  return createHmac("sha256", secret).update(input).digest("base64url");
}

function base64url(text: string): string {
  return Buffer.from(text, "utf8").toString("base64url");
}
