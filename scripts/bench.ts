// `npm run bench`: the public catalog's performance against the local stack (fresh database with the
// demo data and media, the production build served by workerd). Figures, with the issue's targets
// beside them; nothing here passes or fails a build.
//
// One exported function per measurement, so other benches can be added beside them:
// - measureServerRenders: SSR p50/p95 (one request at a time) and requests/s (4 at a time) of each
//   page, rendered afresh (`Cache-Control: no-store`: past the Workers cache, neither read nor written)
//   or from the Workers cache, and of a static asset through the same server in the same run, for the ratio,
//   and of /about, the shared layout alone, for what every page pays before its own content;
// - measureRoundTrips: sequential backend round trips per render (the app's Server-Timing);
// - measureRouteJavaScript: the gzipped JavaScript each page loads (entry, route modules, shared chunks),
//   and the framework's share of it;
// - measureLighthouse: Lighthouse mobile performance and accessibility scores (median of 5 runs), in Debian's Chromium;
// - measureUploads (lib/bench-uploads.ts): a 50 MB WAV uploaded plainly and resumably, and resumed after a cut;
// - measureRenditions (lib/bench-renditions.ts): a four-minute WAV published, its stream's bytes, time, CPU and memory;
// - measureDownloads (lib/bench-downloads.ts): a bought track's first byte, a 10-track album's zip and workerd's memory while zipping,
//   and the MP3 and FLAC files made on first request (until ready, first byte);
// - measureLiveFeed (lib/bench-live-feed.ts): a comment inserted → on the artist dashboard's live feed;
//   measurePublishToBell: a release out today written and announced → on a follower's bell;
// - the studio's pages (signed in as the demo artist) and the administrators': their JavaScript and
//   backend round trips, and how fast an oversized form is refused (lib/bench-oversized-forms.ts).
// - measureWorkerBundles (lib/bench-worker-bundle.ts): each Worker's size as `wrangler deploy` uploads it.
// - the site-wide player (lib/bench-player.ts): playback continuity across 10 client navigations, the
//   next track's start after one ends (loopback and 4G), and the player bar's own JavaScript.
// - the embeddable players (lib/bench-embeds.ts): each embed's bytes all in, its Lighthouse scores, and
//   /oembed's p50 (afresh and cached).
// `npm run bench -- --embeds` measures the embeds alone, `-- --player` the player alone, `-- --uploads` measures the uploads alone, `-- --renditions` the streaming renditions alone, `-- --studio` the studio's pages and live feed,
// `-- --checkout` the checkout alone (Buy now → the payment page p50, payment → a four-minute track's MP3 ready, the cart's and return page's JavaScript),
// `-- --mail` a release to 10,000 mail recipients paced to the provider's rate (lib/bench-mail.ts; `--mails N`, `--scale K`),
// `-- --lighthouse` the Lighthouse scores alone, `-- --pages` the public pages' table alone (renders,
// first bytes, round trips, JavaScript, Lighthouse), `-- --bundle` the Worker's size alone.
//
// Load comes from a child process (this script with --load-generator), so the client never shares the
// event loop of the local backend, which runs in this process.
import { fork, type ChildProcess } from "node:child_process";
import { requireChromium } from "./lib/chromium.ts";
import { cookieHeaderOf } from "./lib/requests.ts";
import { startMarketplace, type Marketplace } from "./lib/marketplace.ts";
import { measurePlayback, mobileNetwork, printPlayback } from "./lib/bench-playback.ts";
import { measureContinuity, measureNextTrack, measurePlayerBar, measureRenders, printPlayer } from "./lib/bench-player.ts";
import { measureUploads, printUploads } from "./lib/bench-uploads.ts";
import { measureMail, printMail } from "./lib/bench-mail.ts";
import { measureRenditions, printRenditions } from "./lib/bench-renditions.ts";
import { measureDownloads, printDownloads } from "./lib/bench-downloads.ts";
import { measureCheckout, printCheckout } from "./lib/bench-checkout.ts";
import { measureLiveFeed, measurePublishToBell, printLiveFeed, printPublishToBell } from "./lib/bench-live-feed.ts";
import { measureOversizedForms, printOversizedForms } from "./lib/bench-oversized-forms.ts";
import { measureHeavyViewer, printHeavyViewer } from "./lib/bench-heavy-viewer.ts";
import { percentile } from "./lib/percentile.ts";
import {
  catalogPage,
  gzippedSizes,
  javaScriptBudget,
  javaScriptFigures,
  type ClientEntry,
  type JavaScriptFigures,
} from "./lib/route-javascript.ts";
import { measureWorkerBundles, printWorkerBundles } from "./lib/bench-worker-bundle.ts";
import { embedPaths, measureEmbeds, printEmbeds } from "./lib/bench-embeds.ts";
import { demoAccounts, demoAddressOf, demoPagesWhere } from "./lib/demo-data.ts";

