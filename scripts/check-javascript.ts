// `npm run check:javascript`: every page's JavaScript within its budget (lib/route-javascript.ts), read from
// the production build (built first when stale): its own at most 25 KB gz, and for the public catalog's
// pages all it loads at most 130 KB, as the bench holds them. Exact and quick (no server, no browser), so
// CI runs it; `npm run bench -- --js` measures the same from the served pages.
import { routeUses, type RoutePattern } from "../app/route-uses.ts";
import { buildIfStale, root } from "./lib/app-server.ts";
import { builtRouteJavaScript, catalogPage, javaScriptBudget } from "./lib/route-javascript.ts";

buildIfStale();
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB (${bytes.toLocaleString("en-US")} B)`;
const problems = (await builtRouteJavaScript(root)).flatMap(({ id, pattern, total, framework }) => {
  const use = routeUses[pattern as RoutePattern] as (typeof routeUses)[RoutePattern] | undefined;
  return [
    ...(total - framework > javaScriptBudget.ownKb * 1024 ? [`${id} (${pattern}): its own ${kb(total - framework)}`] : []),
    ...(use && catalogPage(use) && total > javaScriptBudget.allKb * 1024 ? [`${id} (${pattern}): all ${kb(total)}`] : []),
  ];
});
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
