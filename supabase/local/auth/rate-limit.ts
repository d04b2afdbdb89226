import { isIP } from "node:net";
import { type Stack } from "../context.ts";
import { defaultTokensPerFiveMinutes, fail, tokenBurst } from "./io.ts";

// Rate limits, per client address and per account. The address is the socket's; a forwarded one
// (X-Forwarded-For) is believed only from the proxy that proves itself with the shared secret
// (config.forwardedSecret, sent as X-Forwarded-Secret), so rotating the header escapes nothing.

type Bucket = { tokens: number; at: number };
const buckets = new WeakMap<Stack, Map<string, Bucket>>();

/** A token bucket (GoTrue's tollbooth limiter): `perWindow` requests per `windowMs`, in bursts of `burst`. */
function take(stack: Stack, key: string, perWindow: number, windowMs: number, burst: number): boolean {
  let all = buckets.get(stack);
  if (!all) buckets.set(stack, (all = new Map()));
  const now = Date.now();
  const bucket = all.get(key) ?? { tokens: burst, at: now };
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * perWindow) / windowMs);
  bucket.at = now;
  all.set(key, bucket);
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

const rateLimited = () => fail(429, "over_request_rate_limit", "Request rate limit reached");

/** /token: GoTrue's default 150 per 5 minutes per address, in bursts of 30. */
export function limitTokenRequests(req: Request, stack: Stack): void {
  const perFiveMinutes = stack.config.tokenRateLimit?.perFiveMinutes ?? defaultTokensPerFiveMinutes;
  if (!take(stack, `token:${clientAddress(req, stack)}`, perFiveMinutes, 300_000, Math.min(tokenBurst, perFiveMinutes))) {
    throw rateLimited();
  }
}

/** /signup: 30 per 5 minutes per address (supabase/config.toml's sign_in_sign_ups). */
export function limitSignUps(req: Request, stack: Stack): void {
  const perFiveMinutes = stack.config.signUpRateLimit?.perFiveMinutes ?? 30;
  if (!take(stack, `signup:${clientAddress(req, stack)}`, perFiveMinutes, 300_000, perFiveMinutes)) throw rateLimited();
}

/** /recover: 30 reset emails per hour per address. */
export function limitRecoveries(req: Request, stack: Stack): void {
  const perHour = stack.config.recoveryRateLimit?.perHour ?? 30;
  if (!take(stack, `recover:${clientAddress(req, stack)}`, perHour, 3_600_000, perHour)) {
    throw fail(429, "over_email_send_rate_limit", "Email rate limit exceeded");
  }
}

// Failed sign-ins per account: 10 per 15 minutes per email, whoever sends them and from wherever. The
// answer is the same for an email with no account, so the limit reveals nothing.
const failedSignInLimit = { attempts: 10, windowMs: 15 * 60_000 };
const failedSignIns = new WeakMap<Stack, Map<string, number[]>>();

function recentFailures(stack: Stack, email: string): number[] {
  let all = failedSignIns.get(stack);
  if (!all) failedSignIns.set(stack, (all = new Map()));
  const since = Date.now() - failedSignInLimit.windowMs;
  const recent = (all.get(email) ?? []).filter((at) => at > since);
  all.set(email, recent);
  return recent;
}

export function refuseGuessedAccount(stack: Stack, email: string): void {
  if (recentFailures(stack, email).length >= failedSignInLimit.attempts) throw rateLimited();
}

export function noteFailedSignIn(stack: Stack, email: string): void {
  recentFailures(stack, email).push(Date.now());
}

function clientAddress(req: Request, stack: Stack): string {
  const secret = stack.config.forwardedSecret;
  if (secret && req.headers.get("x-forwarded-secret") === secret) {
    const forwarded = (req.headers.get("x-forwarded-for") ?? "")
      .split(",")
      .map((part) => part.trim())
      .find((part) => isIP(part));
    if (forwarded) return forwarded;
  }
  return req.headers.get("x-local-client-ip") ?? "local";
}

export function ipOrNull(req: Request, stack: Stack): string | null {
  const address = clientAddress(req, stack);
  return isIP(address) ? address : null;
}