export const targets = {
  ssrToStaticRatio: 3,
  routeJsKb: javaScriptBudget.allKb,
  pageJsKb: javaScriptBudget.ownKb,
  lighthousePerformance: 0.98,
  lighthouseAccessibility: 1,
} as const;

const demoArtist = demoAddressOf("/artist/:id");
// The demo artist and fan accounts' ids, as the seed makes them (their pages' addresses).
const demoArtistId = demoArtist.replace("/artist/", "");
const demoFanId = demoAddressOf("/fan/:id").replace("/fan/", "");
const demoTrack = demoAddressOf("/track/:id");
/** Signed-in pages: their JavaScript is measured (their renders are personal, never cached). */
const studioPages = [...demoPagesWhere((use) => use.for === "artists"), "/dashboard/artist/analytics?period=1y"];
const [demoAdminAccount, demoArtistAccount, demoFanAccount] = demoAccounts;
/** The administrators' pages, measured signed in as the demo administrator. */
const adminPages = demoPagesWhere((use) => use.for === "admins");
/** The fan space's pages, and those of any signed-in user, measured signed in as the demo fan. */
const fanPages = demoPagesWhere((use) => use.for === "fans" || use.for === "users");

/** Signs in through the login form and returns the session cookies as a Cookie header. */
async function signedInCookie(appUrl: string, { email, password }: { email: string; password: string }): Promise<string> {
  const response = await fetch(new URL("/login", appUrl), {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ email, password }),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: appUrl.replace(/\/$/, "") },
  });
  if (response.status !== 302) throw new Error(`Signing in as ${email} answered ${response.status}`);
  return cookieHeaderOf(response);
}

/** The public pages crawlers visit: the catalog, and the site's own pages. */
export const catalogPages = demoPagesWhere(catalogPage);
const staticAsset = "/favicon.svg";
// The cost every page pays before its own content: the shared layout around static text, no backend read.
const layoutOnly = "/about";
/**
 * Lighthouse runs take a minute a page: the home page and the two pages with the most media, beside
 * /about, whose score is the framework's own cost on this host: each page is shown by its distance from it.
 */
const lighthousePages = [layoutOnly, "/", demoArtist, demoTrack];

/**
 * What the figures stand for: a person's browser. The server hands crawlers (isbot, which counts Node's
 * fetch and Lighthouse's own "Chrome-Lighthouse" agent) the whole document at once, and browsers a stream
 * whose first bytes come before the page's deferred parts; the load and Lighthouse present these agents.
 */
const browserAgents = {
  desktop: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  mobile:
    "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
};

type LoadJob = { url: string; headers: Record<string, string>; requests: number; ms: number; concurrency: number };
type LoadResult = { latenciesMs: number[]; firstBytesMs: number[]; wallMs: number; failed: number; firstFailure?: string };
/** `firstByteP50`: when the page's first bytes arrive, which a streamed page sends before its deferred parts. */
export type RenderFigures = { path: string; p50: number; p95: number; firstByteP50: number; rps: number; failed: number };

