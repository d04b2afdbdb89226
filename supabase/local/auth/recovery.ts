import { randomBytes, randomUUID } from "node:crypto";
import { json, type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { deliver, escape } from "../outbox.ts";
import { AuthFailure, fail, recoveryLinkSeconds, digest, readBody, validEmail } from "./io.ts";
import { limitRecoveries } from "./rate-limit.ts";
import { findUser, isBanned } from "./users.ts";
import { redirectTarget } from "./redirects.ts";
import { authCodeRedirect, startSession } from "./sessions.ts";
import { confirmEmailChange } from "./email-change.ts";

// Password recovery: a link in the outbox, followed to /verify, answered with a session (implicit flow)
// or an auth code for /token?grant_type=pkce (PKCE flow, what @supabase/ssr uses). /verify also takes the
// links of an email change (email-change.ts).

export async function recover(req: Request, stack: Stack): Promise<Response> {
  limitRecoveries(req, stack);
  const body = await readBody(req);
  const email = validEmail(body.email, "Password recovery requires an email");
  const pkce = pkceChallenge(body);
  const redirectTo = redirectTarget(stack.config, new URL(req.url).searchParams.get("redirect_to"), req.headers.get("referer"));
  const mail = await stack.db.transaction(async (tx) => {
    const user = await findUser(tx, "u.email = $1", [email]);
    if (!user) return null;
    // One email a minute per user (GoTrue's max frequency), answered like any other request: a flood of
    // requests for one address sends it one email, and says nothing about whether it has an account.
    if (user.recovery_sent_at && Date.parse(user.recovery_sent_at) > Date.now() - 60_000) return null;
    // Only a hash is stored; the link carries the token itself. The prefix tells /verify which flow it is.
    const token = (pkce ? "pkce_" : "") + randomBytes(28).toString("hex");
    await tx.query(`update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1`, [user.id, digest(token)]);
    if (pkce) {
      await tx.query(
        `insert into auth.flow_state
                (user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method)
         values ($1, $2, $3, $4, 'recovery', 'recovery')`,
        [user.id, randomUUID(), pkce.method, pkce.challenge],
      );
    }
    return recoveryMail(stack, { token, email, redirectTo });
  });
  // The answer is the same whether or not the email belongs to someone: it must not reveal who has an account.
  if (mail) deliver(stack, { to: email, subject: "Reset Your Password", ...mail });
  return json({});
}

/**
 * The reset email: GoTrue's default, a link to /verify (the ConfirmationURL), or the project's template
 * rendered with GoTrue's variables. TokenHash is what the database keeps, which verifyOtp({ token_hash })
 * takes back.
 */
function recoveryMail(stack: Stack, { token, email, redirectTo }: { token: string; email: string; redirectTo: string }) {
  const confirmationUrl = `${stack.config.publicUrl}/auth/v1/verify?${new URLSearchParams({ token, type: "recovery", redirect_to: redirectTo })}`;
  const template = stack.config.recoveryTemplate;
  if (!template) {
    return {
      text: `Follow this link to reset the password for your user:\n${confirmationUrl}\n`,
      html: `<h2>Reset Password</h2>
<p>Follow this link to reset the password for your user:</p>
<p><a href="${escape(confirmationUrl)}">Reset Password</a></p>`,
      link: confirmationUrl,
    };
  }
  const variables: Record<string, string> = {
    ConfirmationURL: confirmationUrl,
    Email: email,
    RedirectTo: redirectTo,
    SiteURL: stack.config.siteUrl,
    TokenHash: digest(token),
  };
  const html = template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, name: string) => escape(variables[name] ?? ""));
  const href = /href="([^"]*)"/.exec(html)?.[1];
  const link = href === undefined ? undefined : unescapeHtml(href);
  return { text: link ? `Follow this link to reset your password:\n${link}\n` : html, html, link };
}

