import type { ImageSize } from "~/lib/media/image-size";
import { pageMeta, type PageKind } from "~/lib/sharing/meta";

/** What a shareable page says about itself to link previews and search engines beyond its words. */
type PageShare = {
  /** The site's origin (`https://…`), as the loader saw the request: previews need absolute addresses. */
  origin: string;
  /** The page's own path, as its canonical address has it. */
  path: string;
  type: Exclude<PageKind, "website">;
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
 * A shareable page's meta tags, made by its loader (the page's `meta` returns them): `pageMeta`'s, with
 * its kind, its absolute artwork and the artwork's size, its oEmbed address, a player card, and its JSON-LD.
 */
export function sharedPageMeta(title: string, description: string, share: PageShare): Record<string, unknown>[] {
  const image = share.image ? new URL(share.image, share.origin).href : null;
  const card = share.embed?.card ? "player" : image ? "summary_large_image" : "summary";
  const tags = pageMeta(title, description, share.type, card);
  if (image) {
    tags.push({ property: "og:image", content: image });
    if (share.imageSize) {
      tags.push(
        { property: "og:image:width", content: String(share.imageSize.width) },
        { property: "og:image:height", content: String(share.imageSize.height) },
      );
    }
    tags.push(
      { property: "og:image:alt", content: title },
      { name: "twitter:image", content: image },
      { name: "twitter:image:alt", content: title },
    );
  }
  if (share.embed) {
    const pageUrl = new URL(share.path, share.origin).href;
    const oembed = new URL("/oembed", share.origin);
    oembed.search = new URLSearchParams({ url: pageUrl, format: "json" }).toString();
    tags.push({ tagName: "link", rel: "alternate", type: "application/json+oembed", href: oembed.href, title });
    // The player as Open Graph's video, which Facebook and Iframely play in place (as Bandcamp's pages do);
    // an artist's page is a profile, whose preview is its picture.
    if (share.type !== "profile") {
      const player = new URL(share.embed.path, share.origin).href;
      tags.push(
        { property: "og:video", content: player },
        ...(player.startsWith("https:") ? [{ property: "og:video:secure_url", content: player }] : []),
        { property: "og:video:type", content: "text/html" },
        { property: "og:video:width", content: String(share.embed.width) },
        { property: "og:video:height", content: String(share.embed.height) },
      );
    }
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
