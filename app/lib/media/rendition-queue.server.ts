// The rendition queue's producer side, which the page Worker holds: the message a job is, and the calls
// that queue them (publishing, the artist's Retry, the operator's command, a download asked for). The
// media Worker (workers/media.ts, wrangler.media.toml) consumes them: see media-jobs.server.ts. The page
// Worker carries no codec and no long CPU limit.
import * as v from "valibot";

/** The queues' names, as wrangler.media.toml declares them. */
export const renditionQueue = "marketplace-renditions";
export const failedRenditionQueue = "marketplace-renditions-failed";

/** A track's streaming rendition, or (`download`) one of its download files. */
export const RenditionMessage = v.object({ trackId: v.pipe(v.string(), v.uuid()), download: v.optional(v.picklist(["mp3", "flac"])) });
export type RenditionMessage = v.InferOutput<typeof RenditionMessage>;
export type MadeFormat = NonNullable<RenditionMessage["download"]>;

/** Sends the messages in batches of 100 (a batch's most); false, with `what` logged, when the queue refused them. */
async function sendAll(queue: Queue<RenditionMessage>, messages: RenditionMessage[], what: string): Promise<boolean> {
  try {
    for (let start = 0; start < messages.length; start += 100) {
      await queue.sendBatch(messages.slice(start, start + 100).map((body) => ({ body, contentType: "json" as const })));
    }
    return true;
  } catch (error) {
    console.error(`queueing ${what} failed`, messages, error);
    return false;
  }
}

/**
 * Queues the rendition of each track: at publishing, at the artist's Retry, and from the one-off command.
 * False when the queue refused them: what was published stays published, "Preparing the stream" until the
 * command (or the artist's Retry once it is marked failed) queues it again; the failure is logged.
 */
export function queueRenditions(queue: Queue<RenditionMessage>, trackIds: string[]): Promise<boolean> {
  return sendAll(
    queue,
    trackIds.map((trackId) => ({ trackId })),
    "tracks' streams",
  );
}

/**
 * Queues the making of download files someone asked for (download_track's `requested`). False when the
 * queue refused them: the next request after ten minutes asks again (take_downloads).
 */
export function queueDownloads(queue: Queue<RenditionMessage>, files: { trackId: string; format: MadeFormat }[]): Promise<boolean> {
  return sendAll(
    queue,
    files.map(({ trackId, format }) => ({ trackId, download: format })),
    "download files",
  );
}
