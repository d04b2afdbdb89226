import { renderToStaticMarkup } from "react-dom/server";
import { isUuid } from "~/lib/catalog/catalog";
import { tagCachedAnswer } from "~/lib/cache/edge-cache.server";
import { framingSite } from "~/lib/sharing/embedding.server";
import { embedPass } from "~/lib/http/signed-values.server";
import { envFrom } from "~/lib/http/env.server";
import { publicCacheControl } from "~/lib/http/http-cache";
import { createVisitorClient } from "~/lib/backend/supabase.server";
import { EmbedPage, EmbedUnavailable, type EmbedOptions } from "./embed-page";
import { embedCacheTags, isEmbedKind, readEmbed } from "./embed.server";
import type { Route } from "./+types/embed";

/** The player script every embed loads (from `public/`, so it is the same file whatever the build). */
const embedScriptPath = "/embed-player.js";

/** An embed's options: `theme=light|dark` (dark unless asked), `size=compact|large` (large unless asked). */
function embedOptions(url: URL): Pick<EmbedOptions, "theme" | "size"> {
  return {
    theme: url.searchParams.get("theme") === "light" ? "light" : "dark",
    size: url.searchParams.get("size") === "compact" ? "compact" : "large",
  };
}

const html = (markup: string, status: number, cacheControl: string) =>
  new Response(`<!DOCTYPE html>${markup}`, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": cacheControl },
  });

/**
 * `/embed/{track|album|artist|playlist}/{id}`: a player other sites may frame. Plain server-rendered HTML
 * with a small script of its own, never the app; read as a visitor, cached at the edge like the public
 * pages. Its security headers (framing allowed, no cookies either way) are set by the Worker.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const options = embedOptions(url);
  const unavailable = (status: number, cacheControl: string) =>
    html(renderToStaticMarkup(<EmbedUnavailable theme={options.theme} kind={params.kind} />), status, cacheControl);
  if (!isEmbedKind(params.kind) || !isUuid(params.id)) return unavailable(404, publicCacheControl);
  const found = await readEmbed(createVisitorClient(request, envFrom(context)), params.kind, params.id);
  if (found.status === "failed") return unavailable(503, "no-store");
  if (found.status === "missing") return unavailable(404, publicCacheControl);
  tagCachedAnswer(context, ...embedCacheTags(params.kind, params.id, found.embed));
  // The pass its plays come back with, naming the page that framed this one as its browser named it.
  const pass = await embedPass(envFrom(context).MARKETPLACE_SECRET, framingSite(request, url.origin));
  const page = <EmbedPage embed={found.embed} options={{ ...options, script: embedScriptPath, origin: url.origin, pass }} />;
  return html(renderToStaticMarkup(page), 200, publicCacheControl);
}
