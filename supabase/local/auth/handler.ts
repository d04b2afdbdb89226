import { json, type Stack } from "../context.ts";
import { outboxPage } from "../outbox.ts";
import { admin } from "./admin.ts";
import { authenticate, logout, updateUser } from "./user.ts";
import { errorResponse, AuthFailure, fail } from "./io.ts";
import { recover, verifyLink, verifyTokenHash } from "./recovery.ts";
import { signup, token } from "./sessions.ts";
import { toUser } from "./users.ts";

// The part of GoTrue (Supabase Auth) that supabase-js and @supabase/ssr use here, answering with GoTrue's
// status codes, error codes and messages so the client cannot tell the difference. Users, sessions and
// refresh tokens live in the auth schema of platform.sql. GoTrue is a privileged service, so every
// statement runs on the stack's own connection, never through asRole. Email confirmation is off, as in
// `supabase start` by default: a sign-up is confirmed at once and answered with a session.

export async function handle(req: Request, stack: Stack, subpath: string): Promise<Response> {
  try {
    return await route(req, stack, subpath);
  } catch (error) {
    if (error instanceof AuthFailure) return errorResponse(error);
    console.error(`auth: ${req.method} ${subpath}:`, error);
    return errorResponse(fail(500, "unexpected_failure", "Unexpected failure, please check server logs for more information"));
  }
}

// Cloudflare Turnstile's documented test secrets: one that passes every token, one that fails every token.
// Other secrets need Cloudflare's siteverify, which the local stack cannot reach.
const turnstileTestSecrets = { passes: "1x0000000000000000000000000000000AA", fails: "2x0000000000000000000000000000000AA" };

/**
 * GoTrue's captcha protection: with a secret set, sign-in with a password, sign-up and recovery need the
 * token the page's Turnstile widget made (`gotrue_meta_security.captcha_token`), checked before anything else.
 */
async function requireCaptcha(req: Request, stack: Stack, subpath: string): Promise<void> {
  const secret = stack.config.captchaSecret;
  if (!secret) return;
  const guarded =
    subpath === "/signup" ||
    subpath === "/recover" ||
    (subpath === "/token" && new URL(req.url).searchParams.get("grant_type") === "password");
  if (req.method !== "POST" || !guarded) return;
  const body = (await req
    .clone()
    .json()
    .catch(() => null)) as { gotrue_meta_security?: { captcha_token?: unknown } } | null;
  const token = body?.gotrue_meta_security?.captcha_token;
  if (typeof token !== "string" || token === "")
    throw fail(400, "captcha_failed", "captcha protection: request disallowed (no captcha response)");
  if (secret === turnstileTestSecrets.passes) return;
  if (secret === turnstileTestSecrets.fails)
    throw fail(400, "captcha_failed", "captcha protection: request disallowed (invalid-input-response)");
  throw fail(400, "captcha_failed", "captcha protection: the local stack verifies only Turnstile's test secrets");
}

async function route(req: Request, stack: Stack, subpath: string): Promise<Response> {
  await requireCaptcha(req, stack, subpath);
  switch (`${req.method} ${subpath}`) {
    case "POST /signup":
      return signup(req, stack);
    case "POST /token":
      return token(req, stack);
    case "GET /user":
      return json(toUser((await authenticate(req, stack)).user));
    case "PUT /user":
      return updateUser(req, stack);
    case "POST /logout":
      return logout(req, stack);
    case "POST /recover":
      return recover(req, stack);
    case "GET /verify":
      return verifyLink(req, stack);
    case "POST /verify":
      return verifyTokenHash(req, stack);
    case "GET /outbox":
      return outboxPage(stack.outbox);
  }
  if (subpath === "/admin/users" || subpath.startsWith("/admin/users/")) return admin(req, stack, subpath);
  throw fail(404, "not_found", `${req.method} ${subpath} is not supported by the local stack`);
}
