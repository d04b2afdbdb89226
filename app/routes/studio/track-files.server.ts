// Replacing a published track's audio, its release's artwork, or both, from the track's edit page. The files
// come as they do when publishing (publish.server.ts): with JavaScript already in Storage (resumable) and
// named by the form, without it with the form itself; either way judged by their bytes before any row
// names them. Buyers download the new audio from then on: its stream and download files are made afresh.
import { chosenFiles } from "~/lib/forms/form-body.server";
import { parseForm, type FieldErrors } from "~/lib/forms/forms";
import { UploadedFilesSchema } from "~/lib/schemas/studio";
import { supabaseContext, vouchedClient } from "~/lib/session/session.server";
import { storedBytes } from "~/lib/uploads/storage-request.server";
import { checkFiles, checkUploaded, replaceTrackFiles, withStoredFiles, type FilesFor, type ReplaceOutcome } from "./publish.server";
import type { Route } from "./+types/track-edit";

/** Nothing chosen: said beside the audio field, the first of the two. */
export const noNewFiles = "Please choose a new audio file or new artwork";

/** A track's new files take a single's rules: one audio file, one picture, neither required alone. */
const replacement: FilesFor = { kind: "single", replacing: true };

/** The files refused (messages by field), or what replacing them did. */
export type ReplaceFilesResult = { errors: FieldErrors } | ReplaceOutcome;

export async function replaceFiles(
  context: Route.ActionArgs["context"],
  artistId: string,
  trackId: string,
  formData: FormData,
): Promise<ReplaceFilesResult> {
  const supabase = context.get(supabaseContext);
  const publisher = { supabase, vouched: vouchedClient(context) };
  const refused = (errors: FieldErrors) => Object.keys(errors).length > 0;

  if (formData.has("uploadedArtwork")) {
    const uploaded = parseForm(UploadedFilesSchema, formData, { arrays: ["uploadedTracks"] });
    if (!uploaded.success) return { errors: { audio: Object.values(uploaded.reply.fieldErrors)[0] } };
    const { errors, artwork, tracks } = await checkUploaded(supabase, replacement, artistId, uploaded.value, await storedBytes(context));
    if (refused(errors)) return { errors };
    const [track = null] = tracks;
    if (!artwork && !track) return { errors: { audio: noNewFiles } };
    return replaceTrackFiles(publisher, trackId, artwork, track);
  }

  const [artworkFile = null] = chosenFiles(formData, "artwork");
  const { errors, artwork, audio } = await checkFiles(replacement, artworkFile, chosenFiles(formData, "audio"));
  if (refused(errors)) return { errors };
  if (!artwork && audio.length === 0) return { errors: { audio: noNewFiles } };
  return withStoredFiles(
    supabase,
    artistId,
    async (store) => {
      const [track = null] = await store.tracks(audio);
      return replaceTrackFiles(publisher, trackId, artwork && (await store.artwork(artwork)), track);
    },
    (outcome) => "replaced" in outcome,
  );
}
