import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { envFrom } from "~/lib/http/env.server";
import { createVisitorClient } from "~/lib/backend/supabase.server";
import { sitemapCacheControl, sitemapCounts, sitemapPageSize, sitemapUnavailable, sitemapXml } from "./sitemap.server";
import type { Route } from "./+types/sitemap";

/**
 * `/sitemap.xml`: the index of the site's sitemaps (the catalog's pages, then the artists, released
 * tracks and public playlists a page of 1,000 at a time), as any visitor would find them.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  tagCachedAnswer(context, "sitemap");
  const origin = new URL(request.url).origin;
  const counts = await sitemapCounts(createVisitorClient(request, envFrom(context)));
  const failed = counts.find(({ error }) => error);
  if (failed) {
    console.error("counting the sitemap's pages failed", failed.error);
    return sitemapUnavailable();
  }
  const sitemaps = [
    { loc: `${origin}/sitemap/pages/1` },
    ...counts.flatMap(({ kind, count }) =>
      Array.from({ length: Math.ceil((count ?? 0) / sitemapPageSize) }, (_, i) => ({ loc: `${origin}/sitemap/${kind}/${i + 1}` })),
    ),
  ];
  return new Response(sitemapXml("sitemapindex", sitemaps), {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": sitemapCacheControl },
  });
}
