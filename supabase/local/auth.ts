import { createHash, randomBytes, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import type { StackConfig } from "./config.ts";
import { json, type Stack } from "./context.ts";
import type { Db } from "./db.ts";
import { signJwt, verifyJwt } from "./jwt.ts";
import { deliver, escape, outboxPage } from "./outbox.ts";

// The part of GoTrue (Supabase Auth) that supabase-js and @supabase/ssr use here, answering with GoTrue's
// status codes, error codes and messages so the client cannot tell the difference. Users, sessions and
// refresh tokens live in the auth schema of platform.sql. GoTrue is a privileged service, so every
// statement runs on the stack's own connection, never through asRole. Email confirmation is off, as in
// `supabase start` by default: a sign-up is confirmed at once and answered with a session.

const accessTokenSeconds = 3600;
// The product's minimum (spec: minimum password length 8); GoTrue's default is 6.
const passwordMinLength = 8;
// A rotated refresh token used again within this window is a client that lost the answer, not an attack.
const refreshTokenReuseSeconds = 10;
const recoveryLinkSeconds = 3600;
// How long a PKCE auth code waits for its verifier once the link has been followed.
const authCodeSeconds = 300;
// GoTrue's default for /token: 150 requests per 5 minutes per IP address, in bursts of at most 30.
const defaultTokensPerFiveMinutes = 150;
const tokenBurst = 30;

class AuthFailure extends Error {
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

function fail(status: number, code: string, message: string, extra?: Record<string, unknown>): AuthFailure {
  return new AuthFailure(status, code, message, extra);
}

export async function handle(req: Request, stack: Stack, subpath: string): Promise<Response> {
  try {
    return await route(req, stack, subpath);
  } catch (error) {
    if (error instanceof AuthFailure) return errorResponse(req, error);
    console.error(`auth: ${req.method} ${subpath}:`, error);
    return errorResponse(req, fail(500, "unexpected_failure", "Unexpected failure, please check server logs for more information"));
  }
}

async function route(req: Request, stack: Stack, subpath: string): Promise<Response> {
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
    case "GET /settings":
      return json(settings);
    case "GET /health":
      return json({ version: "local", name: "GoTrue", description: "The local stack’s GoTrue subset" });
    case "GET /outbox":
      return outboxPage(stack.outbox);
  }
  if (subpath === "/admin/users" || subpath.startsWith("/admin/users/")) return admin(req, stack, subpath);
  throw fail(404, "not_found", "Not Found");
}

const settings = {
  external: { email: true, phone: false, anonymous_users: false },
  disable_signup: false,
  mailer_autoconfirm: true,
  phone_autoconfirm: false,
  sms_provider: "",
  saml_enabled: false,
};

// ---------------------------------------------------------------------------------------------------
// Sign-up, sign-in and sessions

async function signup(req: Request, stack: Stack): Promise<Response> {
  const body = await readBody(req);
  const email = validEmail(body.email, "To signup, please provide your email");
  const password = strongPassword(body.password);
  const data = isObject(body.data) ? body.data : {};
  const session = await stack.db.transaction(async (tx) => {
    if (await findUser(tx, "u.email = $1", [email])) throw fail(422, "user_already_exists", "User already registered");
    // The profile trigger runs inside this insert: when it rejects the metadata nothing is left behind.
    const fields = { email, password, userMetadata: data, confirmed: true };
    const id = await createUser(tx, stack, fields, "Database error saving new user");
    return startSession(tx, stack, req, id, "password");
  });
  return json(session);
}

async function token(req: Request, stack: Stack): Promise<Response> {
  limitTokenRequests(req, stack);
  const body = await readBody(req);
  switch (new URL(req.url).searchParams.get("grant_type")) {
    case "password":
      return json(await passwordGrant(req, stack, body));
    case "refresh_token":
      return json(await refreshTokenGrant(req, stack, body));
    case "pkce":
      return json(await pkceGrant(req, stack, body));
    default:
      throw fail(400, "validation_failed", "unsupported_grant_type");
  }
}

async function passwordGrant(req: Request, stack: Stack, body: Record<string, unknown>): Promise<TokenResponse> {
  const email = typeof body.email === "string" ? normalizeEmail(body.email) : "";
  const password = typeof body.password === "string" ? body.password : "";
  return stack.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; matches: boolean; banned: boolean; confirmed: boolean }>(
      `select id, ${passwordMatches("$2")} as matches, ${isBanned} as banned,
              email_confirmed_at is not null as confirmed
         from auth.users where email = $1 and deleted_at is null`,
      [email, password],
    );
    const user = rows[0];
    if (!user?.matches) throw fail(400, "invalid_credentials", "Invalid login credentials");
    if (user.banned) throw fail(400, "user_banned", "User is banned");
    if (!user.confirmed) throw fail(400, "email_not_confirmed", "Email not confirmed");
    return startSession(tx, stack, req, user.id, "password");
  });
}

