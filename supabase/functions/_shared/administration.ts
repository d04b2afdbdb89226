// What the administration functions (admin-users, ban-user) share: who the caller is, decided by the
// database as that caller before anything runs with the service role, and the audit entry written after.
import * as v from "valibot";
import { clientWith, failure, service, supabaseUrl } from "./project.ts";

export const authAdminUrl = `${supabaseUrl}/auth/v1/admin`;

export type Administrator = { id: string; email: string };

/**
 * The caller if they are an administrator now, else the answer to give them: 401 for a visitor (the
 * anon key) or a token the Auth server no longer honours, 403 for anyone else. is_admin() is asked as
 * the caller, so the database decides: app_metadata alone makes an admin (user_metadata is the user's
 * to edit), and a banned admin's still-valid token is refused.
 */
async function administrator(req: Request): Promise<Administrator | Response> {
  const token = /^Bearer (\S+)$/.exec(req.headers.get("Authorization") ?? "")?.[1];
  if (!token) return failure(401, "not_signed_in");
  const caller = clientWith({ Authorization: `Bearer ${token}` });
  const [admin, user] = await Promise.all([caller.rpc("is_admin"), caller.auth.getUser(token)]);
  if (!user.data.user) return failure(401, "not_signed_in");
  if (admin.error) {
    console.error("is_admin failed", admin.error);
    return failure(502, "unavailable");
  }
  if (admin.data !== true) return failure(403, "not_an_admin");
  return { id: user.data.user.id, email: user.data.user.email ?? "" };
}

type UserAction = "user.ban" | "user.unban" | "user.password_reset";

/** The audit entry (who, what, whom, why); for a ban, in the same transaction the user's sessions end. */
export async function recordUserAdministration(
  actor: Administrator,
  action: UserAction,
  user: { id: string; email?: string },
  reason: string | null = null,
): Promise<boolean> {
  const { error } = await service.rpc("record_user_administration", {
    actor_id: actor.id,
    actor_email: actor.email,
    action,
    user_id: user.id,
    user_email: user.email ?? user.id,
    reason,
  });
  if (error) console.error("recording", action, "failed", error);
  return !error;
}

/**
 * An administrator's request: a POST whose JSON body the schema accepts, from a caller who is an
 * administrator now; else the answer to give (405, 401, 403, 400 invalid_request).
 */
export async function administratorRequest<TSchema extends v.GenericSchema>(
  req: Request,
  schema: TSchema,
): Promise<{ admin: Administrator; request: v.InferOutput<TSchema> } | Response> {
  if (req.method !== "POST") return failure(405, "method_not_allowed");
  const admin = await administrator(req);
  if (admin instanceof Response) return admin;
  const json = req.headers.get("content-type")?.startsWith("application/json") ? await req.json().catch(() => null) : null;
  const body = v.safeParse(schema, json);
  if (!body.success) return failure(400, "invalid_request");
  return { admin, request: body.output };
}
