import { brandName } from "~/lib/constants";
import { isUuid } from "~/lib/catalog/catalog";
import { embedHeight, oEmbedHtml, embedLeastWidth, embedWidth, type EmbedKind, type EmbedSize } from "~/lib/sharing/embedding.server";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { envFrom } from "~/lib/http/env.server";
import { readableByAnySite } from "~/lib/http/cross-site.server";
import { publicCacheControl, sharedCacheSeconds } from "~/lib/http/http-cache";
import { createVisitorClient } from "~/lib/backend/supabase.server";
import { smallArtworkSize } from "~/lib/uploads/artwork-rendition";
import { embedCacheTags, isEmbedKind, readEmbed, type Embed } from "./embed.server";
import { patternExpression, routeUses, type RouteUse } from "~/route-uses";
import type { Route } from "./+types/oembed";

/** The pages oEmbed answers for, and the player each one embeds, as the route table says (app/route-uses.ts). */
const embeddablePages = Object.entries(routeUses).flatMap(([pattern, use]: [string, RouteUse]) =>
  use.embeds ? [[patternExpression(pattern), use.embeds] as const] : [],
);

/** The page (or embed) a URL names on this site, or null: another site's, or nothing embeddable. */
function embeddable(target: string | null, origin: string): { kind: EmbedKind; id: string } | null {
  if (!target) return null;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  for (const [expression, embeds] of embeddablePages) {
    const match = expression.exec(url.pathname);
    if (!match) continue;
    // An embed's own address names its kind.
    const [kind, id] = embeds === "named" ? [match[1]!, match[2]!] : [embeds, match[1]!];
    return isEmbedKind(kind) && isUuid(id) ? { kind, id } : null;
  }
  return null;
}

const answer = (body: string, status: number, type = "text/plain; charset=utf-8", cacheControl = "no-store") =>
  new Response(body, { status, headers: { "Content-Type": type, "Cache-Control": cacheControl, ...readableByAnySite } });

/** A size limit a consumer asked for (`maxwidth`, `maxheight`): a positive whole number, or none. */
function limit(value: string | null): number | null {
  if (!value || !/^\d{1,5}$/.test(value)) return null;
  const number = Number(value);
  return number > 0 ? number : null;
}

/**
 * The player within a consumer's `maxheight`, never one cut short: the large player, whose list of tracks
 * scrolls, at any height that shows its top and two rows of that list; else the compact strip; else none.
 */
function playerWithin(maxHeight: number | null, trackCount: number): { size: EmbedSize; height: number } | null {
  const large = embedHeight("large", trackCount);
  if (maxHeight === null || maxHeight >= large) return { size: "large", height: large };
  if (maxHeight >= embedHeight("large", Math.min(trackCount, 2))) return { size: "large", height: maxHeight };
  return maxHeight >= embedHeight("compact") ? { size: "compact", height: embedHeight("compact") } : null;
}

/** The artwork as a thumbnail within `maxwidth` and `maxheight`: the artwork, else its small rendition, else none. */
function thumbnailWithin(embed: Embed, maxWidth: number | null, maxHeight: number | null, origin: string) {
  if (!embed.artworkSize) return {};
  const candidates = [
    { url: embed.artworkUrl, size: embed.artworkSize },
    { url: embed.artworkSmallUrl, size: smallArtworkSize(embed.artworkSize) },
  ];
  const fits = candidates.find(({ url, size }) => url && size.width <= (maxWidth ?? Infinity) && size.height <= (maxHeight ?? Infinity));
  // oEmbed asks for all three or none.
  return fits?.url
    ? { thumbnail_url: new URL(fits.url, origin).href, thumbnail_width: fits.size.width, thumbnail_height: fits.size.height }
    : {};
}

/**
 * `/oembed?url=…&format=json`: oEmbed's `rich` answer for a track, artist or playlist page on this site
 * (or an embed's own address, an album's included): the player's iframe, the title, who made it, and
 * the artwork as its thumbnail where its size is known.
 * Another site's URL or an unknown one is 404, `format=xml` (or any but json) is 501, as oEmbed says.
 * `maxwidth` narrows the frame and picks the thumbnail; `maxheight` picks the player (playerWithin) and
 * the thumbnail too. A `maxwidth` or `maxheight` no player fits is 404: there is no answer for it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const format = url.searchParams.get("format") ?? "json";
  if (format !== "json") return answer("Only format=json is supported", 501);
  const page = embeddable(url.searchParams.get("url"), url.origin);
  if (!page) return answer("Not found", 404);
  const found = await readEmbed(createVisitorClient(request, envFrom(context)), page.kind, page.id);
  if (found.status === "failed") return answer("Unavailable", 503);
  if (found.status === "missing") return answer("Not found", 404);
  const { embed } = found;
  tagCachedAnswer(context, ...embedCacheTags(page.kind, page.id, embed));
  const maxWidth = limit(url.searchParams.get("maxwidth"));
  const maxHeight = limit(url.searchParams.get("maxheight"));
  const player = playerWithin(maxHeight, embed.tracks.length);
  if (!player) return answer("No player fits within maxheight", 404);
  if (maxWidth !== null && maxWidth < embedLeastWidth) return answer("No player fits within maxwidth", 404);
  const { size, height } = player;
  const width = Math.min(embedWidth, maxWidth ?? embedWidth);
  const title = `${embed.title} by ${embed.byline.name}`;
  const body = {
    version: "1.0",
    type: "rich",
    provider_name: brandName,
    provider_url: `${url.origin}/`,
    title,
    author_name: embed.byline.name,
    author_url: new URL(embed.byline.href, url.origin).href,
    html: oEmbedHtml(
      { href: new URL(embed.href, url.origin).href, title },
      { origin: url.origin, kind: page.kind, id: page.id, title: `${brandName} player: ${title}`, size, width, height },
    ),
    width,
    height,
    ...thumbnailWithin(embed, maxWidth, maxHeight, url.origin),
    // No longer than a page: what it names can turn private.
    cache_age: sharedCacheSeconds,
  };
  return answer(JSON.stringify(body), 200, "application/json; charset=utf-8", publicCacheControl);
}
