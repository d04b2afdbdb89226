import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { StackConfig } from "../config.ts";
import { json, type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { signJwt } from "../jwt.ts";
import {
  AuthFailure,
  accessTokenSeconds,
  authCodeSeconds,
  fail,
  refreshTokenReuseSeconds,
  isObject,
  normalizeEmail,
  readBody,
  seconds,
  strongPassword,
  validEmail,
} from "./io.ts";
import { type UserRow, createUser, findUser, isBanned, mustFindUser, passwordMatches, toUser } from "./users.ts";
import { ipOrNull, limitSignUps, limitTokenRequests, noteFailedSignIn, refuseGuessedAccount } from "./rate-limit.ts";

// Sign-up, sign-in and sessions

export async function signup(req: Request, stack: Stack): Promise<Response> {
  limitSignUps(req, stack);
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

export async function token(req: Request, stack: Stack): Promise<Response> {
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
  refuseGuessedAccount(stack, email);
  return stack.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; matches: boolean; banned: boolean; confirmed: boolean }>(
      `select id, ${passwordMatches("$2")} as matches, ${isBanned} as banned,
              email_confirmed_at is not null as confirmed
         from auth.users where email = $1 and deleted_at is null`,
      [email, password],
    );
    const user = rows[0];
    if (!user?.matches) {
      noteFailedSignIn(stack, email);
      throw fail(400, "invalid_credentials", "Invalid login credentials");
    }
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
      ipOrNull(req, stack),
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

export async function startSession(tx: Db, stack: Stack, req: Request, userId: string, method: string): Promise<TokenResponse> {
  const sessionId = randomUUID();
  await tx.query(`insert into auth.sessions (id, user_id, aal, user_agent, ip) values ($1, $2, 'aal1', $3, $4)`, [
    sessionId,
    userId,
    req.headers.get("user-agent"),
    ipOrNull(req, stack),
  ]);
  const refreshToken = await issueRefreshToken(tx, userId, sessionId, null);
  await tx.query("update auth.users set last_sign_in_at = now() where id = $1", [userId]);
  await tx.query(`update auth.identities set last_sign_in_at = now() where user_id = $1`, [userId]);
  const user = await mustFindUser(tx, userId);
  return tokenResponse(stack.config, user, sessionId, refreshToken, [{ method, timestamp: seconds() }]);
}

/**
 * A followed link of a PKCE flow (recovery, email change): the flow's auth code, issued now, in the
 * redirect's query, for /token?grant_type=pkce with the verifier the client kept.
 */
export async function authCodeRedirect(tx: Db, userId: string, method: string, redirectTo: string): Promise<string> {
  const { rows } = await tx.query<{ auth_code: string }>(
    `update auth.flow_state set auth_code_issued_at = now(), updated_at = now()
      where id = (select id from auth.flow_state where user_id = $1 and authentication_method = $2
                   order by created_at desc limit 1)
      returning auth_code`,
    [userId, method],
  );
  if (!rows[0]) throw fail(404, "flow_state_not_found", "No associated flow state found");
  const url = new URL(redirectTo);
  url.searchParams.set("code", rows[0].auth_code);
  return url.toString();
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
