// The security headers of every response, set in one place (workers/app.ts): no framing, no sniffing, a
// strict referrer, HSTS over HTTPS, and on HTML a Content-Security-Policy that lets scripts run only from
// our origin or inline with this response's nonce.
import { captchaPaths, turnstileOrigin } from "./captcha";
import { appEnv, type AppEnv } from "./env.server";

/** 128 random bits for one response's inline scripts. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * Where forms send people on to Stripe: a checkout's buyer to pay on Stripe Checkout's pages, an artist to
 * set up payouts on Connect's onboarding (on a local run, the stand-in's pages, at its own origin).
 */
export const stripeFormOrigins = "https://checkout.stripe.com https://connect.stripe.com";

/**
 * Our origin, the Supabase origin the browser talks to (Realtime's WebSocket, resumable uploads, audio and
 * artwork), and inline scripts only with the nonce. Styles may be inline: React renders style attributes
 * (a progress bar's width), which a nonce cannot cover. Forms post to our origin alone, and may be sent on
 * to Stripe (`checkout`): a checkout's answer is a redirect to its payment page, and connecting Stripe's
 * one to its onboarding, which `form-action` governs.
 */
export function contentSecurityPolicy(
  nonce: string,
  supabaseUrl: string | null,
  { turnstile = false, embed = false, checkout = null }: { turnstile?: boolean; embed?: boolean; checkout?: string | null } = {},
): string {
  const supabase = supabaseUrl ? new URL(supabaseUrl).origin : "";
  const realtime = supabase.replace(/^http/, "ws");
  // Turnstile's script and frame, only on a page that shows the security check.
  const challenge = turnstile ? ` ${turnstileOrigin}` : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${challenge}`,
    `frame-src 'self'${challenge}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${supabase}`.trim(),
    `media-src 'self' blob: ${supabase}`.trim(),
    `connect-src 'self' ${supabase} ${realtime}`.trim(),
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${checkout ? ` ${checkout}` : ""}`,
    // An embed is made to be framed by any site; every other page by none.
    `frame-ancestors ${embed ? "*" : "'none'"}`,
  ].join("; ");
}

/**
 * The response with its security headers. Development skips the CSP: Vite's hot reload injects inline
 * scripts of its own, without the nonce.
 */
export function withSecurityHeaders(
  request: Request,
  response: Response,
  { nonce, env, development }: { nonce: string; env: unknown; development: boolean },
): Response {
  // Responses from fetch() or the cache have immutable headers.
  const secured = new Response(response.body, response);
  const headers = secured.headers;
  const url = new URL(request.url);
  const embed = isEmbedPath(url.pathname);
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  if (embed) {
    // Framed on other sites, and never the visitor's session there (the Worker also drops its cookies).
    headers.delete("Set-Cookie");
  } else {
    headers.set("X-Frame-Options", "DENY");
  }
  if (url.protocol === "https:") headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  if (!development && (headers.get("Content-Type") ?? "").startsWith("text/html")) {
    const checked = checkedEnv(env);
    const turnstile = Boolean(checked?.TURNSTILE_SITE_KEY) && captchaPaths.includes(url.pathname);
    const checkout = checked?.STRIPE_SECRET_KEY
      ? checked.STRIPE_API_URL
        ? new URL(checked.STRIPE_API_URL).origin
        : stripeFormOrigins
      : null;
    headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, checked?.SUPABASE_URL ?? null, { turnstile, embed, checkout }));
  }
  return secured;
}

/**
 * The Worker's variables, or null when it is misconfigured (whose page says so): then the policy names
 * no backend (only our origin) and no security check.
 */
function checkedEnv(env: unknown): AppEnv | null {
  try {
    return appEnv(env);
  } catch {
    return null;
  }
}

/**
 * The embeddable players' addresses, `/embed/{track|album|artist|playlist}/{id}`: the only pages other
 * sites may frame. Any other address under `/embed` is a plain 404 no one may frame.
 */
export const isEmbedPath = (pathname: string) => /^\/embed\/(?:track|album|artist|playlist)\/[^/]+$/.test(pathname);

/**
 * The request an embed is rendered from: without the visitor's cookies, so an embed never reads (or
 * refreshes) their Crate session, whoever's page it sits in.
 */
export function withoutCookies(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete("Cookie");
  return new Request(request, { headers });
}
