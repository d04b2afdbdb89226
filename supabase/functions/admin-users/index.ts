// The Admin Dashboard's users (spec section 2, Admin): a page of registered users, searched by email, and
// the password reset email sent for one of them. Administrators only (../_shared/administration.ts); the
// work is done with the service role through the Auth admin API, as on hosted Supabase.
//
// POST { action: "list", page?, search? } → 200 { users, total, page, perPage }
// POST { action: "send_password_reset", user_id, redirect_to } → 200 { sent: true }
// Errors { code }: invalid_request (400), not_signed_in (401), not_an_admin (403), user_not_found (404),
// method_not_allowed (405), over_email_send_rate_limit (429), unavailable (502).
import * as v from "valibot";
import { administratorRequest, authAdminUrl, recordUserAdministration } from "../_shared/administration.ts";
import { idSchema } from "../_shared/ids.ts";
import { failure, service, serviceRoleKey } from "../_shared/project.ts";

const perPage = 50;

const RequestSchema = v.variant("action", [
  v.object({
    action: v.literal("list"),
    page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000)), 1),
    // emails are stored in lower case; GoTrue's filter compares them as they are
    search: v.optional(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.maxLength(254)), ""),
  }),
  v.object({
    action: v.literal("send_password_reset"),
    user_id: idSchema(),
    redirect_to: v.pipe(v.string(), v.url()),
  }),
]);

/** What GoTrue answers for a user, as far as this list reads it. */
const AuthUserSchema = v.object({
  id: v.string(),
  email: v.optional(v.nullable(v.string()), null),
  created_at: v.string(),
  last_sign_in_at: v.optional(v.nullable(v.string()), null),
  banned_until: v.optional(v.nullable(v.string()), null),
  app_metadata: v.optional(v.record(v.string(), v.unknown()), {}),
});
const AuthUsersSchema = v.object({ users: v.array(AuthUserSchema) });

/**
 * Each user's role as the database knows it: admin from app_metadata (what is_admin() reads, which only
 * the service role may write), else artist or fan by the profile row they have, else Auth's 'user'.
 * Never user_metadata: its role is the user's own to edit.
 */
async function rolesOf(users: v.InferOutput<typeof AuthUserSchema>[]): Promise<Map<string, string> | null> {
  const ids = users.map((user) => user.id);
  const [artists, fans] = await Promise.all([
    service.from("artist_profiles").select("id").in("id", ids),
    service.from("fan_profiles").select("id").in("id", ids),
  ]);
  if (artists.error || fans.error) {
    console.error("reading the users' roles failed", artists.error ?? fans.error);
    return null;
  }
  const roles = new Map<string, string>();
  for (const { id } of fans.data) roles.set(id, "fan");
  for (const { id } of artists.data) roles.set(id, "artist");
  for (const user of users) if (user.app_metadata.role === "admin") roles.set(user.id, "admin");
  return roles;
}

/**
 * GET /admin/users, the endpoint auth.admin.listUsers calls, asked directly: listUsers cannot pass
 * GoTrue's `filter` (the search), and it reads page numbers from the Link header by their first digit.
 */
async function listUsers(page: number, search: string): Promise<Response> {
  const query = new URLSearchParams({ page: String(page), per_page: String(perPage), ...(search ? { filter: search } : {}) });
  const response = await fetch(`${authAdminUrl}/users?${query}`, {
    headers: { apikey: serviceRoleKey, Authorization: `Bearer ${serviceRoleKey}` },
  });
  const parsed = response.ok ? v.safeParse(AuthUsersSchema, await response.json().catch(() => null)) : null;
  if (!parsed?.success) {
    console.error("listing users failed", response.status);
    return failure(502, "unavailable");
  }
  const roles = await rolesOf(parsed.output.users);
  if (!roles) return failure(502, "unavailable");
  const now = Date.now();
  const users = parsed.output.users.map((user) => ({
    id: user.id,
    email: user.email ?? "",
    role: roles.get(user.id) ?? "user",
    created_at: user.created_at,
    last_sign_in_at: user.last_sign_in_at,
    // GoTrue keeps a lifted or lapsed ban as a date in the past
    banned_until: user.banned_until && Date.parse(user.banned_until) > now ? user.banned_until : null,
  }));
  const total = Number(response.headers.get("x-total-count") ?? users.length);
  return Response.json({ users, total, page, perPage }, { headers: { "Cache-Control": "private, no-store" } });
}

Deno.serve(async (req) => {
  const asked = await administratorRequest(req, RequestSchema);
  if (asked instanceof Response) return asked;
  const { admin, request } = asked;
  if (request.action === "list") return listUsers(request.page, request.search);

  const { data: found, error: findError } = await service.auth.admin.getUserById(request.user_id);
  if (findError?.status === 404 || (!findError && !found.user?.email)) return failure(404, "user_not_found");
  if (findError) {
    console.error("finding the user failed", findError);
    return failure(502, "unavailable");
  }
  const user = { id: found.user.id, email: found.user.email! };
  // No PKCE here: the link must work in the user's browser, which never saw this request. The project's
  // email template sends it to /reset-password with a token_hash (supabase/templates/recovery.html).
  const { error } = await service.auth.resetPasswordForEmail(user.email, { redirectTo: request.redirect_to });
  if (error) {
    console.error("sending the password reset failed", error);
    return error.status === 429 ? failure(429, "over_email_send_rate_limit") : failure(502, "unavailable");
  }
  if (!(await recordUserAdministration(admin, "user.password_reset", user))) return failure(502, "unavailable");
  return Response.json({ sent: true });
});
