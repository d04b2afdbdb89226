import { isIP } from "node:net";
import { type Stack } from "../context.ts";
import { defaultTokensPerFiveMinutes, fail, tokenBurst } from "./handler.ts";

// Rate limit on /token per client address (a token bucket, as GoTrue's tollbooth limiter)

const tokenBuckets = new WeakMap<Stack, Map<string, { tokens: number; at: number }>>();

export function limitTokenRequests(req: Request, stack: Stack): void {
  const perFiveMinutes = stack.config.tokenRateLimit?.perFiveMinutes ?? defaultTokensPerFiveMinutes;
  const burst = Math.min(tokenBurst, perFiveMinutes);
  let buckets = tokenBuckets.get(stack);
  if (!buckets) tokenBuckets.set(stack, (buckets = new Map()));
  const key = clientAddress(req);
  const now = Date.now();
  const bucket = buckets.get(key) ?? { tokens: burst, at: now };
  bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * perFiveMinutes) / 300_000);
  bucket.at = now;
  buckets.set(key, bucket);
  if (bucket.tokens < 1) throw fail(429, "over_request_rate_limit", "Request rate limit reached");
  bucket.tokens -= 1;
}

/** X-Forwarded-For first (as GoTrue behind a proxy), then the socket address server.ts passes along. */
function clientAddress(req: Request): string {
  const forwarded = (req.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((part) => part.trim())
    .find((part) => isIP(part));
  return forwarded ?? req.headers.get("x-local-client-ip") ?? "local";
}

export function ipOrNull(req: Request): string | null {
  const address = clientAddress(req);
  return isIP(address) ? address : null;
}
