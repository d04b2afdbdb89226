// The site-wide player in Chromium against a running marketplace:
// - continuity: a track playing while the listener follows 10 links across the catalog; the media
//   element's own clock is sampled every 10 ms, and the longest stretch in which it stood still while
//   playing is the gap (target: none over 100 ms);
// - next track: an album played with Repeat all, each track heard for its last seconds; from the media
//   element's `ended` to the next track's `playing` on the page's own clock (targets: p50 ≤ 300 ms on
//   loopback, ≤ 600 ms on throttled 4G);
// - the player's own JavaScript: its modules bundled without React and React Router, gzipped, as the
//   pages load them (on every page, once something is queued, when the queue is opened).
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import type { Page } from "playwright-core";
import { launchBrowser } from "../../tests/e2e/support/browser.ts";
import { demoTrackPath } from "./demo-data.ts";
import { root } from "./app-server.ts";
import type { NetworkProfile } from "./bench-playback.ts";
import { percentile } from "./percentile.ts";

export const playerTargets = { gapMs: 100, nextTrackMs: 300, nextTrackOnMobileMs: 600, barKb: 10 } as const;

const albumTrack = demoTrackPath("Bicycle Bell");
const artistName = "The Paper Lanterns";

async function throttle(page: Page, profile: NetworkProfile) {
  if (!profile) return;
  const network = await page.context().newCDPSession(page);
  await network.send("Network.enable");
  await network.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: profile.latencyMs,
    downloadThroughput: (profile.downloadMbps * 1e6) / 8,
    uploadThroughput: (profile.uploadMbps * 1e6) / 8,
  });
}

async function startPlaying(page: Page) {
  await page.goto(albumTrack);
  await page.waitForFunction(() => document.querySelector<HTMLButtonElement>("button[aria-label='Play Bicycle Bell']")?.disabled === false);
  await page.getByRole("button", { name: "Play Bicycle Bell" }).click();
  await page.waitForFunction(() => !document.querySelector("audio")!.paused && document.querySelector("audio")!.currentTime > 0.2);
}

export type Continuity = { navigations: number; longestGapMs: number; advancedSeconds: number; wallSeconds: number };

/** Plays a track, follows 10 links, and reports the longest stall of the media clock while it played. */
export async function measureContinuity(appUrl: string): Promise<Continuity> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: appUrl });
    const page = await context.newPage();
    await startPlaying(page);
    await page.evaluate(() => {
      const audio = document.querySelector("audio")!;
      const samples: [number, number][] = [];
      const timer = setInterval(() => !audio.paused && samples.push([performance.now(), audio.currentTime]), 10);
      Object.assign(window, { benchSamples: samples, benchTimer: timer });
    });
    const header = page.getByRole("banner");
    const links: [string, (page: Page) => ReturnType<Page["getByRole"]>][] = [
      ["/discover", () => header.getByRole("link", { name: "Discover", exact: true })],
      ["/genres", () => header.getByRole("link", { name: "Genres", exact: true })],
      ["/artists", () => header.getByRole("link", { name: "Artists", exact: true })],
      ["/artist/", () => page.locator("main").getByRole("link", { name: artistName }).first()],
      ["/track/", () => page.locator("main").getByRole("link", { name: "Harbour Wall" }).first()],
      ["/about", () => header.getByRole("link", { name: "About", exact: true })],
      ["/", () => header.getByRole("link", { name: "Home", exact: true })],
      ["/genres", () => header.getByRole("link", { name: "Genres", exact: true })],
      ["/discover", () => header.getByRole("link", { name: "Discover", exact: true })],
      ["/artist/", () => page.getByRole("region", { name: "Player", exact: true }).getByRole("link", { name: artistName })],
    ];
    for (const [path, link] of links) {
      await link(page).click();
      await page.waitForURL((url) => (path === "/" ? url.pathname === "/" : url.pathname.startsWith(path)));
      await page.locator("main h1").first().waitFor();
    }
    const samples = await page.evaluate(() => {
      const { benchSamples, benchTimer } = window as unknown as { benchSamples: [number, number][]; benchTimer: number };
      clearInterval(benchTimer);
      return benchSamples;
    });
    // The longest run of samples in which the media clock did not move.
    let longestGapMs = 0;
    let stillSince = samples[0]!;
    for (const sample of samples.slice(1)) {
      if (sample[1] !== stillSince[1]) stillSince = sample;
      else longestGapMs = Math.max(longestGapMs, sample[0] - stillSince[0]);
    }
    const first = samples[0]!;
    const last = samples.at(-1)!;
    await context.close();
    return { navigations: links.length, longestGapMs, advancedSeconds: last[1] - first[1], wallSeconds: (last[0] - first[0]) / 1000 };
  } finally {
    await browser.close();
  }
}

