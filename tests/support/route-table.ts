// The marketplace's routes as `app/routes.ts` declares them, flattened to their paths, so the suites
// that must reach every route (the fuzz test, the coverage check) derive their lists from the one table
// instead of keeping copies that miss what is added later.
import routes from "../../app/routes.ts";

type RouteEntry = { path?: string; index?: boolean; children?: RouteEntry[] };

/** Every route's path pattern (`/track/:id/audio`), layouts flattened; `/` for the index. */
export function routePatterns(entries: readonly RouteEntry[] = routes, prefix = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.index ? prefix || "/" : entry.path === undefined ? prefix : `${prefix}/${entry.path}`;
    const own = entry.index || entry.path !== undefined ? [path] : [];
    return [...own, ...routePatterns(entry.children ?? [], entry.path === undefined ? prefix : path)];
  });
}

/**
 * One address for a pattern, for each way it can be asked for: `{id}` where an id (or any one value)
 * goes, a kind that exists where a kind goes, an optional part with and without it, and a path of no
 * route where a splat is.
 */
export function routeAddresses(pattern: string): string[] {
  if (pattern === "/*") return ["/no/such/page"];
  const filled = pattern
    .replace("/embed/*", "/embed/{id}/more")
    .replace("sitemap/:kind", "sitemap/playlists")
    .replace(/:kind\/:id/, "playlist/{id}")
    .replace(/:[a-zA-Z]+(?=\/|$)/g, "{id}");
  const optional = /\/:[a-zA-Z]+\?$/;
  return optional.test(filled) ? [filled.replace(optional, ""), filled.replace(optional, "/{id}")] : [filled];
}
