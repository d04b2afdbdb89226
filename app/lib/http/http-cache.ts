import type { HeadersArgs } from "react-router";

/**
 * How long any answer that may turn private (a playlist made private, a track withdrawn, an account
 * banned) lives in a shared cache, in seconds: the bound where a purge did not reach.
 */
export const sharedCacheSeconds = 60;

/**
 * Anonymous renders of public pages: shared caches (the Workers cache, a CDN) may keep them a minute and
 * no longer (no stale copies: a page can turn private, see edge-cache.server.ts). Signed-in renders are
 * made `private, no-store` by the session middleware, whatever a page says.
 */
export const publicCacheControl = `public, s-maxage=${sharedCacheSeconds}`;

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

/**
 * The `headers` of a page a signed link opens (an unsubscribe or a newsletter confirmation link, a guest's
 * receipt): its holder's alone even signed out, so no cache keeps it, shared or the browser's, whatever
 * its loader, action or error answered.
 */
export const linkHolderPageHeaders = () => ({ "Cache-Control": "private, no-store" });
