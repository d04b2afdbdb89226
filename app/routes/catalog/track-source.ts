import { data } from "react-router";
import * as v from "valibot";
import { isUuid } from "~/lib/catalog/catalog";
import { envFrom } from "~/lib/http/env.server";
import { uncached } from "~/lib/http/http-cache";
import { readableByAnySite } from "~/lib/http/cross-site.server";
import { listenerOf } from "~/lib/session/listener.server";
import { playTicket, secondsBeforeAPlay } from "~/lib/http/signed-values.server";
import type { TrackSource } from "~/lib/player";
import { supabaseContext } from "~/lib/session/session.server";
import { mayHaveAudioUrl, tooManyAudioUrls, trackAudioSource } from "./track-audio.server";
import type { Route } from "./+types/track-source";

const WaveformSchema = v.object({ peaks: v.nullable(v.array(v.number())), duration_seconds: v.nullable(v.number()) });

/** Uncached, and readable by an embedded player in a frame of any origin (a sandboxed frame has none). */
const headers = { ...uncached, ...readableByAnySite };

/**
 * What the site's player (and an embedded one) needs to play a track, as JSON: a URL signed for this
 * listener by the audio URL function, the stored waveform and length for its seek bar, and the play
 * ticket its play report must bring back (a visitor without a listener id gets one here). The URL and the
 * waveform are asked side by side (one round trip). The listener's alone, never cached. Any site may read
 * it without credentials: what it gives a visitor is what any visitor may have.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) return data<TrackSource>({ error: "Track not found", missing: true }, { status: 404, headers });
  if (!(await mayHaveAudioUrl(request, context))) {
    return data<TrackSource>({ error: tooManyAudioUrls }, { status: 429, headers: { ...headers, "Retry-After": "60" } });
  }
  const supabase = context.get(supabaseContext);
  const [audio, waveform] = await Promise.all([
    trackAudioSource(supabase, params.id),
    supabase.from("tracks").select("peaks, duration_seconds").eq("id", params.id).maybeSingle(),
  ]);
  if ("error" in audio) return data<TrackSource>(audio, { status: audio.missing ? 404 : 503, headers });
  const stored = v.safeParse(WaveformSchema, waveform.data);
  if (waveform.error) console.warn("reading a track's waveform failed", waveform.error);
  const duration = stored.success ? stored.output.duration_seconds : null;
  const who = listenerOf(request, context, { mint: true })!;
  const afterSeconds = secondsBeforeAPlay(duration);
  const ticket = await playTicket(envFrom(context).MARKETPLACE_SECRET, { trackId: params.id, listener: who.identity, afterSeconds });
  const source: TrackSource = {
    ...audio,
    peaks: stored.success ? stored.output.peaks : null,
    duration,
    ticket: { value: ticket, afterSeconds },
  };
  const answer = new Headers(headers);
  if (who.setCookie) answer.append("Set-Cookie", who.setCookie);
  return data(source, { headers: answer });
}
