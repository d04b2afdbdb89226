import type { RouterContextProvider } from "react-router";
import { refusedWrite } from "~/lib/backend/backend.server";
import { formError, replyWith, type FormValues } from "~/lib/forms/forms";
import { cloudflareContext } from "~/lib/http/context.server";
import { queueRenditions } from "~/lib/media/rendition-queue.server";
import { vouchedClient } from "~/lib/session/session.server";

/** What the artist is told when the job could not be queued again: nothing of theirs was lost. */
const retryNotQueued = "The stream could not be queued again. Please try again in a minute.";

/**
 * The artist's Retry on a failed stream (Your Tracks and the edit page): the database puts it back to
 * "preparing" (their own failed track only, through the marketplace), then the job is queued again.
 * Answers the form's reply when it was refused or not queued, or null when it is on its way (or it was
 * not the artist's failed track: nothing to do).
 */
export async function retryStream(context: Readonly<RouterContextProvider>, trackId: string, values: FormValues) {
  const { data: retried, error } = await vouchedClient(context).rpc("retry_made_file", { track_id: trackId, format: "stream" });
  if (error) return refusedWrite(error, { what: "retrying a track's stream", values });
  if (retried && !(await queueRenditions(context.get(cloudflareContext).env.RENDITIONS, [trackId]))) {
    return replyWith(formError(retryNotQueued, values), 503);
  }
  return null;
}