/** From one track's end to the next one playing, `runs` times, through an album on Repeat all. */
export async function measureNextTrack(appUrl: string, { runs = 10, network = null }: { runs?: number; network?: NetworkProfile } = {}) {
  const browser = await launchBrowser();
  const gaps: number[] = [];
  try {
    const context = await browser.newContext({ baseURL: appUrl });
    const page = await context.newPage();
    await throttle(page, network);
    await page.goto(albumTrack);
    await page.locator("main").getByRole("link", { name: artistName }).first().click();
    await page.getByRole("link", { name: "Play Small Town Satellites" }).click();
    const bar = page.getByRole("region", { name: "Player", exact: true });
    await bar.getByRole("button", { name: "Repeat: off" }).click();
    for (let run = 0; run < runs; run++) {
      await page.waitForFunction(() => {
        const audio = document.querySelector("audio")!;
        return !audio.paused && audio.duration > 0 && audio.currentTime > 0;
      });
      const gap = page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const audio = document.querySelector("audio")!;
            audio.addEventListener(
              "ended",
              (ended) => audio.addEventListener("playing", (playing) => resolve(playing.timeStamp - ended.timeStamp), { once: true }),
              { once: true },
            );
          }),
      );
      // The last 3 seconds of the track, heard as a listener would (the next URL is fetched ahead meanwhile).
      await page.evaluate(() => {
        const audio = document.querySelector("audio")!;
        audio.currentTime = audio.duration - 3;
      });
      gaps.push(await gap);
    }
    await context.close();
  } finally {
    await browser.close();
  }
  return gaps;
}

export type Renders = { seconds: number; clock: number; bar: number; page: number; commits: number };

/**
 * What re-renders while a track plays: React's commits are counted through the hook React DOM reports
 * to (as its DevTools do), for 10 s of playback on a track page. Each commit's re-rendered components
 * are placed by the first element they draw: what follows the clock (`data-player-clock`: the bar's seek
 * strip, the track page's waveform and elapsed time), the rest of the bar, or the rest of the page. The
 * goal: only what shows time.
 */
export async function measureRenders(appUrl: string): Promise<Renders> {
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ baseURL: appUrl });
    const page = await context.newPage();
    await page.addInitScript(() => {
      type Fiber = {
        tag: number;
        flags: number;
        child: Fiber | null;
        sibling: Fiber | null;
        alternate: Fiber | null;
        stateNode: unknown;
      };
      const counts = { clock: 0, bar: 0, page: 0, commits: 0, counting: false };
      // Function, forwardRef and memo components; PerformedWork is React's flag for "rendered now".
      const components = new Set([0, 11, 14, 15]);
      const performedWork = 1;
      const firstElement = (fiber: Fiber): Element | null => {
        for (let node: Fiber | null = fiber; node; node = node.child) if (node.tag === 5) return node.stateNode as Element;
        return null;
      };
      const place = (fiber: Fiber) => {
        const element = firstElement(fiber);
        if (element?.closest("[data-player-clock]")) counts.clock++;
        else if (element?.closest("[aria-label='Player']")) counts.bar++;
        else counts.page++;
      };
      const walk = (next: Fiber, previous: Fiber | null) => {
        if (components.has(next.tag) && (previous === null || (next.flags & performedWork) !== 0)) place(next);
        // Children React did not visit are the same objects as before.
        if (previous && next.child === previous.child) return;
        for (let child = next.child; child; child = child.sibling) walk(child, child.alternate);
      };
      Object.assign(window, {
        benchRenders: counts,
        __REACT_DEVTOOLS_GLOBAL_HOOK__: {
          supportsFiber: true,
          renderers: new Map(),
          inject: () => 1,
          checkDCE() {},
          onScheduleFiberRoot() {},
          onCommitFiberUnmount() {},
          onPostCommitFiberRoot() {},
          onCommitFiberRoot(_id: number, root: { current: Fiber }) {
            if (!counts.counting) return;
            counts.commits++;
            const current = root.current;
            if (current.child) walk(current.child, current.child.alternate);
          },
        },
      });
    });
    await startPlaying(page);
    await page.evaluate(() =>
      Object.assign((window as unknown as { benchRenders: { counting: boolean } }).benchRenders, { counting: true }),
    );
    const seconds = 10;
    await page.waitForTimeout(seconds * 1000);
    const counts = await page.evaluate(() => (window as unknown as { benchRenders: Renders }).benchRenders);
    await context.close();
    return { seconds, clock: counts.clock, bar: counts.bar, page: counts.page, commits: counts.commits };
  } finally {
    await browser.close();
  }
}

