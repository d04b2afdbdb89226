import type { HeadersArgs } from "react-router";

/**
 * Anonymous renders of public pages: shared caches (the Workers cache, a CDN) may keep them a minute
 * and serve them stale for five more while they refresh. Signed-in renders are made `private, no-store`
 * by the session middleware, whatever a page says.
 */
export const publicCacheControl = "public, s-maxage=60, stale-while-revalidate=300";

/**
 * The `headers` of a public page: cacheable, unless its loader or action chose otherwise (e.g. a
 * failed backend read, which must not be kept) or it ended in an error.
 */
export function publicPageHeaders({ loaderHeaders, actionHeaders, errorHeaders }: HeadersArgs) {
  const chosen = actionHeaders?.get("Cache-Control") ?? loaderHeaders.get("Cache-Control");
  return { "Cache-Control": errorHeaders ? "no-store" : (chosen ?? publicCacheControl) };
}

/** For a loader or action whose answer must not be cached (a failure, a form's reply). */
export const uncached = { "Cache-Control": "no-store" } as const;
