import { redirect } from "react-router";
import { notFound, refusedWrite } from "~/lib/backend/backend.server";
import { artistPath, isUuid } from "~/lib/catalog/catalog";
import { formError, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { uncached } from "~/lib/http/http-cache";
import { safeRedirectPath } from "~/lib/session/redirects";
import { FollowSchema } from "~/lib/schemas/catalog";
import { requireUser } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/follow";
import { sqlState } from "~/lib/backend/sqlstate";

/**
 * Follow or unfollow an artist, as the signed-in user: the one place every Follow button posts to (the
 * artist page, the home page's featured artist). The form sends `redirectTo`, the page it is on. Without
 * JavaScript the browser goes back there (Post/Redirect/Get); with it the form also sends `fetcher`,
 * and the fetcher reads the reply in place. A visitor is sent to log in and brought back to the page.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isUuid(params.id)) throw notFound("Artist not found");
  const formData = await readForm(request);
  const backTo = safeRedirectPath(formData.get("redirectTo")) ?? artistPath(params.id);
  const user = requireUser(request, context, backTo);
  const inPlace = formData.has("fetcher");

  const submission = parseForm(FollowSchema, formData);
  if (!submission.success) return answer(inPlace, 400, submission.reply.fieldErrors.intent ?? "Choose follow or unfollow");

  const followers = context.get(supabaseContext).from("followers");
  const { error } =
    submission.value.intent === "follow"
      ? await followers.insert({ artist_id: params.id, fan_id: user.id })
      : await followers.delete().eq("artist_id", params.id).eq("fan_id", user.id);
  // Following twice (a double submit, two tabs) already has the outcome asked for.
  if (error && error.code !== sqlState.uniqueViolation) {
    const refusal = refusedWrite(error, { what: "changing a follow" });
    return inPlace ? refusal : answer(false, refusal.init?.status ?? 500, refusal.data.formError ?? "");
  }
  if (!inPlace) throw redirect(backTo, { status: 303, headers: uncached });
  return replyWith({ fieldErrors: {}, formError: null, values: {} }, 200);
}

/** A refused change: the form reply for a fetcher, the message itself for a browser without JavaScript. */
function answer(inPlace: boolean, status: number, message: string) {
  if (inPlace) return replyWith(formError(message), status);
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...uncached } });
}
