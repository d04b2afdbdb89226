// The JavaScript a page loads, gzipped, against its budget: measured by the bench from a page's HTML
// (`npm run bench -- --js`), and checked in CI from the build's route manifest, which names the same
// files (`npm run check:javascript`).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { RouteUse } from "../../app/route-uses.ts";

/**
 * React and React Router (about 105 KB gz, in one chunk: see vite.config.ts) load on every page; what a
 * page adds (its own: its route modules, the root's and the layout's, and the chunks they import) stays small.
 */
export const javaScriptBudget = { allKb: 130, ownKb: 25 } as const;

/** React Router's client entry: its module and the framework chunks it imports, which every page loads. */
export type ClientEntry = { module: string; imports?: string[] };

export type JavaScriptFigures = { total: number; framework: number };

/** Gzipped bytes (level 9, as a CDN compresses) of each script, each read once. */
export function gzippedSizes(read: (src: string) => Promise<Uint8Array>): (src: string) => Promise<number> {
  const sizes = new Map<string, Promise<number>>();
  return (src) => {
    if (!sizes.has(src))
      sizes.set(
        src,
        read(src).then((bytes) => gzipSync(bytes, { level: 9 }).length),
      );
    return sizes.get(src)!;
  };
}

/** A page's scripts in all, and how much of that is the framework's (the client entry and its imports). */
export async function javaScriptFigures(
  scripts: Iterable<string>,
  { module, imports = [] }: ClientEntry,
  sizeOf: (src: string) => Promise<number>,
): Promise<JavaScriptFigures> {
  let total = 0;
  let framework = 0;
  for (const src of new Set(scripts)) {
    const size = await sizeOf(src);
    total += size;
    if (src === module || imports.includes(src)) framework += size;
  }
  return { total, framework };
}

type ManifestRoute = { id: string; parentId?: string; path?: string; module: string; imports?: string[]; hasDefaultExport: boolean };
type RouteManifest = { entry: Required<ClientEntry>; routes: Record<string, ManifestRoute> };

/** Pages whose JavaScript in all has a budget too: the public catalog's, which crawlers and newcomers open. */
export const catalogPage = (use: RouteUse) => use.kind === "page" && use.for === "everyone" && use.crawl;

/**
 * Each page's JavaScript as the production build (build/client) serves it, by route (its id and its address
 * pattern): what React Router's manifest names for the route, the routes around it (the root, the layout)
 * and the client entry, which the page's HTML preloads. Routes without a component load none.
 */
export async function builtRouteJavaScript(root: string): Promise<({ id: string; pattern: string } & JavaScriptFigures)[]> {
  const client = join(root, "build", "client");
  const manifestFile = readdirSync(join(client, "assets")).find((file) => /^manifest-.*\.js$/.test(file));
  if (!manifestFile) throw new Error("The client build has no route manifest (build/client/assets/manifest-*.js)");
  const manifestSource = readFileSync(join(client, "assets", manifestFile), "utf8");
  const manifest = JSON.parse(manifestSource.replace(/^window\.__reactRouterManifest=/, "").replace(/;\s*$/, "")) as RouteManifest;
  const sizeOf = gzippedSizes(async (src) => readFileSync(join(client, src)));
  const pages = [];
  for (const route of Object.values(manifest.routes)) {
    if (!route.hasDefaultExport) continue;
    const scripts = [manifest.entry.module, ...manifest.entry.imports];
    const segments: string[] = [];
    for (let around: ManifestRoute | undefined = route; around; around = around.parentId ? manifest.routes[around.parentId] : undefined) {
      scripts.push(around.module, ...(around.imports ?? []));
      if (around.path) segments.unshift(around.path);
    }
    pages.push({ id: route.id, pattern: `/${segments.join("/")}`, ...(await javaScriptFigures(scripts, manifest.entry, sizeOf)) });
  }
  return pages;
}