type RefreshTokenRow = { id: number; user_id: string; session_id: string | null; revoked: boolean; reuse_over: boolean };

// Rotation as GoTrue does it: each use revokes the token and issues its child in the same session. A
// revoked token is still honoured when it is the parent of the session's live token (the client missed
// the answer) or within the reuse window; otherwise it is treated as stolen and the whole session's
// tokens are revoked.
async function refreshTokenGrant(req: Request, stack: Stack, body: Record<string, unknown>): Promise<TokenResponse> {
  const presented = typeof body.refresh_token === "string" ? body.refresh_token : "";
  if (!presented) throw fail(400, "validation_failed", "refresh_token required");
  const outcome = await stack.db.transaction(async (tx): Promise<TokenResponse | AuthFailure> => {
    const { rows } = await tx.query<RefreshTokenRow>(
      `select id, user_id, session_id, revoked, updated_at < now() - $2 * interval '1 second' as reuse_over
         from auth.refresh_tokens where token = $1 for update`,
      [presented, refreshTokenReuseSeconds],
    );
    const current = rows[0];
    if (!current) throw fail(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    const user = await findUser(tx, "u.id = $1::uuid", [current.user_id]);
    if (!user) throw fail(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    if (user.banned) throw fail(400, "user_banned", "Invalid Refresh Token: User Banned");
    const session = await findSession(tx, current.session_id);
    if (!session) throw fail(400, "session_not_found", "Invalid Refresh Token: No Valid Session Found");
    if (session.expired) throw fail(400, "session_expired", "Invalid Refresh Token: Session Expired");

    let issued: string | undefined;
    if (current.revoked) {
      const { rows: live } = await tx.query<{ token: string; parent: string | null }>(
        `select token, parent from auth.refresh_tokens
          where session_id = $1 and not revoked order by id desc limit 1`,
        [session.id],
      );
      if (live[0]?.parent === presented) issued = live[0].token;
      else if (current.reuse_over) {
        await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked`, [
          session.id,
        ]);
        // returned, not thrown: the revocation must be committed although the request fails
        return fail(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
      }
    } else {
      await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [current.id]);
    }
    issued ??= await issueRefreshToken(tx, user.id, session.id, presented);
    await tx.query(`update auth.sessions set refreshed_at = now(), updated_at = now(), user_agent = $2, ip = $3 where id = $1`, [
      session.id,
      req.headers.get("user-agent"),
      ipOrNull(req),
    ]);
    return tokenResponse(stack.config, user, session.id, issued);
  });
  if (outcome instanceof AuthFailure) throw outcome;
  return outcome;
}

type FlowStateRow = {
  id: string;
  user_id: string;
  code_challenge: string;
  code_challenge_method: "s256" | "plain";
  authentication_method: string;
  expired: boolean;
};

async function pkceGrant(req: Request, stack: Stack, body: Record<string, unknown>): Promise<TokenResponse> {
  const authCode = typeof body.auth_code === "string" ? body.auth_code : "";
  const verifier = typeof body.code_verifier === "string" ? body.code_verifier : "";
  if (!authCode || !verifier) {
    throw fail(400, "validation_failed", "invalid request: both auth code and code verifier should be non-empty");
  }
  return stack.db.transaction(async (tx) => {
    const { rows } = await tx.query<FlowStateRow>(
      `select id, user_id, code_challenge, code_challenge_method, authentication_method,
              coalesce(auth_code_issued_at, created_at) < now() - $2 * interval '1 second' as expired
         from auth.flow_state where auth_code = $1 for update`,
      [authCode, authCodeSeconds],
    );
    const flow = rows[0];
    if (!flow) throw fail(404, "flow_state_not_found", "invalid flow state, no valid flow state found");
    if (flow.expired) throw fail(400, "flow_state_expired", "invalid flow state, flow state has expired");
    const challenge = flow.code_challenge_method === "s256" ? createHash("sha256").update(verifier).digest("base64url") : verifier;
    if (challenge !== flow.code_challenge) {
      throw fail(403, "bad_code_verifier", "code challenge does not match previously saved code verifier");
    }
    await tx.query("delete from auth.flow_state where id = $1", [flow.id]);
    const user = await findUser(tx, "u.id = $1", [flow.user_id]);
    if (!user) throw fail(404, "user_not_found", "User not found");
    if (user.banned) throw fail(400, "user_banned", "User is banned");
    return startSession(tx, stack, req, user.id, flow.authentication_method);
  });
}

type TokenResponse = {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
};

async function startSession(tx: Db, stack: Stack, req: Request, userId: string, method: string): Promise<TokenResponse> {
  const sessionId = randomUUID();
  await tx.query(`insert into auth.sessions (id, user_id, aal, user_agent, ip) values ($1, $2, 'aal1', $3, $4)`, [
    sessionId,
    userId,
    req.headers.get("user-agent"),
    ipOrNull(req),
  ]);
  const refreshToken = await issueRefreshToken(tx, userId, sessionId, null);
  await tx.query("update auth.users set last_sign_in_at = now() where id = $1", [userId]);
  await tx.query(`update auth.identities set last_sign_in_at = now() where user_id = $1`, [userId]);
  const user = await mustFindUser(tx, userId);
  return tokenResponse(stack.config, user, sessionId, refreshToken, [{ method, timestamp: seconds() }]);
}

async function issueRefreshToken(tx: Db, userId: string, sessionId: string, parent: string | null): Promise<string> {
  const token = randomBytes(16).toString("base64url");
  await tx.query(`insert into auth.refresh_tokens (token, user_id, session_id, parent, revoked) values ($1, $2, $3, $4, false)`, [
    token,
    userId,
    sessionId,
    parent,
  ]);
  return token;
}

/**
 * The access token carries the claims GoTrue issues. `amr` is only known when the session starts: GoTrue
 * keeps it in auth.mfa_amr_claims, which the local schema lacks, so refreshed tokens omit it as GoTrue
 * does for sessions without recorded claims.
 */
function tokenResponse(
  config: StackConfig,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  amr?: { method: string; timestamp: number }[],
): TokenResponse {
  const iat = seconds();
  const exp = iat + accessTokenSeconds;
  const claims = {
    iss: `${config.publicUrl}/auth/v1`,
    sub: user.id,
    aud: user.aud,
    exp,
    iat,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role,
    aal: "aal1",
    ...(amr ? { amr } : {}),
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return {
    access_token: signJwt(claims, config.jwtSecret),
    token_type: "bearer",
    expires_in: accessTokenSeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: toUser(user),
  };
}

async function findSession(tx: Db, id: string | null): Promise<{ id: string; expired: boolean } | null> {
  if (!id) return null;
  const { rows } = await tx.query<{ id: string; expired: boolean }>(
    `select id, coalesce(not_after < now(), false) as expired from auth.sessions where id = $1 for update`,
    [id],
  );
  return rows[0] ?? null;
}

// ---------------------------------------------------------------------------------------------------
// The signed-in user

type AccessClaims = { sub?: string; role?: string; session_id?: string };

/** The caller of /user and /logout, checked as GoTrue does: a valid JWT, a user, not banned, a live session. */
async function authenticate(req: Request, stack: Stack): Promise<{ user: UserRow; sessionId: string | null }> {
  const claims = verifiedClaims(req, stack.config);
  if (!claims.sub) throw fail(403, "bad_jwt", "invalid claim: missing sub claim");
  if (!isUuid(claims.sub)) throw fail(400, "bad_jwt", "invalid claim: sub claim must be a UUID");
  const user = await findUser(stack.db, "u.id = $1", [claims.sub]);
  if (!user) throw fail(403, "user_not_found", "User from sub claim in JWT does not exist");
  if (user.banned) throw fail(403, "user_banned", "User is banned");
  const sessionId = claims.session_id && isUuid(claims.session_id) ? claims.session_id : null;
  if (sessionId) {
    const { rows } = await stack.db.query("select 1 from auth.sessions where id = $1", [sessionId]);
    // supabase-js reads this code as "signed out" and drops its stored session
    if (rows.length === 0) throw fail(403, "session_not_found", "Session from session_id claim in JWT does not exist");
  }
  return { user, sessionId };
}

function verifiedClaims(req: Request, config: StackConfig): AccessClaims {
  const token = /^\s*bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  if (!token) throw fail(401, "no_authorization", "This endpoint requires a Bearer token");
  try {
    return verifyJwt<AccessClaims>(token, config.jwtSecret);
  } catch (error) {
    throw fail(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${(error as Error).message}`);
  }
}

async function updateUser(req: Request, stack: Stack): Promise<Response> {
  const { user, sessionId } = await authenticate(req, stack);
  const body = await readBody(req);
  if (typeof body.email === "string" && normalizeEmail(body.email) !== user.email) {
    throw fail(422, "validation_failed", "Changing the email address is not supported by the local stack");
  }
  await stack.db.transaction(async (tx) => {
    if (body.password !== undefined) {
      const password = strongPassword(body.password);
      const { rows } = await tx.query<{ same: boolean }>(`select ${passwordMatches("$2")} as same from auth.users where id = $1`, [
        user.id,
        password,
      ]);
      if (rows[0]?.same) {
        throw fail(422, "same_password", "New password should be different from the old password.");
      }
      await setPassword(tx, user.id, password, sessionId);
    }
    if (isObject(body.data)) await setMetadata(tx, user.id, "raw_user_meta_data", merged(user.raw_user_meta_data, body.data));
  });
  return json(toUser(await mustFindUser(stack.db, user.id)));
}

/**
 * A new password ends every other session (GoTrue: the old password may be in someone else's hands) and
 * spends any outstanding recovery link.
 */
async function setPassword(tx: Db, userId: string, password: string, keepSessionId: string | null): Promise<void> {
  await tx.query(
    `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf')),
            recovery_token = '', recovery_sent_at = null, updated_at = now()
      where id = $1`,
    [userId, password],
  );
  await tx.query("delete from auth.sessions where user_id = $1 and id is distinct from $2", [userId, keepSessionId]);
}

async function logout(req: Request, stack: Stack): Promise<Response> {
  const scope = new URL(req.url).searchParams.get("scope") ?? "global";
  if (!["global", "local", "others"].includes(scope)) {
    throw fail(400, "validation_failed", `Unsupported logout scope "${scope}"`);
  }
  const { user, sessionId } = await authenticate(req, stack);
  // Refresh tokens go with their session (on delete cascade), so a signed-out token can never refresh.
  if (scope === "global" || !sessionId) {
    await stack.db.query("delete from auth.sessions where user_id = $1", [user.id]);
  } else if (scope === "local") {
    await stack.db.query("delete from auth.sessions where id = $1", [sessionId]);
  } else {
    await stack.db.query("delete from auth.sessions where user_id = $1 and id <> $2", [user.id, sessionId]);
  }
  return new Response(null, { status: 204 });
}

// ---------------------------------------------------------------------------------------------------
// Password recovery: a link in the outbox, followed to /verify, answered with a session (implicit flow)
// or an auth code for /token?grant_type=pkce (PKCE flow, what @supabase/ssr uses).

async function recover(req: Request, stack: Stack): Promise<Response> {
  const body = await readBody(req);
  const email = validEmail(body.email, "Password recovery requires an email");
  const pkce = pkceChallenge(body);
  const redirectTo = redirectTarget(stack.config, new URL(req.url).searchParams.get("redirect_to"), req.headers.get("referer"));
  const link = await stack.db.transaction(async (tx) => {
    const user = await findUser(tx, "u.email = $1", [email]);
    if (!user) return null;
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
    const query = new URLSearchParams({ token, type: "recovery", redirect_to: redirectTo });
    return `${stack.config.publicUrl}/auth/v1/verify?${query}`;
  });
  // The answer is the same whether or not the email belongs to someone: it must not reveal who has an account.
  if (link) {
    deliver(stack, {
      to: email,
      subject: "Reset Your Password",
      text: `Follow this link to reset the password for your user:\n${link}\n`,
      html: `<h2>Reset Password</h2>
<p>Follow this link to reset the password for your user:</p>
<p><a href="${escape(link)}">Reset Password</a></p>`,
      link,
    });
  }
  return json({});
}

function pkceChallenge(body: Record<string, unknown>): { challenge: string; method: "s256" | "plain" } | null {
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
async function verifyLink(req: Request, stack: Stack): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const token = params.get("token") ?? "";
  const redirectTo = redirectTarget(stack.config, params.get("redirect_to"), req.headers.get("referer"));
  const pkce = token.startsWith("pkce_");
  try {
    if (params.get("type") !== "recovery") throw fail(400, "validation_failed", "Unsupported verification type");
    const location = await stack.db.transaction(async (tx) => {
      const userId = await spendRecoveryToken(tx, token, "Email link is invalid or has expired");
      if (pkce) {
        const { rows } = await tx.query<{ auth_code: string }>(
          `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
            where id = (select id from auth.flow_state where user_id = $1 and authentication_method = 'recovery'
                         order by created_at desc limit 1)
            returning auth_code`,
          [userId],
        );
        if (!rows[0]) throw fail(404, "flow_state_not_found", "No associated flow state found");
        const url = new URL(redirectTo);
        url.searchParams.set("code", rows[0].auth_code);
        return url.toString();
      }
      const session = await startSession(tx, stack, req, userId, "otp");
      const fragment = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: session.token_type,
        type: "recovery",
        sb: "",
      });
      return `${redirectTo}#${fragment}`;
    });
    return seeOther(location);
  } catch (error) {
    if (!(error instanceof AuthFailure)) throw error;
    return seeOther(errorRedirect(redirectTo, error, pkce));
  }
}

/** verifyOtp({ token_hash, type: 'recovery' }): the link's token sent by the app itself. */
async function verifyTokenHash(req: Request, stack: Stack): Promise<Response> {
  const body = await readBody(req);
  if (body.type !== "recovery") throw fail(400, "validation_failed", "Unsupported verification type");
  const tokenHash = typeof body.token_hash === "string" ? body.token_hash : "";
  if (!tokenHash) throw fail(400, "validation_failed", "Verify requires a token_hash");
  const session = await stack.db.transaction(async (tx) => {
    const userId = await spendRecoveryToken(tx, tokenHash, "Token has expired or is invalid");
    return startSession(tx, stack, req, userId, "otp");
  });
  return json(session);
}

/** A recovery link works once, within the hour, for a user who is not banned; following it confirms the email. */
async function spendRecoveryToken(tx: Db, token: string, invalidMessage: string): Promise<string> {
  const { rows } = await tx.query<{ id: string; banned: boolean }>(
    `update auth.users
        set recovery_token = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
      where recovery_token = $1 and recovery_sent_at > now() - $2 * interval '1 second'
      returning id, ${isBanned} as banned`,
    [digest(token), recoveryLinkSeconds],
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

// ---------------------------------------------------------------------------------------------------
// redirect_to: only back to the site or an allowed URL, never to another origin (GoTrue's IsRedirectURLValid)

function redirectTarget(config: StackConfig, requested: string | null, referer: string | null): string {
  for (const candidate of [requested, referer]) {
    if (candidate && isAllowedRedirect(config, candidate)) return candidate;
  }
  return config.siteUrl;
}

const regularHostname = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?$/;

export function isAllowedRedirect(config: Pick<StackConfig, "siteUrl" | "redirectAllowList">, target: string): boolean {
  // control characters and spaces are never in a real URL, and browsers would strip them into another address
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(target)) return false;
  let url: URL | null = null;
  try {
    url = new URL(target);
  } catch {
    // an http(s) URL always parses; one that does not is an obfuscation attempt
    if (/^https?:/i.test(target)) return false;
  }
  if (url) {
    const site = new URL(config.siteUrl);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
    // the site itself; on loopback any port, as native apps and dev servers pick their own
    if (url.hostname === site.hostname && url.protocol === site.protocol && (url.port === site.port || isLoopback(host))) {
      return true;
    }
    if (isIP(host)) return isLoopback(host);
    if (/^https?:$/.test(url.protocol) && !regularHostname.test(host)) return false;
  }
  const withoutFragment = target.split("#")[0];
  return config.redirectAllowList.some((pattern) => globPattern(pattern).test(withoutFragment));
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || (isIP(host) === 4 && host.startsWith("127."));
}

/** GoTrue's allow-list globs (gobwas/glob with '.' and '/' as separators): `**` spans them, `*` and `?` do not. */
function globPattern(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*|\?)/)
    .map((part) => {
      if (part === "**") return ".*";
      if (part === "*") return "[^./]*";
      if (part === "?") return "[^./]";
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return new RegExp(`^${source}$`);
}

// ---------------------------------------------------------------------------------------------------
// Rate limit on /token per client address (a token bucket, as GoTrue's tollbooth limiter)

const tokenBuckets = new WeakMap<Stack, Map<string, { tokens: number; at: number }>>();

function limitTokenRequests(req: Request, stack: Stack): void {
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

function ipOrNull(req: Request): string | null {
  const address = clientAddress(req);
  return isIP(address) ? address : null;
}

// ---------------------------------------------------------------------------------------------------
// Admin API (service-role key only)

async function admin(req: Request, stack: Stack, subpath: string): Promise<Response> {
  const claims = verifiedClaims(req, stack.config);
  if (claims.role !== "service_role" && claims.role !== "supabase_admin") {
    throw fail(403, "not_admin", "User not allowed");
  }
  if (subpath === "/admin/users") {
    if (req.method === "GET") return listUsers(req, stack);
    if (req.method === "POST") return adminCreateUser(req, stack);
    throw fail(405, "method_not_allowed", "Method Not Allowed");
  }
  const id = decodeURIComponent(subpath.slice("/admin/users/".length));
  if (!isUuid(id)) throw fail(400, "validation_failed", "user_id must be an UUID");
  const user = await findUser(stack.db, "u.id = $1", [id]);
  if (!user) throw fail(404, "user_not_found", "User not found");
  if (req.method === "GET") return json(toUser(user));
  if (req.method === "PUT") return adminUpdateUser(req, stack, user);
  if (req.method === "DELETE") {
    // sessions, refresh tokens and identities go with the user (on delete cascade)
    await stack.db.query("delete from auth.users where id = $1", [id]).catch((error) => {
      throw databaseFailure(stack, "Database error deleting user", error);
    });
    return json({});
  }
  throw fail(405, "method_not_allowed", "Method Not Allowed");
}

/** Newest first, with GoTrue's X-Total-Count and Link headers (`page` first: the client reads it by position). */
async function listUsers(req: Request, stack: Stack): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const page = positiveInteger(params.get("page"), 1);
  const perPage = positiveInteger(params.get("per_page"), 50);
  const { rows } = await stack.db.query<{ total: number }>("select count(*)::int as total from auth.users where deleted_at is null");
  const total = rows[0].total;
  const users = await findUsers(stack.db, "u.deleted_at is null order by u.created_at desc, u.id limit $1 offset $2", [
    perPage,
    (page - 1) * perPage,
  ]);
  const lastPage = Math.ceil(total / perPage);
  const pageUrl = (n: number) => `<${stack.config.publicUrl}/auth/v1/admin/users?page=${n}&per_page=${perPage}>`;
  const links = [...(page < lastPage ? [`${pageUrl(page + 1)}; rel="next"`] : []), `${pageUrl(lastPage)}; rel="last"`];
  return json({ users: users.map(toUser), aud: "authenticated" }, 200, {
    "x-total-count": String(total),
    link: links.join(", "),
  });
}

async function adminCreateUser(req: Request, stack: Stack): Promise<Response> {
  const body = await readBody(req);
  const email = validEmail(body.email, "Cannot create a user without either an email or phone");
  const bannedFor = banDuration(body.ban_duration);
  const id = await stack.db.transaction(async (tx) => {
    if (await findUser(tx, "u.email = $1", [email])) {
      throw fail(422, "email_exists", "A user with this email address has already been registered");
    }
    const fields = {
      email,
      // GoTrue gives a user created without a password one nobody knows
      password: typeof body.password === "string" && body.password ? body.password : randomBytes(32).toString("base64url"),
      userMetadata: isObject(body.user_metadata) ? body.user_metadata : {},
      confirmed: body.email_confirm === true,
    };
    const id = await createUser(tx, stack, fields, "Database error creating new user");
    await setAdminAttributes(tx, await mustFindUser(tx, id), body, bannedFor);
    return id;
  });
  return json(toUser(await mustFindUser(stack.db, id)));
}

async function adminUpdateUser(req: Request, stack: Stack, user: UserRow): Promise<Response> {
  const body = await readBody(req);
  const bannedFor = banDuration(body.ban_duration);
  const email = typeof body.email === "string" ? validEmail(body.email, "") : null;
  const password = body.password === undefined ? null : strongPassword(body.password);
  await stack.db.transaction(async (tx) => {
    if (body.email_confirm === true) {
      await tx.query("update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1", [user.id]);
    }
    if (password !== null) await setPassword(tx, user.id, password, null);
    if (email !== null && email !== user.email) {
      if (await findUser(tx, "u.email = $1", [email])) {
        throw fail(422, "email_exists", "A user with this email address has already been registered");
      }
      await tx.query("update auth.users set email = $2 where id = $1", [user.id, email]);
      await tx.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
          where user_id = $1 and provider = 'email'`,
        [user.id, email],
      );
    }
    if (isObject(body.user_metadata)) {
      await setMetadata(tx, user.id, "raw_user_meta_data", merged(user.raw_user_meta_data, body.user_metadata));
    }
    await setAdminAttributes(tx, user, body, bannedFor);
    await tx.query("update auth.users set updated_at = now() where id = $1", [user.id]);
  });
  return json(toUser(await mustFindUser(stack.db, user.id)));
}

/** What an admin may set both when creating and when updating a user. */
async function setAdminAttributes(
  tx: Db,
  user: UserRow,
  body: Record<string, unknown>,
  bannedFor: number | null | undefined,
): Promise<void> {
  if (typeof body.role === "string" && body.role) {
    await tx.query("update auth.users set role = $2 where id = $1", [user.id, body.role]);
  }
  if (isObject(body.app_metadata)) {
    await setMetadata(tx, user.id, "raw_app_meta_data", merged(user.raw_app_meta_data, body.app_metadata));
  }
  if (bannedFor !== undefined) await ban(tx, user.id, bannedFor);
}

/**
 * A ban (null lifts it) also revokes the user's refresh tokens, so no session outlives it; the rows stay,
 * so a refresh attempt answers user_banned as GoTrue does.
 */
async function ban(tx: Db, userId: string, milliseconds: number | null): Promise<void> {
  await tx.query(`update auth.users set banned_until = now() + $2 * interval '1 millisecond' where id = $1`, [userId, milliseconds]);
  if (milliseconds !== null && milliseconds > 0) {
    await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where user_id = $1::text and not revoked`, [userId]);
  }
}

/** `ban_duration` is a Go duration ('876000h', '1h30m'); 'none' lifts the ban. undefined = not asked. */
function banDuration(value: unknown): number | null | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "none") return null;
  const text = typeof value === "string" ? value : "";
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1e3, m: 6e4, h: 3.6e6 };
  const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|ms|s|m|h)/g;
  const sign = text.startsWith("-") ? -1 : 1;
  const unsigned = text.replace(/^[+-]/, "");
  if (unsigned === "0") return 0;
  if (!unsigned || unsigned.replace(part, "") !== "") {
    throw fail(400, "validation_failed", `invalid format for ban duration: time: invalid duration "${text}"`);
  }
  let total = 0;
  for (const [, amount, unit] of unsigned.matchAll(part)) total += Number(amount) * units[unit];
  return sign * total;
}

