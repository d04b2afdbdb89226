import * as v from "valibot";
import { read } from "~/lib/backend/backend.server";
import { albumPath, artistPath, genrePath, playlistPath, trackPath } from "~/lib/catalog/catalog";
import { backendMaxRows, genres } from "~/lib/constants";
import { publicCacheControl } from "~/lib/http/http-cache";
import { escapeXml } from "~/lib/http/xml";
import type { SupabaseClient } from "~/lib/backend/supabase.server";
import { routesWhere } from "~/route-uses";

/** URLs per sitemap page. The protocol allows 50,000; the hosted API answers at most `backendMaxRows`, so a page is one read. */
export const sitemapPageSize = backendMaxRows;

/**
 * A minute at the edge, like the pages: a sitemap names playlists, which can turn private. Every change
 * to what it lists drops it at once (the `sitemap` cache tag).
 */
export const sitemapCacheControl = publicCacheControl;

/**
 * The public things with pages of their own, each read as a visitor sees them (released tracks, albums
 * with a released track, public playlists), each with when its page last changed (an edit, a new track; the
 * database keeps `updated_at`). Albums are the releases of that kind (a single's page is its track's).
 */
export const sitemapLists = {
  artists: { table: "artist_profiles", changed: "updated_at", path: artistPath, kind: null },
  tracks: { table: "tracks", changed: "updated_at", path: trackPath, kind: null },
  albums: { table: "releases", changed: "updated_at", path: albumPath, kind: "album" },
  playlists: { table: "playlists", changed: "updated_at", path: playlistPath, kind: null },
} as const;
type SitemapList = keyof typeof sitemapLists;

export const isSitemapList = (kind: string): kind is SitemapList => Object.hasOwn(sitemapLists, kind);

/**
 * The pages with no row behind them: the public pages without a parameter that crawlers may visit (the
 * catalog's lists and the site's pages, as app/route-uses.ts says), and every genre.
 */
export const sitemapPagePaths = [
  ...routesWhere((use) => use.kind === "page" && use.crawl).filter((pattern) => !pattern.includes(":")),
  ...genres.map(genrePath),
];

/** The rows of a list, as a visitor may see them (row-level security keeps to released tracks, public playlists). */
function listRows(supabase: SupabaseClient, kind: SitemapList, columns: string, options?: { count: "exact"; head: true }) {
  const list = sitemapLists[kind];
  const rows = supabase.from(list.table).select(columns, options);
  // (`kind` is a column of releases alone, which the table's union of types cannot say)
  return list.kind ? rows.filter("kind", "eq", list.kind) : rows;
}

/** How many of each list a visitor can see (the counts side by side). */
export async function sitemapCounts(supabase: SupabaseClient) {
  const kinds = Object.keys(sitemapLists) as SitemapList[];
  const counts = await Promise.all(kinds.map((kind) => listRows(supabase, kind, "id", { count: "exact", head: true })));
  return kinds.map((kind, i) => ({ kind, count: counts[i]!.count, error: counts[i]!.error }));
}

const SitemapRowsSchema = v.array(v.object({ id: v.string(), changed: v.string() }));

/** One page of a list, in the order of its key: each page's address with when it last changed. */
export async function sitemapPage(supabase: SupabaseClient, kind: SitemapList, page: number) {
  const from = (page - 1) * sitemapPageSize;
  return read(
    await listRows(supabase, kind, `id, changed:${sitemapLists[kind].changed}`)
      .order("id")
      .range(from, from + sitemapPageSize - 1),
    { what: `sitemap of ${kind}`, schema: SitemapRowsSchema },
  );
}

/** An XML answer of the sitemap protocol. */
export function sitemapXml(root: "sitemapindex" | "urlset", entries: { loc: string; lastmod?: string }[]) {
  const item = root === "sitemapindex" ? "sitemap" : "url";
  const body = entries
    .map(
      ({ loc, lastmod }) => `<${item}><loc>${escapeXml(loc)}</loc>${lastmod ? `<lastmod>${escapeXml(lastmod)}</lastmod>` : ""}</${item}>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</${root}>\n`;
}

/** A failed read: crawlers come back later; nothing is kept. */
export function sitemapUnavailable() {
  return new Response("The sitemap is unavailable right now.", {
    status: 503,
    headers: { "Cache-Control": "no-store", "Retry-After": "60" },
  });
}

/** No such sitemap: a list or page that is not there (it may come with new releases, so it is not kept long). */
export function sitemapNotFound() {
  return new Response("Sitemap not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
