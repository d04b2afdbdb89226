import { createHash } from "node:crypto";
import { json } from "../context.ts";

// What every Auth route shares: its limits, its failures, reading requests and answering errors

export const accessTokenSeconds = 3600;
// The product's minimum (spec: minimum password length 8); GoTrue's default is 6.
const passwordMinLength = 8;
// A rotated refresh token used again within this window is a client that lost the answer, not an attack.
export const refreshTokenReuseSeconds = 10;
export const recoveryLinkSeconds = 3600;
// How long a PKCE auth code waits for its verifier once the link has been followed.
export const authCodeSeconds = 300;
// GoTrue's default for /token: 150 requests per 5 minutes per IP address, in bursts of at most 30.
export const defaultTokensPerFiveMinutes = 150;
export const tokenBurst = 30;

export class AuthFailure extends Error {
  status: number;
  code: string;
  extra: Record<string, unknown>;
  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

export function fail(status: number, code: string, message: string, extra?: Record<string, unknown>): AuthFailure {
  return new AuthFailure(status, code, message, extra);
}

export async function readBody(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (!text.trim()) return {};
  try {
    const body: unknown = JSON.parse(text);
    if (isObject(body)) return body;
  } catch {
    // answered below
  }
  throw fail(400, "bad_json", "Could not parse request body as JSON");
}

const emailPattern =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function validEmail(value: unknown, missingMessage: string): string {
  const email = typeof value === "string" ? normalizeEmail(value) : "";
  if (!email) throw fail(400, "validation_failed", missingMessage);
  if (email.length > 255 || !emailPattern.test(email)) {
    throw fail(400, "validation_failed", "Unable to validate email address: invalid format");
  }
  return email;
}

export function strongPassword(value: unknown): string {
  const password = typeof value === "string" ? value : "";
  if ([...password].length < passwordMinLength) {
    throw fail(422, "weak_password", `Password should be at least ${passwordMinLength} characters.`, {
      weak_password: { reasons: ["length"] },
    });
  }
  return password;
}

/** GoTrue's error shape for clients that send X-Supabase-Api-Version 2024-01-01, as supabase-js does. */
export function errorResponse(failure: AuthFailure): Response {
  return json({ code: failure.code, message: failure.message, ...failure.extra }, failure.status, {
    "x-supabase-api-version": "2024-01-01",
  });
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

export function positiveInteger(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function seconds(): number {
  return Math.floor(Date.now() / 1000);
}
