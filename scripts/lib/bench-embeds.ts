// The embeddable players as another site's reader loads them: the bytes of each embed (its HTML with the
// inline styles and icons, and its script, gzipped; the artwork aside), and how fast /oembed
// answers, rendered afresh and from the Workers cache.
import { gzipSync } from "node:zlib";
import { demoTrackPath } from "./demo-data.ts";
import { percentile } from "./percentile.ts";

export const embedTargets = { allInKb: 25, lighthouse: 1 } as const;

const demoPlaylist = "b1000000-0000-4000-8000-000000000001";

/** The embeds measured: the compact strip of a track and the large player of a playlist. */
export function embedPaths() {
  const trackId = demoTrackPath("Bicycle Bell").split("/").pop()!;
  return [`/embed/track/${trackId}?size=compact`, `/embed/playlist/${demoPlaylist}`];
}

export type EmbedFigures = {
  bytes: { path: string; html: number; script: number }[];
  oembed: { freshP50: number; cachedP50: number };
};

const gzipped = async (url: URL) => gzipSync(Buffer.from(await (await fetch(url)).arrayBuffer()), { level: 9 }).length;

export async function measureEmbeds(appUrl: string, requests = 50): Promise<EmbedFigures> {
  const bytes = [];
  for (const path of embedPaths()) {
    const html = await (await fetch(new URL(path, appUrl))).text();
    const script = /<script src="([^"]+)"/.exec(html)?.[1];
    // An embed fetches nothing else of ours: it draws its icons from its own markup.
    if (/<use href="[^"#]/.test(html)) throw new Error(`${path} draws an icon from a file`);
    bytes.push({
      path,
      html: gzipSync(Buffer.from(html), { level: 9 }).length,
      script: script ? await gzipped(new URL(script, appUrl)) : 0,
    });
  }
  const trackUrl = new URL(demoTrackPath("Bicycle Bell"), appUrl).href;
  const oembedUrl = new URL(`/oembed?${new URLSearchParams({ url: trackUrl, format: "json" })}`, appUrl);
  const timed = async (headers: Record<string, string>) => {
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      const response = await fetch(oembedUrl, { headers });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/oembed answered ${response.status}`);
      times.push(performance.now() - started);
    }
    return percentile(
      times.sort((a, b) => a - b),
      50,
    );
  };
  const freshP50 = await timed({ "Cache-Control": "no-store" });
  await fetch(oembedUrl);
  const cachedP50 = await timed({});
  return { bytes, oembed: { freshP50, cachedP50 } };
}

export function printEmbeds(figures: EmbedFigures, lighthouse: Record<string, { performance: number; accessibility: number }>) {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log("\nEmbeddable players (gzipped; the artwork aside)\n");
  console.log(`| embed | HTML, CSS and icons | script | all in (≤ ${embedTargets.allInKb} KB) | Lighthouse perf / a11y (median of 5) |`);
  console.log("|---|---|---|---|---|");
  for (const { path, html, script } of figures.bytes) {
    const score = lighthouse[path];
    console.log(
      `| \`${path}\` | ${kb(html)} | ${kb(script)} | ${kb(html + script)} | ${score ? `${score.performance.toFixed(2)} / ${score.accessibility.toFixed(2)}` : "–"} |`,
    );
  }
  console.log(
    `\n/oembed (a track's URL): p50 ${figures.oembed.freshP50.toFixed(1)} ms rendered afresh, ${figures.oembed.cachedP50.toFixed(1)} ms from the Workers cache.`,
  );
}
