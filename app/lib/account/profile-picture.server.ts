import { href, redirect, type RouterContextProvider } from "react-router";
import { refusedWrite } from "~/lib/backend/backend.server";
import { artistPath, fanPath } from "~/lib/catalog/catalog";
import { forgetCached } from "~/lib/cache/edge-cache.server";
import { fileImageSize, isPictureSizeAllowed, type ImageSize } from "~/lib/media/image-size";
import { storageErrorMessage } from "~/lib/backend/errors";
import { parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { bytesAre, expectedUpload, imageFiles, judgeImage, storagePath } from "~/lib/media/media-files";
import { ProfilePictureSchema } from "~/lib/schemas/studio";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";
import { storedArtworkSize, storedFirstBytes } from "~/lib/uploads/storage-request.server";

// The profile picture of an artist or a fan, in a form of its own on their Edit Profile page: a file sent
// with the form (without JavaScript), a file the browser uploaded already (with), or its removal. Files
// are judged by their bytes; the row may only name a file in the user's own folder (a check constraint).

type Context = Readonly<RouterContextProvider>;
const pictureIntents = ["picture", "use-picture", "remove-picture"] as const;
type PictureIntent = (typeof pictureIntents)[number];

const pictureSaved = "Profile picture saved";

export function isPictureIntent(intent: string): intent is PictureIntent {
  return (pictureIntents as readonly string[]).includes(intent);
}

const refusal = (message: string): { reply: FormReply } => ({ reply: { fieldErrors: { picture: message }, formError: null, values: {} } });

/** Where each kind of account keeps its picture, edits it, and shows it. */
const profiles = {
  artist: { table: "artist_profiles", formPath: href("/dashboard/artist/profile"), publicPath: artistPath },
  fan: { table: "fan_profiles", formPath: href("/dashboard/fan/profile"), publicPath: fanPath },
} as const;

/**
 * Saves the picture and answers: back to the form (303) after a post without JavaScript, a notice for the
 * upload client's own post, or the message next to the picker. The public page's cached copy here is dropped.
 */
export async function profilePictureAction(
  request: Request,
  context: Context,
  { intent, formData, user }: { intent: PictureIntent; formData: FormData; user: { id: string; role: "artist" | "fan" } },
) {
  const profile = profiles[user.role];
  const change = { intent, formData, userId: user.id };
  const picture = await pictureFrom(change, context);
  if ("reply" in picture) return replyWith(picture.reply, 400);
  const supabase = context.get(supabaseContext);
  const url = picture.path ? supabase.storage.from("artwork").getPublicUrl(picture.path).data.publicUrl : null;
  // Only this Worker, which has just checked the file's bytes (and read its size from them), may name a
  // stored file in a row.
  const { error } = await vouchedClient(context)
    .from(profile.table)
    .update({
      profile_image_url: url,
      profile_image_width: picture.size?.width ?? null,
      profile_image_height: picture.size?.height ?? null,
    })
    .eq("id", user.id);
  if (error) return refusedWrite(error, { what: "saving the profile picture", field: "picture" });
  await forgetCached(request, context, [`user:${user.id}`]);
  if (intent === "use-picture") return replyWith({ fieldErrors: {}, formError: null, values: {}, notice: pictureSaved }, 200);
  throw redirect(profile.formPath, 303);
}

async function pictureFrom(
  { intent, formData, userId }: { intent: PictureIntent; formData: FormData; userId: string },
  context: Context,
): Promise<{ path: string | null; size: ImageSize | null } | { reply: FormReply }> {
  if (intent === "remove-picture") return { path: null, size: null };
  if (intent === "use-picture") {
    const submission = parseForm(ProfilePictureSchema, formData);
    if (!submission.success) return refusal("Please choose an image");
    const { path } = submission.value;
    const expected = expectedUpload(userId, "artwork", path);
    if (!expected) return refusal(storageErrorMessage({ status: 403 }));
    const firstBytes = await storedFirstBytes(context);
    const bytes = await firstBytes("artwork", path);
    if (!bytes) return refusal("Please wait for the upload to complete");
    if (!bytesAre(bytes, expected)) return refusal(storageErrorMessage({ status: 415 }));
    const size = await storedArtworkSize(firstBytes, path, bytes);
    if (size && !isPictureSizeAllowed(size)) return refusal(imageFiles.tooLarge);
    return { path, size };
  }
  const file = formData.get("picture");
  if (!(file instanceof File) || file.size === 0) return refusal("Please choose an image");
  const { type, problem } = await judgeImage(file);
  if (!type) return refusal(problem);
  const path = storagePath(userId, type.extension);
  const { error } = await context
    .get(supabaseContext)
    .storage.from("artwork")
    .upload(path, file, { contentType: type.mime, cacheControl: "3600", upsert: false });
  if (error) {
    console.error("uploading a profile picture failed", error);
    return refusal(storageErrorMessage(error));
  }
  return { path, size: await fileImageSize(file) };
}
