// The Worker as `wrangler deploy` would upload it (its dry run on the production build): the size raw and
// gzipped, beside Cloudflare's limit for a Worker (3 MB gzipped on the free plan, 10 MB on a paid one).
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root } from "./app-server.ts";

const workerLimitKb = { free: 3 * 1024, paid: 10 * 1024 } as const;

export type WorkerBundle = { rawKb: number; gzipKb: number };

export function measureWorkerBundle(): WorkerBundle {
  const outdir = mkdtempSync(join(tmpdir(), "worker-dry-run-"));
  try {
    const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
    const run = spawnSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", outdir], { cwd: root, encoding: "utf8" });
    const sizes = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(`${run.stdout}${run.stderr}`);
    if (run.status !== 0 || !sizes) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}${run.stderr}`);
    return { rawKb: Number(sizes[1]), gzipKb: Number(sizes[2]) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

export function printWorkerBundle({ rawKb, gzipKb }: WorkerBundle) {
  console.log(
    `\nThe Worker (wrangler deploy --dry-run): ${rawKb.toFixed(0)} KiB, ${gzipKb.toFixed(0)} KiB gzipped: ${((gzipKb / workerLimitKb.free) * 100).toFixed(0)}% of the free plan's ${workerLimitKb.free / 1024} MB limit (${workerLimitKb.paid / 1024} MB on a paid plan)`,
  );
}