async function runLoad({ url, headers, requests, ms, concurrency }: LoadJob): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  const firstBytesMs: number[] = [];
  let started = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const begin = performance.now();
  const client = async () => {
    while (started < requests && performance.now() - begin < ms) {
      started++;
      const t = performance.now();
      try {
        const response = await fetch(url, { headers: { "User-Agent": browserAgents.desktop, ...headers } });
        const reader = response.body!.getReader();
        let firstByte: number | null = null;
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) firstByte ??= performance.now() - t;
        if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
        latenciesMs.push(performance.now() - t);
        firstBytesMs.push(firstByte ?? performance.now() - t);
      } catch (error) {
        failed++;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return { latenciesMs, firstBytesMs, wallMs: performance.now() - begin, failed, firstFailure };
}

function load(generator: ChildProcess, job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve) => {
    generator.once("message", (result) => resolve(result as LoadResult));
    generator.send(job);
  });
}

/**
 * Each path after a warm-up: latency (p50/p95) from requests one at a time, so they never queue
 * behind each other, then throughput (requests/s) with `concurrency` clients. `fresh` sends
 * `Cache-Control: no-store`, which the app's edge cache honours by rendering anew and storing nothing, so
 * the figure is the render alone, not the cache write a production miss also makes.
 */
export async function measureServerRenders(
  appUrl: string,
  paths: string[],
  {
    fresh = true,
    requests = 200,
    concurrency = 4,
    ms = 8_000,
  }: { fresh?: boolean; requests?: number; concurrency?: number; ms?: number } = {},
): Promise<RenderFigures[]> {
  const generator = fork(import.meta.filename, ["--load-generator"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  try {
    const figures: RenderFigures[] = [];
    for (const path of paths) {
      const headers: Record<string, string> = fresh ? { "Cache-Control": "no-store" } : {};
      const job = { url: new URL(path, appUrl).href, headers };
      await load(generator, { ...job, requests: 40, ms: 5_000, concurrency });
      const latency = await load(generator, { ...job, requests, ms, concurrency: 1 });
      const throughput = await load(generator, { ...job, requests: requests * concurrency, ms, concurrency });
      const sorted = latency.latenciesMs.sort((a, b) => a - b);
      const failed = latency.failed + throughput.failed;
      if (failed) console.warn(`  ${path}: ${failed} failed (${latency.firstFailure ?? throughput.firstFailure})`);
      figures.push({
        path,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        firstByteP50: percentile(
          latency.firstBytesMs.sort((a, b) => a - b),
          50,
        ),
        rps: throughput.latenciesMs.length / (throughput.wallMs / 1000),
        failed,
      });
    }
    return figures;
  } finally {
    generator.disconnect();
  }
}

/** Sequential backend round trips of one fresh anonymous render of each path, as the app reports them. */
export async function measureRoundTrips(
  appUrl: string,
  paths: string[],
  headers: Record<string, string> = {},
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const path of paths) {
    const response = await fetch(new URL(path, appUrl), { headers: { "Cache-Control": "no-cache", ...headers } });
    await response.arrayBuffer();
    const match = (response.headers.get("server-timing") ?? "").match(/(\d+) round trips?/);
    counts[path] = match ? Number(match[1]) : NaN;
  }
  return counts;
}

/**
 * Gzipped bytes of every JavaScript module a page's HTML loads (module preloads and the entry import),
 * and how much of that is the framework every page shares: React Router's client entry and its imports
 * (React, React DOM, React Router).
 */
export async function measureRouteJavaScript(
  appUrl: string,
  paths: string[],
  headers: Record<string, string> = {},
): Promise<Record<string, JavaScriptFigures>> {
  const sizeOf = gzippedSizes(async (src) => new Uint8Array(await (await fetch(new URL(src, appUrl))).arrayBuffer()));
  const figures: Record<string, JavaScriptFigures> = {};
  for (const path of paths) {
    const html = await (await fetch(new URL(path, appUrl), { headers })).text();
    const scripts = [
      ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)].map((match) => match[1]!),
      ...[...html.matchAll(/import\("([^"]+\.js)"\)/g)].map((match) => match[1]!),
      ...[...html.matchAll(/<script[^>]*src="([^"]+\.js)"/g)].map((match) => match[1]!),
    ];
    const entry = /"entry":\s*(\{[^}]*\})/.exec(html)?.[1];
    figures[path] = await javaScriptFigures(scripts, entry ? (JSON.parse(entry) as ClientEntry) : { module: "" }, sizeOf);
  }
  return figures;
}

