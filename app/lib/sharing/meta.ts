import { brandName } from "~/lib/constants";

/** Open Graph's kind of thing: a website's page, a track, a release, a playlist, or an artist's or a fan's profile. */
export type PageKind = "website" | "music.song" | "music.album" | "music.playlist" | "profile";

/**
 * A page's title and description, the same shape on every route, with the tags every link preview reads
 * (Open Graph and Twitter). A shareable page's loader makes its whole list instead (`sharedPageMeta`:
 * its kind, artwork, oEmbed address, player card and JSON-LD), so no page carries that builder. The
 * canonical address and `og:url` are every page's, set by the root layout.
 */
export function pageMeta(title: string, description: string, type: PageKind = "website", card = "summary"): Record<string, unknown>[] {
  return [
    { title: title === brandName ? title : `${title} · ${brandName}` },
    { name: "description", content: description },
    { property: "og:site_name", content: brandName },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: type },
    { name: "twitter:card", content: card },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
}

/**
 * A page's canonical address: its path, with only the `page` of a paged list kept (a search, a sort or a
 * `?buy` dialog shows the same page).
 */
export function canonicalUrl(origin: string, pathname: string, search: string): string {
  const url = new URL(pathname, origin);
  const page = new URLSearchParams(search).get("page");
  if (page && /^[1-9]\d*$/.test(page) && page !== "1") url.searchParams.set("page", page);
  return url.href;
}
