import { brandName } from "~/lib/constants";
import type { ImageSize } from "~/lib/image-size";

/** What a page says about itself to link previews and search engines beyond its title and description. */
export type PageShare = {
  /** The site's origin (`https://…`), as the loader saw the request: previews need absolute addresses. */
  origin: string;
  /** The page's own path, as its canonical address has it. */
  path: string;
  /** Open Graph's kind of thing: a track, a release, a playlist, or an artist's or a fan's profile. */
  type: "music.song" | "music.album" | "music.playlist" | "profile";
  /** Its artwork or picture (absolute, or a path on this site); none when it has only the fallback. */
  image?: string | null;
  /** The image's size in pixels, when known: previews can lay the card out before fetching it. */
  imageSize?: ImageSize | null;
  /** The page's embeddable player: named for oEmbed, and on a track page as Twitter's player card. */
  embed?: { path: string; width: number; height: number; card?: boolean };
  /** Its schema.org description (JSON-LD), escaped by React Router's `Meta` so no text can end the script. */
  structuredData?: Record<string, unknown>;
};

/**
 * A page's title and description, the same shape on every route, with the tags link previews read (Open
 * Graph and Twitter); a shareable page adds its kind, artwork, oEmbed address, player card and JSON-LD.
 * The canonical address and `og:url` are every page's, set by the root layout.
 */
export function pageMeta(title: string, description: string, share?: PageShare) {
  const image = share?.image ? new URL(share.image, share.origin).href : null;
  const card = share?.embed?.card ? "player" : image ? "summary_large_image" : "summary";
  const tags: Record<string, unknown>[] = [
    { title: title === brandName ? title : `${title} · ${brandName}` },
    { name: "description", content: description },
    { property: "og:site_name", content: brandName },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: share?.type ?? "website" },
    { name: "twitter:card", content: card },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
  if (!share) return tags;
  if (image) {
    tags.push(
      { property: "og:image", content: image },
      ...(share.imageSize
        ? [
            { property: "og:image:width", content: String(share.imageSize.width) },
            { property: "og:image:height", content: String(share.imageSize.height) },
          ]
        : []),
      { property: "og:image:alt", content: title },
      { name: "twitter:image", content: image },
    );
  }
  if (share.embed) {
    const pageUrl = new URL(share.path, share.origin).href;
    const oembed = new URL("/oembed", share.origin);
    oembed.search = new URLSearchParams({ url: pageUrl, format: "json" }).toString();
    tags.push({ tagName: "link", rel: "alternate", type: "application/json+oembed", href: oembed.href, title });
    if (share.embed.card) {
      tags.push(
        { name: "twitter:player", content: new URL(share.embed.path, share.origin).href },
        { name: "twitter:player:width", content: String(share.embed.width) },
        { name: "twitter:player:height", content: String(share.embed.height) },
      );
    }
  }
  if (share.structuredData) tags.push({ "script:ld+json": { "@context": "https://schema.org", ...share.structuredData } });
  return tags;
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
