import type { RouterContextProvider } from "react-router";
import { cloudflareContext } from "./context.server";
import * as v from "valibot";
import { backendVariables } from "./backend-env";
import { paypalVariables, stripeVariables } from "./provider-env";
import { turnstileVerifyUrl } from "./captcha";

/**
 * The page Worker's variables, checked once per isolate: what it needs to reach the backend (the project
 * URL, the public anon key, the marketplace's secret) and its own settings.
 */
const EnvSchema = v.object({
  ...backendVariables,
  /** Cloudflare Turnstile's site key: the security check on sign-in, sign-up and recovery (off when unset). */
  TURNSTILE_SITE_KEY: v.optional(v.string()),
  /** Its secret, for the checks the Worker verifies itself (a guest's checkout); the same as Auth's. */
  TURNSTILE_SECRET_KEY: v.optional(v.string()),
  /**
   * Cloudflare's cache purge, for dropping a changed page in every data centre at once: an API token
   * allowed only "Zone > Cache Purge" on this zone, and the zone's id. Without them a change is dropped
   * in the data centre that made it, and elsewhere within a minute.
   */
  CACHE_PURGE_TOKEN: v.optional(v.string()),
  CLOUDFLARE_ZONE_ID: v.optional(v.string()),
  /**
   * Payments (Stripe, with Crate as the seller): the secret API key and the webhook endpoint's signing
   * secret. Without them Buy Now says payment options will be available soon. `STRIPE_API_URL` points the
   * Stripe client at another address (the local stand-in); unset, it talks to Stripe.
   */
  ...stripeVariables,
  STRIPE_WEBHOOK_SECRET: v.optional(v.string()),
  /** The signing secret of the Connect endpoint (events on the artists' Stripe accounts: `account.updated`). */
  STRIPE_CONNECT_WEBHOOK_SECRET: v.optional(v.string()),
  /**
   * Stripe Tax on each checkout (set it up in Stripe first): `on` adds the tax due where the buyer is on top
   * of the prices; `included` takes it as included in them; `off` (or unset) collects none.
   */
  STRIPE_TAX: v.optional(v.picklist(["", "on", "off", "included"], "STRIPE_TAX is on, included or off")),
  /** PayPal's Payouts (see paypalVariables): "Withdraw now" sends its payout at once. */
  ...paypalVariables,
  /** The site's own X (Twitter) account, `@handle`: link previews name it (`twitter:site`); none when unset. */
  SITE_X_HANDLE: v.optional(v.pipe(v.string(), v.regex(/^(@[A-Za-z0-9_]{1,15})?$/, "SITE_X_HANDLE must be an @handle"))),
});

export type AppEnv = v.InferOutput<typeof EnvSchema>;

let checked: AppEnv | undefined;

export function appEnv(env: unknown): AppEnv {
  checked ??= v.parse(EnvSchema, env);
  return checked;
}

/**
 * Whether the security check passed, where the Worker verifies it itself (a guest's checkout): true when
 * the check is off (no site key); false without a token, or when Turnstile says no (or cannot be asked).
 */
export async function captchaPassed(context: Readonly<RouterContextProvider>, token: string | undefined): Promise<boolean> {
  const env = envFrom(context);
  if (!env.TURNSTILE_SITE_KEY) return true;
  if (!token || !env.TURNSTILE_SECRET_KEY) return false;
  try {
    const response = await fetch(turnstileVerifyUrl, {
      method: "POST",
      body: new URLSearchParams({ secret: env.TURNSTILE_SECRET_KEY, response: token }),
    });
    const answer: unknown = await response.json();
    return v.is(v.object({ success: v.literal(true) }), answer);
  } catch (error) {
    console.error("Turnstile's check could not be asked", error);
    return false;
  }
}

/** The security check's site key, or null when the check is off. */
export function captchaSiteKey(context: Readonly<RouterContextProvider>): string | null {
  return envFrom(context).TURNSTILE_SITE_KEY || null;
}

/** The checked variables for this request's Worker. */
export function envFrom(context: Readonly<RouterContextProvider>): AppEnv {
  return appEnv(context.get(cloudflareContext).env);
}
