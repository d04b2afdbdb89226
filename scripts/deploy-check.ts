// `npm run deploy:check`: both Workers as `wrangler deploy` would publish them (its dry run on the production
// build, built first when stale), with their sizes; fails when either would not deploy, or when the page
// Worker carries what belongs to the media Worker (a queue consumer, a Cron Trigger, a CPU limit above a
// page's, a codec's WebAssembly), or the media Worker's Cron Trigger is not the payout job's schedule, or its
// mail consumer is not one at a time with its dead letters consumed (the pacing to the provider's rate and
// "Mail not sent" rest on them). CI runs it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildIfStale, root } from "./lib/app-server.ts";
import { measureWorkerBundles, printWorkerBundles } from "./lib/bench-worker-bundle.ts";
import { payoutCron } from "../app/lib/payouts/schedule.ts";
import { failedMailQueue, mailQueue } from "../app/lib/mail/mail-queue-names.ts";

/** The most CPU a page request may use (wrangler.toml); the media Worker's jobs have more. */
const pageCpuMs = 30_000;

buildIfStale();
type Consumer = { queue: string; max_concurrency?: number; dead_letter_queue?: string };
type BuiltWorker = { queues?: { consumers?: Consumer[] }; limits?: { cpu_ms?: number }; triggers?: { crons?: string[] } };
const builtWorker = (folder: string) => JSON.parse(readFileSync(join(root, "build", folder, "wrangler.json"), "utf8")) as BuiltWorker;
const pageWorker = builtWorker("server");
const mediaWorker = builtWorker("media");
const consumerOf = (queue: string) => mediaWorker.queues?.consumers?.find((consumer) => consumer.queue === queue);
const mailConsumer = consumerOf(mailQueue);
const problems = [
  ...(mailConsumer?.max_concurrency !== 1
    ? [
        `the media Worker's consumer of ${mailQueue} is not one batch at a time (max_concurrency = 1): mail would outrun the provider's rate`,
      ]
    : []),
  ...(mailConsumer?.dead_letter_queue !== failedMailQueue || !consumerOf(failedMailQueue)
    ? [`the media Worker does not consume ${mailQueue}'s dead letters (${failedMailQueue}): mail past its last retry would be lost`]
    : []),
  ...(pageWorker.queues?.consumers?.length ? ["the page Worker consumes a queue: the media Worker does (wrangler.media.toml)"] : []),
  ...(pageWorker.triggers?.crons?.length ? ["the page Worker has a Cron Trigger: the media Worker runs the scheduled jobs"] : []),
  ...(mediaWorker.triggers?.crons?.join() !== payoutCron
    ? [`the media Worker's Cron Trigger is not the payout job's schedule (${payoutCron}, app/lib/payouts/schedule.ts)`]
    : []),
  ...((pageWorker.limits?.cpu_ms ?? 0) > pageCpuMs ? [`the page Worker's CPU limit is above a page's ${pageCpuMs} ms`] : []),
  ...readdirSync(join(root, "build", "server", "assets"))
    .filter((file) => file.endsWith(".wasm"))
    .map((file) => `the page Worker carries WebAssembly (${file}): codecs belong to the media Worker`),
];
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
printWorkerBundles(measureWorkerBundles());
