import { redirect } from "react-router";
import { notFound, refusedWrite } from "~/lib/backend/backend.server";
import { isUuid, trackPath } from "~/lib/catalog/catalog";
import { formError, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireUser } from "~/lib/session/guards.server";
import { uncached } from "~/lib/http/http-cache";
import { LikeSchema } from "~/lib/schemas/fan";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/like";
import { sqlState } from "~/lib/backend/sqlstate";

/**
 * Like or unlike a track, as the signed-in user (row-level security: their own likes, of a track they can
 * see). Without JavaScript the browser comes back to the track (Post/Redirect/Get); with it the form also
 * sends `fetcher` and reads the reply in place. A visitor is sent to log in and brought back.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isUuid(params.id)) throw notFound("Track not found");
  const backTo = trackPath(params.id);
  const user = requireUser(request, context, backTo);
  const formData = await readForm(request);
  const inPlace = formData.has("fetcher");
  const submission = parseForm(LikeSchema, formData);
  if (!submission.success) return replyWith(formError(submission.reply.fieldErrors.intent ?? "Choose like or unlike"), 400);

  const likes = context.get(supabaseContext).from("likes");
  const { error } =
    submission.value.intent === "like"
      ? await likes.insert({ track_id: params.id })
      : await likes.delete().eq("track_id", params.id).eq("user_id", user.id);
  // Liking twice (a double submit, two tabs) already has the outcome asked for.
  if (error && error.code !== sqlState.uniqueViolation) {
    // 42501: no such track for this user (row-level security); 23503: no such track at all.
    if (error.code === sqlState.insufficientPrivilege || error.code === sqlState.foreignKeyViolation) throw notFound("Track not found");
    return refusedWrite(error, { what: "changing a like" });
  }
  if (!inPlace) throw redirect(backTo, { status: 303, headers: uncached });
  return replyWith({ fieldErrors: {}, formError: null, values: {} }, 200);
}