/**
 * Lighthouse's mobile preset (simulated slow 4G, mid-range phone) in Debian's Chromium. Scores move
 * from run to run, so each page is measured `runs` times after a warm-up load and the run with the
 * median performance score is reported, as Lighthouse's own guidance on variability advises.
 */
export async function measureLighthouse(
  appUrl: string,
  paths: string[],
  runs = 5,
): Promise<Record<string, { performance: number; accessibility: number }>> {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: requireChromium(),
    chromeFlags: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  try {
    const scores: Record<string, { performance: number; accessibility: number }> = {};
    for (const path of paths) {
      const url = new URL(path, appUrl).href;
      await lighthouse(url, {
        port: chrome.port,
        onlyCategories: ["performance"],
        logLevel: "error",
        emulatedUserAgent: browserAgents.mobile,
      });
      const results: { performance: number; accessibility: number }[] = [];
      for (let run = 0; run < runs; run++) {
        const result = await lighthouse(url, {
          port: chrome.port,
          onlyCategories: ["performance", "accessibility"],
          logLevel: "error",
          emulatedUserAgent: browserAgents.mobile,
        });
        const categories = result?.lhr.categories;
        results.push({ performance: categories?.performance?.score ?? NaN, accessibility: categories?.accessibility?.score ?? NaN });
      }
      results.sort((a, b) => a.performance - b.performance);
      scores[path] = results[Math.floor(results.length / 2)]!;
    }
    return scores;
  } finally {
    chrome.kill();
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Signed-in pages: their JavaScript and backend round trips (session check included). */
async function printSignedInPages(appUrl: string, title: string, pages: string[], cookie: string) {
  const javaScript = await measureRouteJavaScript(appUrl, pages, { Cookie: cookie });
  const roundTrips = await measureRoundTrips(appUrl, pages, { Cookie: cookie });
  console.log(`\n${title}: JS gz all / framework / page (≤ ${targets.pageJsKb} KB)\n`);
  console.log("| page | round trips | JS gz: all / framework / page |\n|---|---|---|");
  for (const path of pages) {
    const js = javaScript[path]!;
    console.log(`| \`${path}\` | ${roundTrips[path]} | ${kb(js.total)} / ${kb(js.framework)} / ${kb(js.total - js.framework)} |`);
  }
}

async function printStudioAndFanSpace(marketplace: Marketplace, artistCookie: string) {
  const { appUrl } = marketplace;
  await printSignedInPages(appUrl, "The artist studio (signed in as the demo artist)", studioPages, artistCookie);
  printOversizedForms(await measureOversizedForms(appUrl, artistCookie));
  printHeavyViewer(await measureHeavyViewer(appUrl, marketplace.supabaseUrl));
  await printSignedInPages(appUrl, "The fan space (signed in as the demo fan)", fanPages, await signedInCookie(appUrl, demoFanAccount));
  await printSignedInPages(
    appUrl,
    "Administration (signed in as the demo administrator)",
    adminPages,
    await signedInCookie(appUrl, demoAdminAccount),
  );
}

/** The public pages' table: renders afresh and from the cache, first bytes, round trips, JavaScript and Lighthouse. */
async function printPublicPages(appUrl: string) {
  console.log("Server renders (fresh, past the Workers cache)…");
  const [staticFigures] = await measureServerRenders(appUrl, [staticAsset], { fresh: false });
  const [layoutFigures] = await measureServerRenders(appUrl, [layoutOnly]);
  const fresh = await measureServerRenders(appUrl, catalogPages);
  console.log("Server renders (anonymous, from the Workers cache)…");
  const cached = await measureServerRenders(appUrl, catalogPages, { fresh: false });
  const roundTrips = await measureRoundTrips(appUrl, catalogPages);
  const javaScript = await measureRouteJavaScript(appUrl, catalogPages);
  console.log("Lighthouse (mobile)…");
  const lighthouseScores = await measureLighthouse(appUrl, lighthousePages);
  const staticP50 = staticFigures!.p50;
  console.log(
    `\nStatic asset ${staticAsset} through the same server: p50 ${ms(staticP50)}, p95 ${ms(staticFigures!.p95)}, ${staticFigures!.rps.toFixed(0)} req/s`,
  );
  console.log(
    `Layout only (${layoutOnly}: the shared layout around static text, no backend read), rendered afresh: p50 ${ms(layoutFigures!.p50)} (${(layoutFigures!.p50 / staticP50).toFixed(2)}× static), p95 ${ms(layoutFigures!.p95)}\n`,
  );
  console.log(
    `| page | SSR p50 | SSR p95 | SSR req/s | p50 ÷ static (≤ ${targets.ssrToStaticRatio}) | cached p50 | cached req/s | first byte p50 | round trips | JS gz: all (≤ ${targets.routeJsKb} KB) / framework / page (≤ ${targets.pageJsKb} KB) | Lighthouse perf (beside /about) / a11y (median of 5) |`,
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  for (const render of fresh) {
    const hit = cached.find((figures) => figures.path === render.path)!;
    const score = lighthouseScores[render.path];
    const js = javaScript[render.path]!;
    const page = render.path.replace(/[0-9a-f-]{36}$/, "{id}");
    console.log(
      `| \`${page}\` | ${ms(render.p50)} | ${ms(render.p95)} | ${render.rps.toFixed(0)} | ${(render.p50 / staticP50).toFixed(2)} | ${ms(hit.p50)} | ${hit.rps.toFixed(0)} | ${ms(render.firstByteP50)} | ${roundTrips[render.path]} | ${kb(js.total)} / ${kb(js.framework)} / ${kb(js.total - js.framework)} | ${score ? `${score.performance.toFixed(2)}${beyondLayout(lighthouseScores, render.path)} / ${score.accessibility.toFixed(2)}` : "–"} |`,
    );
  }
  const layoutScore = lighthouseScores[layoutOnly];
  if (layoutScore)
    console.log(
      `\nLighthouse of ${layoutOnly} (the layout alone, the framework's cost here): performance ${layoutScore.performance.toFixed(2)}`,
    );
  console.log(
    `\nTargets: SSR p50 ≤ ${targets.ssrToStaticRatio}× the static asset; JS ≤ ${targets.routeJsKb} KB gz per route in all, of which the page's own ≤ ${targets.pageJsKb} KB; Lighthouse performance ≥ ${targets.lighthousePerformance}, accessibility ${targets.lighthouseAccessibility}.`,
  );
  return lighthouseScores;
}

/** A page's Lighthouse performance beside /about's in the same run: what its own work costs beyond the framework's. */
function beyondLayout(scores: Record<string, { performance: number }>, path: string): string {
  const layout = scores[layoutOnly];
  if (!layout || path === layoutOnly) return "";
  const distance = scores[path]!.performance - layout.performance;
  return ` (${distance >= 0 ? "+" : "−"}${Math.abs(distance).toFixed(2)})`;
}

/** Lighthouse's mobile performance is a target, not a figure: the bench fails for a page below 0.98 or over 0.05 below /about. */
function requireLighthouseTargets(scores: Record<string, { performance: number }>): void {
  const layout = scores[layoutOnly]?.performance;
  const short = Object.entries(scores).filter(
    ([, score]) => score.performance < targets.lighthousePerformance || (layout !== undefined && layout - score.performance > 0.05),
  );
  if (short.length > 0) {
    throw new Error(
      `Lighthouse performance below ${targets.lighthousePerformance}, or more than 0.05 below ${layoutOnly}: ${short.map(([path, score]) => `${path} ${score.performance.toFixed(2)}`).join(", ")}`,
    );
  }
}

/** `--mails N` and `--scale K` of `--mail`: how many recipients (10,000), and how many times Resend's rate (50). */
function mailBenchOptions() {
  const after = (flag: string, fallback: number) => {
    const at = process.argv.indexOf(flag);
    return at >= 0 ? Number(process.argv[at + 1]) : fallback;
  };
  return { mails: after("--mails", 10_000), scale: after("--scale", 50) };
}

async function main() {
  let marketplace: Marketplace | undefined;
  let exitCode = 0;
  // Lighthouse, playback and the live feed run in Chromium: say so before minutes of setup, not after.
  if (!["--uploads", "--bundle", "--renditions", "--downloads", "--checkout", "--mail"].some((only) => process.argv.includes(only)))
    requireChromium();
  try {
    // Mail has its own stack: no demo media, its own followers.
    if (process.argv.includes("--mail")) {
      printMail(await measureMail(mailBenchOptions()));
      return;
    }
    console.log("Starting the local backend (fresh database, demo data and media) and the production build in workerd…");
    marketplace = await startMarketplace();
    const { appUrl } = marketplace;
    const artistCookie = await signedInCookie(appUrl, demoArtistAccount);
    if (process.argv.includes("--uploads")) {
      printUploads(await measureUploads(marketplace, { ...demoArtistAccount, cookie: artistCookie }));
      return;
    }
    if (process.argv.includes("--renditions")) {
      printRenditions(await measureRenditions(marketplace, { ...demoArtistAccount, cookie: artistCookie }));
      return;
    }
    const measureDownloadFigures = async () =>
      measureDownloads(marketplace!, { id: demoArtistId }, { id: demoFanId, cookie: await signedInCookie(appUrl, demoFanAccount) });
    if (process.argv.includes("--downloads")) {
      printDownloads(await measureDownloadFigures());
      return;
    }
    if (process.argv.includes("--checkout")) {
      const fan = { id: demoFanId, cookie: await signedInCookie(appUrl, demoFanAccount) };
      const figures = await measureCheckout(marketplace, fan, demoArtistId);
      printCheckout(figures, await measureRouteJavaScript(appUrl, ["/cart", figures.returnPath], { Cookie: fan.cookie }));
      return;
    }
    if (process.argv.includes("--bundle")) {
      printWorkerBundles(measureWorkerBundles());
      return;
    }
    if (process.argv.includes("--lighthouse")) {
      const scores = await measureLighthouse(appUrl, lighthousePages);
      for (const [path, score] of Object.entries(scores)) {
        console.log(
          `${path}: performance ${score.performance.toFixed(2)}${beyondLayout(scores, path)}, accessibility ${score.accessibility.toFixed(2)}`,
        );
      }
      requireLighthouseTargets(scores);
      return;
    }
    if (process.argv.includes("--js")) {
      // Each public page's JavaScript alone (gzipped): all of it, the framework's share, and the page's own.
      const figures = await measureRouteJavaScript(appUrl, catalogPages);
      console.log("| page | all (≤ 130 KB) | framework | own (≤ 25 KB) |\n|---|---|---|---|");
      for (const [path, { total, framework }] of Object.entries(figures)) {
        console.log(
          // (bytes too: a page near its budget is over it by a byte, which one decimal of KB hides)
          `| \`${path}\` | ${(total / 1024).toFixed(1)} KB (${total.toLocaleString("en-US")} B) | ${(framework / 1024).toFixed(1)} KB | ${((total - framework) / 1024).toFixed(1)} KB |`,
        );
      }
      return;
    }
    if (process.argv.includes("--viewer")) {
      printHeavyViewer(await measureHeavyViewer(appUrl, marketplace.supabaseUrl));
      return;
    }
    if (process.argv.includes("--forms")) {
      printOversizedForms(await measureOversizedForms(appUrl, artistCookie));
      return;
    }
    if (process.argv.includes("--studio")) {
      await printStudioAndFanSpace(marketplace, artistCookie);
      printLiveFeed(await measureLiveFeed(marketplace));
      printPublishToBell(await measurePublishToBell(marketplace));
      return;
    }

    if (process.argv.includes("--pages")) {
      requireLighthouseTargets(await printPublicPages(appUrl));
      return;
    }
    if (process.argv.includes("--playback")) {
      printPlayback(await measurePlayback(marketplace));
      printPlayback(await measurePlayback(marketplace, { runs: 5, network: mobileNetwork }), mobileNetwork);
      return;
    }
    const measureEmbedFigures = async () => {
      console.log("Embeddable players and oEmbed…");
      const figures = await measureEmbeds(appUrl);
      const scores = await measureLighthouse(appUrl, embedPaths());
      return () => printEmbeds(figures, scores);
    };
    if (process.argv.includes("--embeds")) {
      (await measureEmbedFigures())();
      return;
    }
    const measurePlayer = async () => {
      console.log("The site-wide player (Chromium)…");
      const continuity = await measureContinuity(appUrl);
      const next = await measureNextTrack(appUrl);
      const nextOnMobile = await measureNextTrack(appUrl, { runs: 5, network: mobileNetwork });
      const sizes = await measurePlayerBar();
      const renders = await measureRenders(appUrl);
      return () => printPlayer(continuity, next, nextOnMobile, sizes, renders, mobileNetwork);
    };
    if (process.argv.includes("--player")) {
      (await measurePlayer())();
      return;
    }

    const lighthouseScores = await printPublicPages(appUrl);
    console.log("Uploads (a 50 MB WAV)…");
    const uploads = await measureUploads(marketplace, { ...demoArtistAccount, cookie: artistCookie });
    console.log("Streaming renditions (a four-minute WAV)…");
    const renditions = await measureRenditions(marketplace, { ...demoArtistAccount, cookie: artistCookie });
    console.log("Downloads (a four-minute WAV, a 10-track album's zip)…");
    const downloads = await measureDownloadFigures();
    console.log("Play latency on the track page (Chromium)…");
    const playback = await measurePlayback(marketplace);
    const playbackOnMobile = await measurePlayback(marketplace, { runs: 5, network: mobileNetwork });
    console.log("Live feed on the artist dashboard (Chromium)…");
    const liveFeed = await measureLiveFeed(marketplace);
    const publishToBell = await measurePublishToBell(marketplace);
    const printPlayerFigures = await measurePlayer();
    const printEmbedFigures = await measureEmbedFigures();

    await printStudioAndFanSpace(marketplace, artistCookie);
    printUploads(uploads);
    printRenditions(renditions);
    printDownloads(downloads);
    printPlayback(playback);
    printPlayback(playbackOnMobile, mobileNetwork);
    printPlayerFigures();
    printEmbedFigures();
    printLiveFeed(liveFeed);
    printPublishToBell(publishToBell);
    printWorkerBundles(measureWorkerBundles());
    requireLighthouseTargets(lighthouseScores);
  } catch (error) {
    console.error(error);
    exitCode = 1;
  } finally {
    await marketplace?.stop();
  }
  process.exit(exitCode);
}

// Run as a script (not imported by another bench): the bench itself, or its load generator.
if (process.argv.includes("--load-generator")) {
  process.on("message", async (job: LoadJob) => process.send?.(await runLoad(job)));
  process.on("disconnect", () => process.exit(0));
} else if (import.meta.filename === process.argv[1]) {
  await main();
}
