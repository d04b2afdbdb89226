// `npm run deploy:check`: both Workers as `wrangler deploy` would publish them (its dry run on the production
// build, built first when stale), with their sizes; fails when either would not deploy, or when the page
// Worker carries what belongs to the media Worker (a queue consumer, a CPU limit above a page's, a codec's
// WebAssembly). CI runs it.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildIfStale, root } from "./lib/app-server.ts";
import { measureWorkerBundles, printWorkerBundles } from "./lib/bench-worker-bundle.ts";

/** The most CPU a page request may use (wrangler.toml); the media Worker's jobs have more. */
const pageCpuMs = 30_000;

buildIfStale();
const pageWorker = JSON.parse(readFileSync(join(root, "build", "server", "wrangler.json"), "utf8")) as {
  queues?: { consumers?: unknown[] };
  limits?: { cpu_ms?: number };
};
const problems = [
  ...(pageWorker.queues?.consumers?.length ? ["the page Worker consumes a queue: the media Worker does (wrangler.media.toml)"] : []),
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
