import { data, redirect } from "react-router";
import { notFound, refusedWrite } from "~/lib/backend/backend.server";
import { albumPath, isUuid, trackPath } from "~/lib/catalog/catalog";
import { wishlistLimit } from "~/lib/constants";
import { formError, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireUser } from "~/lib/session/guards.server";
import { uncached } from "~/lib/http/http-cache";
import { forgetCached } from "~/lib/cache/edge-cache.server";
import { WishlistSchema } from "~/lib/schemas/fan";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/wishlist";
import { sqlState } from "~/lib/backend/sqlstate";

/**
 * Add a release to the signed-in fan's wishlist, or take it off (row-level security: their own wishlist, of
 * a release they can see). Without JavaScript the browser comes back to the release's page (its album page,
 * or the single's track page the form names); with it the form also sends `fetcher` and reads the reply in
 * place. A visitor is sent to log in and brought back.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isUuid(params.id)) throw notFound("Release not found");
  // A single's album address leads to its track's page.
  const user = requireUser(request, context, albumPath(params.id));
  if (user.role !== "fan") throw data("A wishlist is for fan accounts.", { status: 403 });
  const formData = await readForm(request);
  const inPlace = formData.has("fetcher");
  const submission = parseForm(WishlistSchema, formData);
  if (!submission.success) {
    const { fieldErrors } = submission.reply;
    return replyWith(formError(fieldErrors.intent ?? fieldErrors.track ?? "Choose add or remove"), 400);
  }
  const backTo = submission.value.track ? trackPath(submission.value.track) : albumPath(params.id);

  const wishlist = context.get(supabaseContext).from("wishlist");
  const { error } =
    submission.value.intent === "add"
      ? await wishlist.insert({ release_id: params.id })
      : await wishlist.delete().eq("release_id", params.id).eq("fan_id", user.id);
  // Adding twice (a double submit, two tabs) already has the outcome asked for.
  if (error && error.code !== sqlState.uniqueViolation) {
    // 42501: no such release for this fan (row-level security); 23503: no such release at all.
    if (error.code === sqlState.insufficientPrivilege || error.code === sqlState.foreignKeyViolation) throw notFound("Release not found");
    if (error.code === sqlState.limitReached)
      return replyWith(formError(`Your wishlist is full: it holds at most ${wishlistLimit.toLocaleString("en-US")} releases.`), 429);
    return refusedWrite(error, { what: "changing the wishlist" });
  }
  // The fan's page shows the wishlist to visitors: not the copy kept before this change.
  await forgetCached(request, context, [`user:${user.id}`]);
  if (!inPlace) throw redirect(backTo, { status: 303, headers: uncached });
  return replyWith({ fieldErrors: {}, formError: null, values: {} }, 200);
}
