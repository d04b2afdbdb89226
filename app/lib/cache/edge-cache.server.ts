import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { cloudflareContext } from "../http/context.server";
import { framingSite } from "../sharing/embedding.server";
import { envFrom, type AppEnv } from "../http/env.server";
import { isEmbedPath } from "../http/security-headers.server";
import { sharedCacheSeconds } from "../http/http-cache";
import { hasAuthCookie, renderWasPersonal } from "../session/session.server";
import { hasCartCookie } from "../payments/cart";

/**
 * Serves anonymous GETs from the Workers cache (keyed on the URL and the client build) and stores the
 * anonymous responses that a page marked `public` (see http-cache.ts). A request with a session cookie
 * passes by; and whether a render may be kept is decided by what it did, not by the request's spelling:
 * one that read a session, went to the backend as a user or set a cookie is never stored. A request with
 * `Cache-Control: no-cache` skips the lookup and renders afresh; with `no-store` it also leaves the cache
 * as it was. Server errors are marked `no-store`, whatever the page asked for. An embed's page is kept
 * once per site that frames it (it carries that site, signed, for its plays).
 */
export const edgeCacheMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  if (request.method !== "GET" || hasAuthCookie(request) || hasCartCookie(request)) return next();
  const streamed = { failed: false };
  context.set(streamedPartsContext, streamed);
  const tags = new Set<CacheTag>();
  context.set(cacheTagsContext, tags);
  const cache = (caches as unknown as { default: Cache }).default;
  // A cached page names the build's hashed scripts; after a deploy they are gone, so the build is part of the key.
  const key = new Request(cacheUrl(request.url, context.get(cloudflareContext).buildVersion, embedSiteKey(request)), { method: "GET" });
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
    // Cloudflare's purge by tag reads the stored answer's Cache-Tag; this location's index lists its key.
    if (tags.size > 0) stored.headers.set("Cache-Tag", [...tags].join(","));
    // Stored once the whole page has been sent, deferred parts included: one that failed keeps it out.
    const store = async () => {
      const page = await stored.arrayBuffer();
      if (streamed.failed) return;
      await cache.put(key, new Response(page, { status: stored.status, headers: stored.headers }));
      await indexUnderTags(cache, new URL(request.url).origin, key.url, tags);
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
  response.headers.delete("Cache-Tag");
  return response;
}

/**
 * What a cached answer shows, so that a change to any of these drops it: a track, a playlist, a user's
 * profile (everything of theirs: their page, their tracks' and playlists' pages and embeds), the sitemap,
 * the news. The same tag names every address of a thing: its page, its `.data`, its embeds in each size
 * and theme, the oEmbed answers for each of its URLs.
 */
export type CacheTag = `track:${string}` | `playlist:${string}` | `user:${string}` | "sitemap" | "news";

/** What a change to a track drops: its own addresses, its artist's (their page and embed list it), the sitemap. */
export const trackChanged = (trackId: string, artistId: string): CacheTag[] => [`track:${trackId}`, `user:${artistId}`, "sitemap"];

/** What a change to a playlist drops: its own addresses, its owner's page (which lists it), the sitemap. */
export const playlistChanged = (playlistId: string, ownerId: string): CacheTag[] => [
  `playlist:${playlistId}`,
  `user:${ownerId}`,
  "sitemap",
];

/** What a change to an account drops: everything of theirs (their pages, tracks, playlists and embeds), the sitemap. */
export const accountChanged = (userId: string): CacheTag[] => [`user:${userId}`, "sitemap"];

/** The tags of the answer being rendered; set per cacheable request by the edge cache. */
const cacheTagsContext = createContext<Set<CacheTag> | null>(null);

/** Names what this answer shows (see CacheTag); a no-op for answers the edge cache will not keep. */
export function tagCachedAnswer(context: Readonly<RouterContextProvider>, ...tags: CacheTag[]): void {
  const tagged = context.get(cacheTagsContext);
  for (const tag of tags) tagged?.add(tag);
}

