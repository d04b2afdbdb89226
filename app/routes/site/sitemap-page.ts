import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { envFrom } from "~/lib/http/env.server";
import { createVisitorClient } from "~/lib/backend/supabase.server";
import {
  isSitemapList,
  sitemapNotFound,
  sitemapCacheControl,
  sitemapUnavailable,
  sitemapLists,
  sitemapPage,
  sitemapPagePaths,
  sitemapXml,
} from "./sitemap.server";
import type { Route } from "./+types/sitemap-page";

/** One sitemap of the index: the catalog's own pages, or a page of artists, released tracks or public playlists. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  tagCachedAnswer(context, "sitemap");
  const page = /^[1-9]\d{0,6}$/.test(params.page) ? Number(params.page) : 0;
  const xml = (entries: { loc: string; lastmod?: string }[]) =>
    new Response(sitemapXml("urlset", entries), {
      headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": sitemapCacheControl },
    });
  if (params.kind === "pages" && page === 1) return xml(sitemapPagePaths.map((path) => ({ loc: `${origin}${path}` })));
  if (!isSitemapList(params.kind) || page === 0) return sitemapNotFound();
  const rows = await sitemapPage(createVisitorClient(request, envFrom(context)), params.kind, page);
  if (rows.status === "failed") return sitemapUnavailable();
  if (rows.status === "empty" || rows.data.length === 0) return sitemapNotFound();
  const { path } = sitemapLists[params.kind];
  return xml(rows.data.map((row) => ({ loc: `${origin}${path(row.id)}`, lastmod: row.changed.slice(0, 10) })));
}
