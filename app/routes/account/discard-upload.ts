import { data } from "react-router";
import { storageErrorMessage } from "~/lib/backend/errors";
import { parseForm } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { requireUser } from "~/lib/session/guards.server";
import { expectedUpload } from "~/lib/media/media-files";
import { DiscardUploadSchema } from "~/lib/schemas/studio";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/discard-upload";

/**
 * Resource route: a form (with JavaScript) removes a file it stored ahead of saving when the user takes it
 * out again, so unused files do not pile up. Only a path of the form's own making in the user's folder,
 * and never a file a published track or merch item, or their profile, still uses; Storage's policies
 * decide again.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(request, context);
  const submission = parseForm(DiscardUploadSchema, await readForm(request));
  if (!submission.success || !expectedUpload(user.id, submission.value.bucket, submission.value.path)) {
    throw data(storageErrorMessage({ status: 400 }), { status: 400 });
  }
  const { bucket, path } = submission.value;
  const supabase = context.get(supabaseContext);
  const publicUrl = supabase.storage.from("artwork").getPublicUrl(path).data.publicUrl;
  const small = path.includes("/small/");
  const [tracks, merch, profile] = await Promise.all([
    bucket === "tracks"
      ? supabase.from("tracks").select("id").eq("file_url", path).limit(1)
      : supabase
          .from("tracks")
          .select("id")
          .eq(small ? "artwork_small_url" : "artwork_url", publicUrl)
          .limit(1),
    bucket === "artwork"
      ? supabase
          .from("merch")
          .select("id")
          .eq(small ? "image_small_url" : "image_url", publicUrl)
          .limit(1)
      : { data: [], error: null },
    bucket === "artwork"
      ? supabase
          .from(user.role === "artist" ? "artist_profiles" : "fan_profiles")
          .select("id")
          .eq("profile_image_url", publicUrl)
          .limit(1)
      : { data: [], error: null },
  ]);
  const failed = tracks.error ?? merch.error ?? profile.error;
  if (failed) {
    console.error("checking a file before discarding it failed", failed);
    throw data(storageErrorMessage({ status: 500 }), { status: 500 });
  }
  if ((tracks.data?.length ?? 0) + (merch.data?.length ?? 0) > 0) throw data("This file belongs to a published release", { status: 409 });
  if ((profile.data?.length ?? 0) > 0) throw data("This file is your profile picture", { status: 409 });
  const { error } = await supabase.storage.from(bucket).remove([path]);
  if (error) {
    console.error("discarding an upload failed", error);
    throw data(storageErrorMessage({ status: 500 }), { status: 500 });
  }
  return new Response(null, { status: 204 });
}