export type PlayerBarSizes = { everyPageKb: number; engineKb: number; controlsKb: number; queueKb: number };

/**
 * The player's own JavaScript, without React and React Router, gzipped: what every page carries (the
 * bar's shell and the player's state and commands), the engine and the controls loaded once something is
 * queued (the engine also on a track page, with its URL), and the queue view loaded when first opened
 * (each beyond what is already on the page).
 */
export async function measurePlayerBar(): Promise<PlayerBarSizes> {
  const bundle = async (entry: string, alreadyLoaded: string[]) => {
    const result = await build({
      entryPoints: [`${root}/${entry}`],
      bundle: true,
      write: false,
      minify: true,
      format: "esm",
      jsx: "automatic",
      alias: { "~": `${root}/app` },
      // The icon sprite is a file the browser fetches, not JavaScript.
      external: ["react", "react-dom", "react-router", "react/jsx-runtime", "*.svg?no-inline", ...alreadyLoaded],
      logLevel: "silent",
    });
    return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length / 1024;
  };
  return {
    everyPageKb: await bundle("app/components/player/player-bar.tsx", ["./player-controls", "./engine"]),
    engineKb: await bundle("app/lib/player/engine.ts", ["./store"]),
    // The player's store and commands are on the page already (`~/lib/player`, as the alias resolves it).
    controlsKb: await bundle("app/components/player/player-controls.tsx", ["./queue-panel", "*/lib/player"]),
    queueKb: await bundle("app/components/player/queue-panel.tsx", ["*/lib/player"]),
  };
}

export function printPlayer(
  continuity: Continuity,
  next: number[],
  nextOnMobile: number[],
  sizes: PlayerBarSizes,
  renders: Renders,
  mobile: NetworkProfile,
) {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const line = (label: string, values: number[], target: number) => {
    const p50 = percentile(sorted(values), 50);
    return `| ${label} | ${p50.toFixed(0)} ms | ${Math.max(...values).toFixed(0)} ms | ${target} ms | ${p50 <= target ? "met" : "not met"} |`;
  };
  console.log("\nThe site-wide player (Chromium, local stack)\n");
  console.log(
    `Continuity: ${continuity.navigations} client navigations while playing; the media clock advanced ${continuity.advancedSeconds.toFixed(1)} s ` +
      `in ${continuity.wallSeconds.toFixed(1)} s; longest stall ${continuity.longestGapMs.toFixed(0)} ms ` +
      `(target: none over ${playerTargets.gapMs} ms: ${continuity.longestGapMs <= playerTargets.gapMs ? "met" : "not met"}).`,
  );
  console.log("\n| next track (ended → playing) | p50 | max | target p50 | |");
  console.log("|---|---|---|---|---|");
  console.log(line(`loopback, ${next.length} changes`, next, playerTargets.nextTrackMs));
  console.log(line(`${mobile?.name ?? "throttled"}, ${nextOnMobile.length} changes`, nextOnMobile, playerTargets.nextTrackOnMobileMs));
  console.log(
    `\nThe player's own JavaScript (gz, beyond React and React Router): ${sizes.everyPageKb.toFixed(1)} KB on every page (the bar's shell, the player's state and commands); ` +
      `the engine ${sizes.engineKb.toFixed(1)} KB and the bar's controls ${sizes.controlsKb.toFixed(1)} KB, loaded once something is queued ` +
      `(bar in all: ${(sizes.everyPageKb + sizes.engineKb + sizes.controlsKb).toFixed(1)} KB, target ≤ ${playerTargets.barKb} KB); ` +
      `the queue view ${sizes.queueKb.toFixed(1)} KB, loaded when first opened. Modules the page already has count again here.`,
  );
  console.log(
    `\nRe-renders in ${renders.seconds} s of playback on a track page (${renders.commits} React commits): ` +
      `${renders.clock} of what shows time (the bar's seek strip, the page's waveform and elapsed time), ${renders.bar} elsewhere in the bar, ` +
      `${renders.page} elsewhere in the page (goal: only what shows time: ${renders.bar === 0 && renders.page === 0 ? "met" : "not met"}).`,
  );
}
