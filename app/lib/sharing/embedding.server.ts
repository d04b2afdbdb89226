import { brandName } from "../constants";
import type { Sharing } from "./sharing";

// The embeddable players' addresses and the HTML other sites paste to show one (the share menu's "Copy
// embed code", oEmbed's answer and the player card name the same frame).

export type EmbedKind = "track" | "album" | "artist" | "playlist";
export type EmbedSize = "compact" | "large";

export const embedWidth = 480;

/** The narrowest a player is made for (below 300 px it shows no artwork, so the waveform keeps its room). */
export const embedLeastWidth = 200;

/** An artist embed plays their latest releases, this many tracks of them. */
export const artistEmbedTracks = 10;

/** The compact strip's height, and the large player's for so many tracks (the list shows up to six before it scrolls). */
export function embedHeight(size: EmbedSize, trackCount = 1): number {
  if (size === "compact") return 120;
  return trackCount > 1 ? 164 + Math.min(trackCount, 6) * 37 : 164;
}

function embedPath(kind: EmbedKind, id: string, size: EmbedSize = "large"): string {
  return `/embed/${kind}/${id}${size === "compact" ? "?size=compact" : ""}`;
}

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/**
 * The `<iframe>` to paste into another page: as wide as its host allows up to `width` (a phone's page is
 * not pushed sideways), without the browser's inset border. Hosts that clean what they frame (WordPress
 * keeps only `src`, the size, `frameborder` and `title`) still get a frame without that border.
 */
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
  return `<iframe src="${attribute(src)}" width="${width}" height="${height}" frameborder="0" style="border:0;border-radius:12px;width:100%;max-width:${width}px" title="${attribute(title)}" loading="lazy" allow="autoplay"></iframe>`;
}

/**
 * oEmbed's `html`, in the shape WordPress gives its own embeds: a link to the page in a
 * `<blockquote class="wp-embedded-content">` beside the frame. WordPress loads its host script only for
 * such an answer; the script then opens the player's links in the page and sizes the frame, and shows the
 * frame in place of the link once the player speaks. Other consumers show the frame alone (the link is
 * hidden by its own style, which WordPress strips).
 */
export function oEmbedHtml(page: { href: string; title: string }, frame: Parameters<typeof embedCode>[0]): string {
  return `<blockquote class="wp-embedded-content" style="display:none"><a href="${attribute(page.href)}">${attribute(page.title)}</a></blockquote>${embedCode(frame)}`;
}

/**
 * The Share menu's contents, made by the page's loader (so no page carries the builder): the page's
 * address and an embed code per player (`title`, or the player's own, names the frame for screen readers).
 */
export function sharing(origin: string, path: string, title: string, embeds: [Embeddable, ...Embeddable[]]): Sharing {
  const [first] = embeds;
  return {
    link: new URL(path, origin).href,
    embeds: embeds.map(({ label, kind, id, trackCount, title: embedTitle = title }) => ({
      label,
      code: embedCode({ origin, kind, id, title: `${brandName} player: ${embedTitle}`, height: embedHeight("large", trackCount) }),
    })),
    player: { path: embedPath(first.kind, first.id), width: embedWidth, height: embedHeight("large", first.trackCount) },
  };
}

/** A player the page offers: its kind, id and track count (its height), and its own title where it is not the page's. */
type Embeddable = { label: string; kind: EmbedKind; id: string; trackCount?: number; title?: string };

/** Top-level names that are no public site (RFC 2606, 6761 and the usual private ones). */
const privateTopLevels = new Set(["localhost", "local", "internal", "invalid", "test", "example", "onion", "home", "lan", "corp", "arpa"]);

/**
 * Whether a host name (as the URL parser gives it: lower case, look-alikes as their punycode) names a real
 * public site: at least two and at most 10 labels of DNS's letters, digits and hyphens, within 253
 * characters, under a top-level name of letters (or an internationalised one); never an IP address,
 * localhost or a private name.
 */
function isPublicHostName(hostname: string): boolean {
  const labels = hostname.split(".");
  const topLevel = labels.at(-1) ?? "";
  return (
    hostname.length <= 253 &&
    labels.length >= 2 &&
    labels.length <= 10 &&
    labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) &&
    /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(topLevel) &&
    !privateTopLevels.has(topLevel)
  );
}

/**
 * The site a page belongs to (an embed request's Referer: the page that framed it), as its origin, or
 * null: Crate itself, anything but http(s), or a host that is no real public site. A look-alike name in
 * another script is kept as its punycode, so the artist's analytics show what it is.
 */
export function embeddingSite(value: string | null, ownOrigin: string): string | null {
  if (!value || value.length > 2048) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.origin === ownOrigin || !isPublicHostName(url.hostname)) return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * The site whose page framed this request (an embed's own load), or null: named by its Referer
 * (embeddingSite), and believed only for a frame's load (`Sec-Fetch-Dest: iframe`, which the browser sets
 * and no page's script can). A page's script fetching an embed to mint a pass naming its own site, or a
 * request without Fetch Metadata, names none, so no play is credited to a site that never framed the player.
 */
export function framingSite(request: Request, ownOrigin: string): string | null {
  const destination = request.headers.get("Sec-Fetch-Dest");
  if (destination !== "iframe" && destination !== "frame") return null;
  return embeddingSite(request.headers.get("Referer"), ownOrigin);
}