/** The keys stored under a tag in this location's cache: an index kept in the cache itself, a little longer than what it lists. */
const tagIndexUrl = (origin: string, tag: CacheTag) => `${origin}/__cache-tags/${encodeURIComponent(tag)}`;
const tagIndexLimit = 500;

/** The keys a tag's index lists (none when it holds nothing readable). */
async function listedUnder(cache: Cache, indexUrl: string): Promise<string[]> {
  const listed = await cache.match(indexUrl);
  const keys: unknown = listed ? await listed.json().catch(() => []) : [];
  return Array.isArray(keys) ? keys.filter((key): key is string => typeof key === "string") : [];
}

async function indexUnderTags(cache: Cache, origin: string, key: string, tags: Iterable<CacheTag>): Promise<void> {
  for (const tag of tags) {
    const indexUrl = tagIndexUrl(origin, tag);
    const kept = (await listedUnder(cache, indexUrl)).filter((listedKey) => listedKey !== key);
    const index = [...kept.slice(-(tagIndexLimit - 1)), key];
    await cache.put(
      indexUrl,
      new Response(JSON.stringify(index), {
        headers: { "Content-Type": "application/json", "Cache-Control": `public, s-maxage=${sharedCacheSeconds * 2}` },
      }),
    );
  }
}

/**
 * Drops every cached answer that shows one of these things, before the answer to the change goes out:
 * at once in this location (every key its tags list), and everywhere through Cloudflare's purge by tag
 * when the Worker has a purge token (`CACHE_PURGE_TOKEN` and `CLOUDFLARE_ZONE_ID`; see docs/deploying.md). What a
 * purge misses lives at most `sharedCacheSeconds`: the Cache API keeps nothing past its lifetime.
 */
export async function forgetCached(request: Request, context: Readonly<RouterContextProvider>, tags: CacheTag[]): Promise<void> {
  const cache = (caches as unknown as { default: Cache }).default;
  const { origin } = new URL(request.url);
  const { ctx } = context.get(cloudflareContext);
  const purge = globalPurge(envFrom(context), tags);
  if (purge) ctx.waitUntil(purge);
  // The change itself has gone through: a cache that fails here is logged, and its copies expire in time.
  await Promise.all(
    tags.map(async (tag) => {
      const indexUrl = tagIndexUrl(origin, tag);
      await Promise.all((await listedUnder(cache, indexUrl)).map((key) => cache.delete(key)));
      await cache.delete(indexUrl);
    }),
  ).catch((error: unknown) => console.warn("dropping cached copies failed", tags, error));
}

/** Cloudflare's purge by tag, for every data centre; none without a token. A failure is logged: the lifetime bounds it. */
export function globalPurge(
  { CACHE_PURGE_TOKEN: token, CLOUDFLARE_ZONE_ID: zone }: Pick<AppEnv, "CACHE_PURGE_TOKEN" | "CLOUDFLARE_ZONE_ID">,
  tags: CacheTag[],
  send: typeof fetch = fetch,
): Promise<void> | null {
  if (!token || !zone) return null;
  return send(`https://api.cloudflare.com/client/v4/zones/${encodeURIComponent(zone)}/purge_cache`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ tags }),
  }).then(
    async (response) => {
      if (!response.ok) console.error("purging the cache by tag failed", response.status, await response.text());
    },
    (error: unknown) => console.error("purging the cache by tag failed", error),
  );
}

/** An embed's page names the site that framed it (framingSite), so each site's copy is kept apart. */
function embedSiteKey(request: Request): string | null {
  const url = new URL(request.url);
  return isEmbedPath(url.pathname) ? (framingSite(request, url.origin) ?? "") : null;
}

function cacheUrl(url: string, buildVersion: string, site: string | null = null): string {
  const keyed = new URL(url);
  keyed.searchParams.set("__build", buildVersion);
  if (site !== null) keyed.searchParams.set("__site", site);
  return keyed.href;
}
