// The media Worker's entry, which runs the marketplace's jobs: the rendition queue and its dead-letter
// queue, the mail queue and its dead-letter queue, and the hourly jobs (payouts, release announcements; wrangler.media.toml), nothing else. It answers
// no request: the page Worker (workers/app.ts) queues its jobs.
import { runScheduledAnnouncements } from "~/lib/mail/announcements.server";
import { failedMailQueue, mailQueue } from "~/lib/mail/mail-queue-names";
import { handleMailBatch } from "~/lib/mail/mail-queue.server";
import { handleRenditionBatch } from "~/lib/media/media-jobs.server";
import { runPayoutJob } from "~/lib/payouts/payout-job.server";
// LAME's WebAssembly, compiled with the Worker (Workers refuse to compile WebAssembly at run time). By its
// file: the Cloudflare Vite plugin takes an import ending in `.wasm`, and the package's export of this
// name points at a file it does not ship.
import mp3Encoder from "../node_modules/wasm-media-encoders/wasm/mp3.wasm";

export default {
  async queue(batch, env) {
    if (batch.queue === mailQueue || batch.queue === failedMailQueue) await handleMailBatch(batch, env);
    else await handleRenditionBatch(batch, env, mp3Encoder);
  },
  // Every hour: the payouts, and the releases whose day has come. One failing does not hold the other back.
  async scheduled(_controller, env) {
    const jobs = await Promise.allSettled([runPayoutJob(env), runScheduledAnnouncements(env)]);
    const failed = jobs.filter((job) => job.status === "rejected");
    if (failed.length > 0)
      throw new AggregateError(
        failed.map((job) => job.reason),
        "a scheduled job failed",
      );
  },
} satisfies ExportedHandler;
