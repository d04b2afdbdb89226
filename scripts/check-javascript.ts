// `npm run check:javascript`: every page's JavaScript within its budget (lib/route-javascript.ts), read from
// the production build (built first when stale): its own at most 25 KB gz, and for the public catalog's
// pages all it loads at most 130 KB, as the bench holds them. Exact and quick (no server, no browser), so
// CI runs it; `npm run bench -- --js` measures the same from the served pages.
import { routeUses, type RoutePattern } from "../app/route-uses.ts";
import { buildIfStale, root } from "./lib/app-server.ts";
import { builtRouteJavaScript, catalogPage, javaScriptBudget } from "./lib/route-javascript.ts";

buildIfStale();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB (${bytes.toLocaleString("en-US")} B)`;
const budget = { own: javaScriptBudget.ownKb * 1024, all: javaScriptBudget.allKb * 1024 };
const problems: string[] = [];
for (const { id, pattern, total, framework } of await builtRouteJavaScript(root)) {
  const use = routeUses[pattern as RoutePattern] as (typeof routeUses)[RoutePattern] | undefined;
  const figures = { own: total - framework, ...(use && catalogPage(use) ? { all: total } : {}) };
  for (const [measure, bytes] of Object.entries(figures) as ["own" | "all", number][]) {
    if (bytes > budget[measure]) problems.push(`${id} (${pattern}): ${measure} ${kb(bytes)}`);
  }
}
if (problems.length > 0) {
  console.error(
    `Over the JavaScript budget (a page's own ≤ ${javaScriptBudget.ownKb} KB gz; a public page's all ≤ ${javaScriptBudget.allKb} KB gz):`,
  );
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `Every page's JavaScript is within its budget (its own ≤ ${javaScriptBudget.ownKb} KB gz; a public page's all ≤ ${javaScriptBudget.allKb} KB gz).`,
);
