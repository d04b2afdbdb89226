import { brandName } from "./constants";
import type { Sharing } from "./sharing";

// The embeddable players' addresses and the HTML other sites paste to show one (the share menu's "Copy
// embed code", oEmbed's answer and the player card name the same frame).

export type EmbedKind = "track" | "album" | "artist" | "playlist";
export type EmbedSize = "compact" | "large";

export const embedWidth = 480;

/** An artist embed plays their latest releases, this many tracks of them. */
export const artistEmbedTracks = 10;

/** The compact strip's height, and the large player's for so many tracks (the list shows up to six before it scrolls). */
export function embedHeight(size: EmbedSize, trackCount = 1): number {
  if (size === "compact") return 120;
  return trackCount > 1 ? 164 + Math.min(trackCount, 6) * 37 : 164;
}

export function embedPath(kind: EmbedKind, id: string, size: EmbedSize = "large"): string {
  return `/embed/${kind}/${id}${size === "compact" ? "?size=compact" : ""}`;
}

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** The `<iframe>` to paste into another page. */
export function embedCode({
  origin,
  kind,
  id,
  title,
  size = "large",
  width = embedWidth,
  height = embedHeight(size),
}: {
  origin: string;
  kind: EmbedKind;
  id: string;
  title: string;
  size?: EmbedSize;
  width?: number;
  height?: number;
}): string {
  const src = new URL(embedPath(kind, id, size), origin).href;
  return `<iframe src="${attribute(src)}" width="${width}" height="${height}" style="border:0;border-radius:12px" title="${attribute(title)}" loading="lazy" allow="autoplay"></iframe>`;
}

/**
 * The Share menu's contents, made by the page's loader (so no page carries the builder): the page's
 * address and an embed code per player (`title` names the frame for screen readers).
 */
export function sharing(origin: string, path: string, title: string, embeds: [Embeddable, ...Embeddable[]]): Sharing {
  const [first] = embeds;
  return {
    link: new URL(path, origin).href,
    embeds: embeds.map(({ label, kind, id, trackCount }) => ({
      label,
      code: embedCode({ origin, kind, id, title: `${brandName} player: ${title}`, height: embedHeight("large", trackCount) }),
    })),
    player: { path: embedPath(first.kind, first.id), width: embedWidth, height: embedHeight("large", first.trackCount) },
  };
}

type Embeddable = { label: string; kind: EmbedKind; id: string; trackCount?: number };

/**
 * The origin of the site an embedded player plays on, as its script says (the embedding page's origin),
 * or null: a play on Crate itself, or anything that is not another site's http(s) origin. It is what the
 * embed reports, like a referrer: it shows an artist where their music travels, and counts nothing more.
 */
export function embeddingSite(value: string | null, ownOrigin: string): string | null {
  if (!value || value.length > 255) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.origin === ownOrigin || !/^https?:\/\/[a-z0-9.-]+(:[0-9]{1,5})?$/.test(url.origin)) return null;
    return url.origin;
  } catch {
    return null;
  }
}
