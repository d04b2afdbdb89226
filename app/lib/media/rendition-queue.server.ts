// The media queue's producer side, which the page Worker holds: the message a job is, and the calls that
// queue them (publishing, the artist's Retry, the operator's command, a download asked for). The media
// Worker (workers/media.ts, wrangler.media.toml) consumes them: see media-jobs.server.ts. The page Worker
// carries no codec and no long CPU limit.
import * as v from "valibot";
import { downloadMadeFormats, type DownloadMadeFormat } from "../../../supabase/functions/_shared/made-formats";

/** The queues' names, as wrangler.media.toml declares them. */
export const renditionQueue = "marketplace-renditions";
export const failedRenditionQueue = "marketplace-renditions-failed";

const trackId = v.pipe(v.string(), v.uuid());

/** A job: a track's stream, or one of its download files (the tags it carries are the download's alone). */
const MadeFileJob = v.variant("format", [
  v.object({ format: v.literal("stream"), trackId }),
  v.object({ format: v.picklist(downloadMadeFormats), trackId }),
]);

/**
 * A message as the queue holds it. Messages queued before made files were one model said `{ trackId }` for
 * a stream and `{ trackId, download }` for a download file: read as the same jobs, so none queued across
 * the deploy is lost.
 */
export const RenditionMessage = v.union([
  MadeFileJob,
  v.pipe(
    v.object({ trackId, download: v.optional(v.picklist(downloadMadeFormats)) }),
    v.transform(({ trackId, download }): MadeFileJob => (download ? { format: download, trackId } : { format: "stream", trackId })),
  ),
]);
export type MadeFileJob = v.InferOutput<typeof MadeFileJob>;

/** Sends the jobs in batches of 100 (a batch's most); false, with `what` logged, when the queue refused them. */
async function sendAll(queue: Queue<MadeFileJob>, jobs: MadeFileJob[], what: string): Promise<boolean> {
  try {
    for (let start = 0; start < jobs.length; start += 100) {
      await queue.sendBatch(jobs.slice(start, start + 100).map((body) => ({ body, contentType: "json" as const })));
    }
    return true;
  } catch (error) {
    console.error(`queueing ${what} failed`, jobs, error);
    return false;
  }
}

/**
 * Queues the stream of each track: at publishing, at the artist's Retry, and from the one-off command.
 * False when the queue refused them: what was published stays published, "Preparing the stream" until the
 * command (or the artist's Retry once it is marked failed) queues it again; the failure is logged.
 */
export function queueRenditions(queue: Queue<MadeFileJob>, trackIds: string[]): Promise<boolean> {
  return sendAll(
    queue,
    trackIds.map((trackId) => ({ format: "stream", trackId })),
    "tracks' streams",
  );
}

/**
 * Queues the making of download files someone asked for (download_track's `requested`). False when the
 * queue refused them: the next request after ten minutes asks again (take_downloads).
 */
export function queueDownloads(queue: Queue<MadeFileJob>, files: { trackId: string; format: DownloadMadeFormat }[]): Promise<boolean> {
  return sendAll(queue, files, "download files");
}
