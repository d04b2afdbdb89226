// Cloudflare Turnstile on the forms hosted Auth guards with its captcha protection: sign-in, both sign-ups
// and password recovery; and on a guest's checkout, which the Worker verifies itself (Turnstile's
// siteverify, with TURNSTILE_SECRET_KEY). On when the Worker has a site key (TURNSTILE_SITE_KEY) and Auth
// the matching secret; off, and nothing of it on any page, when the key is unset.
import { href } from "react-router";

export const turnstileOrigin = "https://challenges.cloudflare.com";
export const turnstileScript = `${turnstileOrigin}/turnstile/v0/api.js`;

/** The pages that show the check (and so the only ones whose CSP lets Turnstile in). */
export const captchaPaths: readonly string[] = [
  href("/login"),
  href("/register/artist"),
  href("/register/fan"),
  href("/forgot-password"),
  href("/cart"),
];

/** Turnstile's own check of a token (its siteverify API). */
export const turnstileVerifyUrl = `${turnstileOrigin}/turnstile/v0/siteverify`;

/** The field the widget adds to its form with the token Auth verifies. */
const captchaTokenField = "cf-turnstile-response";

export const captchaFailedMessage = "Please complete the security check, then try again.";

/** The widget's token as the form posted it, for Auth's `captchaToken`. */
export function captchaTokenFrom(formData: FormData): string | undefined {
  const token = formData.get(captchaTokenField);
  return typeof token === "string" && token !== "" ? token : undefined;
}
