// `npm run test:e2e`: the browser suite in Debian's Chromium, its files shared between two workers. Each
// worker has a marketplace of its own (lib/marketplace-process.ts: the local backend on a fresh database with
// the demo data, the stand-ins and the production build, on free ports), so no file sees another worker's
// changes. The files go longest first to whichever worker is free, and each file's report is printed whole
// when it ends. Any failure fails the run; everything started here is stopped afterwards, also when a test
// fails. `npm run test:e2e -- tests/e2e/x.test.ts` runs the files named (options for `node --test` pass on).
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { buildIfStale, exitCodeOf, root } from "./lib/app-server.ts";
import { requireChromium } from "./lib/chromium.ts";
import { forkMarketplace, type MarketplaceAddresses } from "./lib/marketplace-process.ts";

/**
 * Seconds each file took on a worker in a measured run (both workers busy, on a machine of CI's kind): the
 * order files are handed out in, so what counts is how they compare. A file not listed goes first, as if
 * the longest.
 */
const measuredSeconds: Record<string, number> = {
  "every-page-as-a-visitor.test.ts": 427,
  "track.test.ts": 407,
  "every-page-as-an-artist.test.ts": 380,
  "every-page-as-a-fan.test.ts": 377,
  "every-page-as-an-admin.test.ts": 300,
  "upload.test.ts": 247,
  "layout.test.ts": 237,
  "catalog.test.ts": 223,
  "studio.test.ts": 197,
  "checkout.test.ts": 164,
  "payouts.test.ts": 152,
  "memberships.test.ts": 10,
  "embeds.test.ts": 146,
  "player.test.ts": 142,
  "album.test.ts": 137,
  "accounts.test.ts": 126,
  "admin.test.ts": 101,
  "fan.test.ts": 115,
  "notifications.test.ts": 71,
  "artist-account.test.ts": 60,
  "dashboard.test.ts": 38,
  "gifts.test.ts": 12,
  "preorders.test.ts": 11,
};

const workerCount = 2;

const chromiumPath = requireChromium();
const args = process.argv.slice(2);
const options = args.filter((arg) => arg.startsWith("-"));
const named = args.filter((arg) => !arg.startsWith("-"));
const files = named.length
  ? named
  : readdirSync(join(root, "tests", "e2e"))
      .filter((file) => file.endsWith(".test.ts"))
      .map((file) => join("tests", "e2e", file));
const waiting = files.toSorted((a, b) => secondsOf(b) - secondsOf(a));

function secondsOf(file: string): number {
  return measuredSeconds[file.replace(/^.*[\\/]/, "")] ?? Infinity;
}

function environmentOf(marketplace: MarketplaceAddresses): NodeJS.ProcessEnv {
  return {
    ...process.env,
    E2E_BASE_URL: marketplace.appUrl,
    E2E_SUPABASE_URL: marketplace.supabaseUrl,
    E2E_MARKETPLACE_SECRET: marketplace.marketplaceSecret,
    E2E_STRIPE_URL: marketplace.stripe.url,
    E2E_MAIL_URL: marketplace.mail.url,
    E2E_MAIL_KEY: marketplace.mail.apiKey,
    E2E_PAYPAL_URL: marketplace.paypal.url,
    CHROMIUM_PATH: chromiumPath,
  };
}

const counts = { pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
const failedFiles: string[] = [];
const fileSeconds: [file: string, seconds: number][] = [];

/** Runs one file against a worker's marketplace, then prints its report whole and adds up its tests. */
async function runFile(file: string, worker: number, env: NodeJS.ProcessEnv) {
  const started = Date.now();
  const runner = spawn(process.execPath, ["--test", "--test-reporter=spec", ...options, file], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let report = "";
  runner.stdout.on("data", (chunk: Buffer) => (report += chunk.toString()));
  runner.stderr.on("data", (chunk: Buffer) => (report += chunk.toString()));
  const exitCode = await exitCodeOf(runner);
  const seconds = Math.round((Date.now() - started) / 1000);
  fileSeconds.push([file, seconds]);
  console.log(`\n── ${file} (worker ${worker}, ${seconds} s)\n${report.trimEnd()}`);
  let counted = 0;
  for (const [, name, count] of report.matchAll(/^ℹ (pass|fail|cancelled|skipped|todo) (\d+)$/gm)) {
    counts[name as keyof typeof counts] += Number(count);
    counted += Number(count);
  }
  // A file that ended badly without a failed test (it could not load, or was ended) fails the run too.
  if (exitCode !== 0 || counted === 0) failedFiles.push(file);
}

/** A worker: its marketplace, then files from the queue until none is left. */
async function work(worker: number, marketplace: MarketplaceAddresses) {
  const env = environmentOf(marketplace);
  for (let file = waiting.shift(); file !== undefined; file = waiting.shift()) await runFile(file, worker, env);
}

const started = Date.now();
// Built once here, before the workers' marketplaces would each build it at the same time.
buildIfStale();
const marketplaces = Array.from({ length: Math.min(workerCount, files.length) }, () => forkMarketplace());
const stopAll = () =>
  Promise.all(
    marketplaces.map((marketplace) =>
      marketplace.then(
        (started) => started.stop(),
        () => {},
      ),
    ),
  );
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    await stopAll();
    process.exit(130);
  });
}

let exitCode: number;
try {
  await Promise.all(marketplaces.map(async (marketplace, index) => work(index + 1, await marketplace)));
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`\nThe browser suite: ${files.length} files on ${marketplaces.length} workers in ${seconds} s. Each file's time (s):`);
  console.log(
    Object.fromEntries(fileSeconds.toSorted(([, a], [, b]) => b - a).map(([file, time]) => [file.replace(/^.*[\\/]/, ""), time])),
  );
  if (failedFiles.length) console.log(`Failed: ${failedFiles.join(", ")}`);
  console.log(`e2e: ${counts.pass} passed, ${counts.fail + counts.cancelled} failed, ${counts.skipped + counts.todo} skipped`);
  exitCode = failedFiles.length ? 1 : 0;
} finally {
  await stopAll();
}
process.exit(exitCode);
