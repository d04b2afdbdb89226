import type { LoaderFunctionArgs } from "react-router";
import { read } from "~/lib/backend/backend.server";
import { createVisitorClient } from "~/lib/backend/supabase.server";
import { isUuid } from "~/lib/catalog/catalog";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { envFrom } from "~/lib/http/env.server";
import { publicCacheControl, uncached } from "~/lib/http/http-cache";
import { atomFeed, FeedSchema, feedPage, feedTypes, rssFeed } from "~/lib/sharing/feeds.server";

/**
 * A feed of releases, Atom (`feed.atom`) or RSS 2.0 (`feed.rss`): an artist's (`/artist/{id}/feed.…`), or
 * the site's new releases and news (`/feed.…`). One read, as a visitor sees it, kept at the edge like the
 * pages and dropped when what it lists changes. (Four routes share this module, so its arguments are typed
 * by hand.)
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const format = url.pathname.endsWith(".rss") ? "rss" : "atom";
  const artistId = params.id ?? null;
  if (artistId !== null && !isUuid(artistId)) return missing();
  tagCachedAnswer(context, artistId ? `user:${artistId}` : "news", "sitemap");
  const result = read(await createVisitorClient(request, envFrom(context)).rpc("release_feed", { artist_id: artistId ?? undefined }), {
    what: "release feed",
    schema: FeedSchema,
  });
  if (result.status !== "found") {
    return new Response("The feed is unavailable right now.", { status: 503, headers: { ...uncached, "Retry-After": "60" } });
  }
  const feed = result.data;
  if (artistId && !feed.artist) return missing();
  const page = feedPage(feed, url.origin);
  return new Response(format === "atom" ? atomFeed(feed, page) : rssFeed(feed, page), {
    headers: { "Content-Type": `${feedTypes[format]}; charset=utf-8`, "Cache-Control": publicCacheControl },
  });
}

function missing() {
  return new Response("Feed not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", ...uncached } });
}
