// Each Worker as `wrangler deploy` would upload it (its dry run on the production build): the size raw and
// gzipped, beside Cloudflare's limit for a Worker (3 MB gzipped on the free plan, 10 MB on a paid one).
// The page Worker is what every request starts; the media Worker (the codecs) starts only for a queue job.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./app-server.ts";

const workerLimitKb = { free: 3 * 1024, paid: 10 * 1024 } as const;

/** The Workers `wrangler deploy` publishes: the page Worker by the build's redirect, the media Worker by its built config. */
const deployedWorkers = [
  { name: "page Worker", args: [] },
  { name: "media Worker", args: ["--config", join("build", "media", "wrangler.json")] },
] as const;

export type WorkerBundle = { name: string; rawKb: number; gzipKb: number };

/** `wrangler deploy --dry-run` of one Worker: its output, or the error with wrangler's own words. */
function dryRunDeploy(args: readonly string[], outdir: string): string {
  const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
  const run = spawnSync(process.execPath, [wrangler, "deploy", ...args, "--dry-run", "--outdir", outdir], { cwd: root, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run ${args.join(" ")} failed:\n${run.stdout}${run.stderr}`);
  return `${run.stdout}${run.stderr}`;
}

export function measureWorkerBundles(): WorkerBundle[] {
  return deployedWorkers.map(({ name, args }) => {
    const outdir = mkdtempSync(join(tmpdir(), "worker-dry-run-"));
    try {
      const output = dryRunDeploy(args, outdir);
      const sizes = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
      if (!sizes) throw new Error(`wrangler deploy --dry-run named no size:\n${output}`);
      return { name, rawKb: Number(sizes[1]), gzipKb: Number(sizes[2]) };
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });
}

export function printWorkerBundles(bundles: WorkerBundle[]) {
  console.log("\nThe Workers (wrangler deploy --dry-run):");
  for (const { name, rawKb, gzipKb } of bundles) {
    console.log(
      `  ${name}: ${rawKb.toFixed(0)} KiB, ${gzipKb.toFixed(0)} KiB gzipped: ${((gzipKb / workerLimitKb.free) * 100).toFixed(0)}% of the free plan's ${workerLimitKb.free / 1024} MB limit (${workerLimitKb.paid / 1024} MB on a paid one)`,
    );
  }
}
