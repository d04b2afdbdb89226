// Bans a user for a number of days with a reason, or lifts a ban (spec sections 4 and 5: Ban).
// Administrators only (../_shared/administration.ts). The ban itself goes through the Auth admin API
// (`ban_duration`), so the Auth server refuses the user's sign-ins and refreshes; then, in one SQL
// transaction, their sessions end and the audit log records who, whom, when and why. Their access token,
// still signed until it expires, can no longer write: every write policy checks the account is active.
//
// POST { user_id, days, reason? } → 200 { banned_until }
// POST { user_id, unban: true } → 200 { banned_until: null }
// Errors { code }: invalid_request (400), cannot_ban_yourself (400), not_signed_in (401), not_an_admin
// (403), user_not_found (404), method_not_allowed (405), unavailable (502).
import * as v from "valibot";
import { administratorRequest, recordUserAdministration } from "../_shared/administration.ts";
import { failure, service } from "../_shared/project.ts";
import { idSchema } from "../_shared/ids.ts";

/** Spec section 5: whole days, at least one. A century is as long as a ban needs to be. */
const maxDays = 36_500;

const RequestSchema = v.union([
  v.object({ user_id: idSchema(), unban: v.literal(true) }),
  v.object({
    user_id: idSchema(),
    days: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(maxDays)),
    reason: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(1000)), ""),
  }),
]);

Deno.serve(async (req) => {
  const asked = await administratorRequest(req, RequestSchema);
  if (asked instanceof Response) return asked;
  const { admin, request } = asked;
  if (request.user_id === admin.id) return failure(400, "cannot_ban_yourself");

  const banning = "days" in request;
  // Go's duration syntax: hours are its largest unit.
  const { data, error } = await service.auth.admin.updateUserById(request.user_id, {
    ban_duration: banning ? `${request.days * 24}h` : "none",
  });
  if (error) {
    if (error.status === 404) return failure(404, "user_not_found");
    console.error("updating the ban failed", error);
    return failure(502, "unavailable");
  }
  const user = { id: data.user.id, email: data.user.email };
  const recorded = banning
    ? await recordUserAdministration(admin, "user.ban", user, request.reason)
    : await recordUserAdministration(admin, "user.unban", user);
  if (!recorded) return failure(502, "unavailable");
  return Response.json({ banned_until: banning ? (data.user.banned_until ?? null) : null });
});
