import { data, redirect } from "react-router";
import { isUuid } from "~/lib/catalog/catalog";
import { uncached } from "~/lib/http/http-cache";
import { supabaseContext } from "~/lib/session/session.server";
import { mayHaveAudioUrl, tooManyAudioUrls, trackAudioSource } from "./track-audio.server";
import type { Route } from "./+types/track-audio";

/**
 * A track's audio at a lasting address: a redirect to a freshly signed URL for this reader, who may play
 * it (the browser's own player without JavaScript points here, so the page itself need not wait for a
 * URL, and a URL that expired during a long pause is signed again when the player asks anew). The
 * redirect is this reader's alone, never cached.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw data("Track not found", { status: 404, headers: uncached });
  if (!(await mayHaveAudioUrl(request, context)))
    throw data(tooManyAudioUrls, { status: 429, headers: { ...uncached, "Retry-After": "60" } });
  const audio = await trackAudioSource(context.get(supabaseContext), params.id);
  if ("url" in audio) throw redirect(audio.url, { status: 302, headers: uncached });
  throw data(audio.error, { status: audio.missing ? 404 : 503, headers: uncached });
}