// ---------------------------------------------------------------------------------------------------
// Users

const defaultAppMetadata = { provider: "email", providers: ["email"] };

async function createUser(
  tx: Db,
  stack: Stack,
  fields: { email: string; password: string; userMetadata: Record<string, unknown>; confirmed: boolean },
  failureMessage: string,
): Promise<string> {
  const id = randomUUID();
  // GoTrue copies the email identity's data into the user's metadata
  const identity = { sub: id, email: fields.email, email_verified: fields.confirmed, phone_verified: false };
  try {
    await tx.query(
      `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
       values ($1, 'authenticated', 'authenticated', $2, extensions.crypt($3, extensions.gen_salt('bf')),
               case when $4::boolean then now() end, $5::jsonb, $6::jsonb, now(), now(), false)`,
      [
        id,
        fields.email,
        fields.password,
        fields.confirmed,
        JSON.stringify(defaultAppMetadata),
        JSON.stringify({ ...fields.userMetadata, ...identity }),
      ],
    );
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
       values ($1, $2, $3::jsonb, 'email', now(), now())`,
      [id, id, JSON.stringify(identity)],
    );
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw fail(422, "user_already_exists", "User already registered");
    }
    // a trigger rejecting the metadata, say
    throw databaseFailure(stack, failureMessage, error);
  }
  return id;
}

/** GoTrue answers a database error with a fixed message; the cause only goes to the log. */
function databaseFailure(stack: Stack, message: string, error: unknown): AuthFailure {
  if (stack.config.verbose) console.warn(`auth: ${message}:`, (error as Error).message);
  return fail(500, "unexpected_failure", message);
}

type UserRow = {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  phone: string | null;
  email_confirmed_at: string | null;
  confirmed_at: string | null;
  recovery_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  banned_until: string | null;
  banned: boolean;
  identities: unknown[];
  created_at: string;
  updated_at: string;
  is_anonymous: boolean;
};

const isBanned = "coalesce(banned_until > now(), false)";

function passwordMatches(param: string): string {
  // crypt() raises on anything but a bcrypt hash (users created without a password)
  return `case when encrypted_password like '$2%'
               then encrypted_password = extensions.crypt(${param}, encrypted_password) else false end`;
}

const userSelect = `
  select u.id, u.aud, u.role, u.email, u.phone, u.email_confirmed_at, u.confirmed_at, u.recovery_sent_at,
         u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data, u.banned_until, u.created_at, u.updated_at,
         u.is_anonymous, ${isBanned} as banned,
         coalesce((select json_agg(json_build_object(
                    'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id, 'identity_data', i.identity_data,
                    'provider', i.provider, 'last_sign_in_at', i.last_sign_in_at, 'created_at', i.created_at,
                    'updated_at', i.updated_at, 'email', i.email) order by i.created_at)
                     from auth.identities i where i.user_id = u.id), '[]') as identities
    from auth.users u`;

async function findUsers(db: Db, where: string, params: unknown[]): Promise<UserRow[]> {
  return (await db.query<UserRow>(`${userSelect} where ${where}`, params)).rows;
}

async function findUser(db: Db, where: string, params: unknown[]): Promise<UserRow | null> {
  return (await findUsers(db, where, params))[0] ?? null;
}

async function mustFindUser(db: Db, id: string): Promise<UserRow> {
  const user = await findUser(db, "u.id = $1", [id]);
  if (!user) throw fail(404, "user_not_found", "User not found");
  return user;
}

async function setMetadata(tx: Db, userId: string, column: "raw_app_meta_data" | "raw_user_meta_data", value: object): Promise<void> {
  await tx.query(`update auth.users set ${column} = $2::jsonb, updated_at = now() where id = $1`, [userId, JSON.stringify(value)]);
}

/** GoTrue's metadata update: keys are merged, a null value removes its key. */
function merged(current: Record<string, unknown> | null, updates: Record<string, unknown>): Record<string, unknown> {
  const result = { ...current };
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) delete result[key];
    else result[key] = value;
  }
  return result;
}

/** The user as GoTrue serialises it: optional timestamps are left out when unset. */
function toUser(user: UserRow): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? "",
    email_confirmed_at: user.email_confirmed_at,
    phone: user.phone ?? "",
    confirmed_at: user.confirmed_at,
    recovery_sent_at: user.recovery_sent_at,
    last_sign_in_at: user.last_sign_in_at,
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: user.identities,
    created_at: user.created_at,
    updated_at: user.updated_at,
    is_anonymous: user.is_anonymous,
    banned_until: user.banned_until,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}

// ---------------------------------------------------------------------------------------------------
// Input and output

async function readBody(req: Request): Promise<Record<string, unknown>> {
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

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function validEmail(value: unknown, missingMessage: string): string {
  const email = typeof value === "string" ? normalizeEmail(value) : "";
  if (!email) throw fail(400, "validation_failed", missingMessage);
  if (email.length > 255 || !emailPattern.test(email)) {
    throw fail(400, "validation_failed", "Unable to validate email address: invalid format");
  }
  return email;
}

function strongPassword(value: unknown): string {
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
function errorResponse(req: Request, failure: AuthFailure): Response {
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

function positiveInteger(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

function seconds(): number {
  return Math.floor(Date.now() / 1000);
}
