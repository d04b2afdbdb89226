import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { cloudflareContext } from "./context.server";
import { hasAuthCookie, renderWasPersonal } from "./session.server";

/**
 * Serves anonymous GETs from the Workers cache (keyed on the URL and the client build) and stores the
 * anonymous responses that a page marked `public` (see http-cache.ts). A request with a session cookie
 * passes by; and whether a render may be kept is decided by what it did, not by the request's spelling:
 * one that read a session, went to the backend as a user or set a cookie is never stored. A request with `Cache-Control: no-cache` skips the lookup and renders
 * afresh; with `no-store` it also leaves the cache as it was. Server errors are marked `no-store`,
 * whatever the page asked for.
 */
export const edgeCacheMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method !== "GET" || hasAuthCookie(request)) return next();
  const streamed = { failed: false };
  context.set(streamedPartsContext, streamed);
  const cache = (caches as unknown as { default: Cache }).default;
  // A cached page names the build's hashed scripts; after a deploy they are gone, so the build is part of the key.
  const key = new Request(cacheUrl(request.url, context.get(cloudflareContext).buildVersion), { method: "GET" });
  // As RFC 9111 has it: a request's `no-cache` renders afresh (and refreshes the cache); its `no-store`
  // renders afresh and stores nothing.
  const asked = request.headers.get("Cache-Control") ?? "";
  const mayStore = !/\bno-store\b/.test(asked);
  if (mayStore && !/\bno-cache\b/.test(asked)) {
    const cached = await cache.match(key);
    if (cached) return withThisNonce(cached, context.get(cloudflareContext).nonce);
  }
  const response = await next();
  // A failure (for example the backend being down) must not be served again to the next visitors.
  if (response.status >= 500) response.headers.set("Cache-Control", "no-store");
  const cacheable =
    response.status === 200 &&
    (response.headers.get("Cache-Control") ?? "").startsWith("public") &&
    !response.headers.has("Set-Cookie") &&
    !renderWasPersonal(context);
  if (cacheable && mayStore) {
    const stored = response.clone();
    // How this one render went (round trips) says nothing about later hits.
    stored.headers.delete("Server-Timing");
    stored.headers.set(renderNonceHeader, context.get(cloudflareContext).nonce);
    // Stored once the whole page has been sent, deferred parts included: one that failed keeps it out.
    const store = async () => {
      const page = await stored.arrayBuffer();
      if (!streamed.failed) await cache.put(key, new Response(page, { status: stored.status, headers: stored.headers }));
    };
    context.get(cloudflareContext).ctx.waitUntil(store());
  }
  return response;
};

/** Whether a part of the page streamed after its first bytes (deferred loader data) failed; set per cacheable request. */
const streamedPartsContext = createContext<{ failed: boolean } | null>(null);

/**
 * For a loader's deferred part that failed (the track's audio URL, say): the page is still sent, but not
 * kept in the cache for the next visitors.
 */
export function keepOutOfCache(context: Readonly<RouterContextProvider>): void {
  const streamed = context.get(streamedPartsContext);
  if (streamed) streamed.failed = true;
}

/** The nonce a cached page was rendered with (kept in the cache only). */
const renderNonceHeader = "X-Render-Nonce";

/**
 * A cached page with this response's nonce: each response has its own, named by its Content-Security-
 * Policy, so the inline scripts the page was rendered with are given it. Only those: a script that
 * carried another nonce (or none) is left as it was, and the policy refuses it.
 */
function withThisNonce(cached: Response, nonce: string): Response {
  const rendered = cached.headers.get(renderNonceHeader);
  const page = rendered
    ? new HTMLRewriter()
        .on("[nonce]", {
          element(element) {
            if (element.getAttribute("nonce") === rendered) element.setAttribute("nonce", nonce);
          },
        })
        .transform(cached)
    : cached;
  const response = new Response(page.body, page);
  response.headers.delete(renderNonceHeader);
  return response;
}

/**
 * Drops a page from this location's cache after it changed (a profile saved, the news edited), before the
 * answer goes out, so the next visitor here sees the change at once; elsewhere the cached copy lives out
 * its lifetime (60 s). The Cache API keeps no stale copies past that (it ignores stale-while-revalidate),
 * so nothing removed comes back afterwards.
 */
export async function forgetCachedPage(request: Request, context: Readonly<RouterContextProvider>, path: string): Promise<void> {
  const cache = (caches as unknown as { default: Cache }).default;
  const { buildVersion } = context.get(cloudflareContext);
  await cache.delete(new Request(cacheUrl(new URL(path, request.url).href, buildVersion), { method: "GET" }));
}

function cacheUrl(url: string, buildVersion: string): string {
  const keyed = new URL(url);
  keyed.searchParams.set("__build", buildVersion);
  return keyed.href;
}