function unescapeHtml(text: string): string {
  return text.replace(/&(?:#(\d+)|amp);/g, (_, code?: string) => (code ? String.fromCharCode(Number(code)) : "&"));
}

export function pkceChallenge(body: Record<string, unknown>): { challenge: string; method: "s256" | "plain" } | null {
  const challenge = typeof body.code_challenge === "string" ? body.code_challenge : "";
  const method = typeof body.code_challenge_method === "string" ? body.code_challenge_method.toLowerCase() : "";
  if (!challenge && !method) return null;
  if (!challenge || !method) {
    throw fail(400, "validation_failed", "PKCE flow requires code_challenge_method and code_challenge");
  }
  if (method !== "s256" && method !== "plain") throw fail(400, "validation_failed", "code challenge method not supported");
  if (challenge.length < 43 || challenge.length > 128) {
    throw fail(400, "validation_failed", "code challenge has to be between 43 and 128 characters");
  }
  return { challenge, method };
}

/** The emailed link: GoTrue answers it with 303 redirects, carrying errors in the redirect too. */
export async function verifyLink(req: Request, stack: Stack): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const token = params.get("token") ?? "";
  const redirectTo = redirectTarget(stack.config, params.get("redirect_to"), req.headers.get("referer"));
  const pkce = token.startsWith("pkce_");
  // The implicit flow's answer: the new session in the redirect's fragment.
  const sessionFragment = async (tx: Db, userId: string, type: string) => {
    const session = await startSession(tx, stack, req, userId, "otp");
    return new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: session.token_type,
      type,
      sb: "",
    });
  };
  try {
    const type = params.get("type");
    if (type !== "recovery" && type !== "email_change") throw fail(400, "validation_failed", "Unsupported verification type");
    const location = await stack.db.transaction(async (tx) => {
      if (type === "email_change") return confirmEmailChange(tx, token, redirectTo, (userId) => sessionFragment(tx, userId, type));
      const userId = await spendRecoveryToken(tx, token, "Email link is invalid or has expired");
      if (pkce) return authCodeRedirect(tx, userId, "recovery", redirectTo);
      return `${redirectTo}#${await sessionFragment(tx, userId, "recovery")}`;
    });
    return seeOther(location);
  } catch (error) {
    if (!(error instanceof AuthFailure)) throw error;
    return seeOther(errorRedirect(redirectTo, error, pkce));
  }
}

/** verifyOtp({ token_hash, type: 'recovery' }): the link's token sent by the app itself. */
export async function verifyTokenHash(req: Request, stack: Stack): Promise<Response> {
  const body = await readBody(req);
  if (body.type !== "recovery") throw fail(400, "validation_failed", "Unsupported verification type");
  const tokenHash = typeof body.token_hash === "string" ? body.token_hash : "";
  if (!tokenHash) throw fail(400, "validation_failed", "Verify requires a token_hash");
  const session = await stack.db.transaction(async (tx) => {
    const userId = await spendRecoveryToken(tx, tokenHash, "Token has expired or is invalid", { hashed: true });
    return startSession(tx, stack, req, userId, "otp");
  });
  return json(session);
}

/**
 * A recovery link works once, within the hour, for a user who is not banned; following it confirms the
 * email. /verify gets the token itself, verifyOtp the hash kept of it (the template's TokenHash).
 */
async function spendRecoveryToken(tx: Db, token: string, invalidMessage: string, { hashed = false } = {}): Promise<string> {
  const { rows } = await tx.query<{ id: string; banned: boolean }>(
    `update auth.users
        set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
      where recovery_token = $1 and recovery_sent_at > now() - $2 * interval '1 second'
      returning id, ${isBanned} as banned`,
    [hashed ? token : digest(token), recoveryLinkSeconds],
  );
  if (!rows[0]) throw fail(403, "otp_expired", invalidMessage);
  if (rows[0].banned) throw fail(403, "user_banned", "User is banned");
  return rows[0].id;
}

const oauthErrors: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

function errorRedirect(target: string, failure: AuthFailure, pkce: boolean): string {
  const params = new URLSearchParams();
  if (oauthErrors[failure.status]) params.set("error", oauthErrors[failure.status]);
  params.set("error_code", failure.code);
  params.set("error_description", failure.message);
  const url = new URL(target);
  url.search = pkce ? params.toString() : "";
  url.hash = params.toString();
  return url.toString();
}

function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location } });
}
