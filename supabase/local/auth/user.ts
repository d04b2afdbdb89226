import type { StackConfig } from "../config.ts";
import { json, type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { verifyJwt } from "../jwt.ts";
import { type UserRow, findUser, merged, mustFindUser, passwordMatches, setMetadata, toUser } from "./users.ts";
import { fail, isObject, isUuid, normalizeEmail, readBody, strongPassword, validEmail } from "./io.ts";
import { requestEmailChange } from "./email-change.ts";
import { pkceChallenge } from "./recovery.ts";

// The signed-in user

type AccessClaims = { sub?: string; role?: string; session_id?: string; amr?: { method?: string }[] };

// GoTrue's Session.IsRecovery(): a session started from an emailed link, which may set a password without
// the current one (that is what the link is for).
const recoveryMethods = new Set(["otp", "magiclink", "recovery"]);

/** The caller of /user and /logout, checked as GoTrue does: a valid JWT, a user, not banned, a live session. */
export async function authenticate(req: Request, stack: Stack): Promise<{ user: UserRow; sessionId: string | null }> {
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

export function verifiedClaims(req: Request, config: StackConfig): AccessClaims {
  const token = /^\s*bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  if (!token) throw fail(401, "no_authorization", "This endpoint requires a Bearer token");
  try {
    return verifyJwt<AccessClaims>(token, config.jwtSecret);
  } catch (error) {
    throw fail(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${(error as Error).message}`);
  }
}

/**
 * PUT /user. A new password needs the current one (GoTrue with Security.UpdatePasswordRequireCurrentPassword,
 * which the project turns on), except in a session started from a recovery link. A new email goes through
 * the confirmation of both addresses (email-change.ts).
 */
export async function updateUser(req: Request, stack: Stack): Promise<Response> {
  const { user, sessionId } = await authenticate(req, stack);
  const claims = verifiedClaims(req, stack.config);
  const body = await readBody(req);
  const newEmail = typeof body.email === "string" && normalizeEmail(body.email) !== user.email ? validEmail(body.email, "") : null;
  await stack.db.transaction(async (tx) => {
    if (body.password !== undefined) {
      const password = strongPassword(body.password);
      const recovering = (claims.amr ?? []).some((entry) => recoveryMethods.has(entry.method ?? ""));
      if (!recovering) {
        const current = typeof body.current_password === "string" ? body.current_password : "";
        if (!current) throw fail(400, "current_password_required", "Current password required when setting new password.");
        const { rows } = await tx.query<{ ok: boolean }>(`select ${passwordMatches("$2")} as ok from auth.users where id = $1`, [
          user.id,
          current,
        ]);
        if (!rows[0]?.ok) throw fail(400, "current_password_invalid", "Current password required when setting new password.");
      }
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
    if (newEmail) await requestEmailChange(tx, stack, req, user, newEmail, pkceChallenge(body));
  });
  return json(toUser(await mustFindUser(stack.db, user.id)));
}

/**
 * A new password ends every other session (GoTrue: the old password may be in someone else's hands) and
 * spends any outstanding recovery link.
 */
export async function setPassword(tx: Db, userId: string, password: string, keepSessionId: string | null): Promise<void> {
  await tx.query(
    `update auth.users set encrypted_password = extensions.crypt($2, extensions.gen_salt('bf')),
            recovery_token = '', recovery_sent_at = null, updated_at = now()
      where id = $1`,
    [userId, password],
  );
  await tx.query("delete from auth.sessions where user_id = $1 and id is distinct from $2", [userId, keepSessionId]);
}

export async function logout(req: Request, stack: Stack): Promise<Response> {
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
