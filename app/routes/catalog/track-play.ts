import { data } from "react-router";
import { cloudflareContext } from "~/lib/context.server";
import { supabaseContext } from "~/lib/session.server";
import type { Route } from "./+types/track-play";

/**
 * Records one play of a track (the player posts here when playback starts) through the database's
 * record_play(), which checks the track may be played and fills in its artist and the listener (the
 * signed-in user, or nobody for a visitor). The listener's country, as Cloudflare located the request,
 * goes with it for the artist's analytics.
 */
export async function action({ params, context }: Route.ActionArgs) {
  const { country } = context.get(cloudflareContext);
  const { error } = await context.get(supabaseContext).rpc("record_play", { track_id: params.id, country: country ?? undefined });
  if (!error) return new Response(null, { status: 204 });
  // P0002: no such track for this listener; 22P02: not a track id at all.
  if (error.code === "P0002" || error.code === "22P02") throw data("Track not found", { status: 404 });
  console.error("recording a play failed", error);
  throw data("Unable to record the play", { status: 500 });
}
