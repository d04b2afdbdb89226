import { createHash } from "node:crypto";
import { json } from "../context.ts";
import { type AuthFailure, fail, passwordMinLength } from "./handler.ts";

// Input and output

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

/**
 * supabase-js sends X-Supabase-Api-Version: 2024-01-01, and GoTrue then answers `{ code, message }` and
 * echoes the version, which is what lets the client read `code`. Without it: the legacy shape.
 */
export function errorResponse(req: Request, failure: AuthFailure): Response {
  const version = req.headers.get("x-supabase-api-version") ?? "";
  if (/^\d{4}-\d{2}-\d{2}$/.test(version) && version >= "2024-01-01") {
    return json({ code: failure.code, message: failure.message, ...failure.extra }, failure.status, {
      "x-supabase-api-version": "2024-01-01",
    });
  }
  return json({ code: failure.status, error_code: failure.code, msg: failure.message, ...failure.extra }, failure.status, {
    "x-sb-error-code": failure.code,
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
