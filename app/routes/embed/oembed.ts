import { brandName } from "~/lib/constants";
import { isUuid } from "~/lib/catalog/catalog";
import { embedCode, embedHeight, embedWidth, type EmbedKind, type EmbedSize } from "~/lib/sharing/embedding.server";
import { tagCachedAnswer } from "~/lib/http/edge-cache.server";
import { envFrom } from "~/lib/http/env.server";
import { publicCacheControl, sharedCacheSeconds } from "~/lib/http/http-cache";
import { createVisitorClient } from "~/lib/backend/supabase.server";
import { embedCacheTags, isEmbedKind, readEmbed } from "./embed.server";
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
  new Response(body, { status, headers: { "Content-Type": type, "Cache-Control": cacheControl, "Access-Control-Allow-Origin": "*" } });

/** A size limit a consumer asked for (`maxwidth`, `maxheight`): a positive whole number, or none. */
function limit(value: string | null): number | null {
  if (!value || !/^\d{1,5}$/.test(value)) return null;
  const number = Number(value);
  return number > 0 ? number : null;
}

/**
 * `/oembed?url=…&format=json`: oEmbed's `rich` answer for a track, artist or playlist page on this site
 * (or an embed's own address, an album's included): the player's iframe, the title, who made it, and
 * the artwork as its thumbnail where its size is known.
 * Another site's URL or an unknown one is 404, `format=xml` (or any but json) is 501, as oEmbed says.
 * `maxwidth` narrows the frame; a `maxheight` below the large player's chooses the compact strip.
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
  const large = embedHeight("large", embed.tracks.length);
  const size: EmbedSize = maxHeight !== null && maxHeight < large ? "compact" : "large";
  const width = Math.min(embedWidth, maxWidth ?? embedWidth);
  const height = Math.min(embedHeight(size, embed.tracks.length), maxHeight ?? Infinity);
  const title = `${embed.title} by ${embed.byline.name}`;
  const body = {
    version: "1.0",
    type: "rich",
    provider_name: brandName,
    provider_url: `${url.origin}/`,
    title,
    author_name: embed.byline.name,
    author_url: new URL(embed.byline.href, url.origin).href,
    html: embedCode({ origin: url.origin, kind: page.kind, id: page.id, title: `${brandName} player: ${title}`, size, width, height }),
    width,
    height,
    // The artwork as the thumbnail, only with its size: oEmbed asks for all three or none.
    ...(embed.artworkUrl && embed.artworkSize
      ? {
          thumbnail_url: new URL(embed.artworkUrl, url.origin).href,
          thumbnail_width: embed.artworkSize.width,
          thumbnail_height: embed.artworkSize.height,
        }
      : {}),
    // No longer than a page: what it names can turn private.
    cache_age: sharedCacheSeconds,
  };
  return answer(JSON.stringify(body), 200, "application/json; charset=utf-8", publicCacheControl);
}
