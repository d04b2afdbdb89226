import { parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import { data } from "react-router";
import { isUuid } from "~/lib/catalog";
import { clientAddress, cloudflareContext } from "~/lib/context.server";
import { embeddingSite } from "~/lib/embed.server";
import { marketplaceHeader } from "~/lib/env.server";
import { supabaseContext } from "~/lib/session.server";
import { sessionCookieOptions } from "~/lib/supabase.server";
import type { Route } from "./+types/track-play";

/** A visitor's anonymous listener id: a play counts once per listener per track per 10 minutes. */
const listenerCookie = "listener";
const listenerMaxAge = 60 * 60 * 24 * 365;

/**
 * Records one play of a track (the player posts here after 5 seconds of playback, or at the end of a
 * shorter track) through the database's record_play(), which checks the track may be played, counts it
 * once per listener per track per 10 minutes, refuses bursts from one address and banned users, and
 * fills in its artist and the listener. The listener's country, as Cloudflare located the request, goes
 * with it for the artist's analytics. The Worker's play reporter secret vouches for the listener and
 * address: the database records plays from no one else. 204 whether it counted or was a repeat.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  if (!isUuid(params.id)) throw data("Track not found", { status: 404 });
  const { country } = context.get(cloudflareContext);
  const url = new URL(request.url);
  // An embedded player names the site it plays on (`?embeddedOn=`), for the artist's analytics.
  const embeddedOn = embeddingSite(url.searchParams.get("embeddedOn"), url.origin);
  const known = parseCookieHeader(request.headers.get("Cookie") ?? "").find((cookie) => cookie.name === listenerCookie)?.value;
  // An embedded player sends no cookies (it never uses a Crate session): it names its own listener id,
  // kept in its frame's storage, so its repeated reports count once like the site's.
  const named = url.searchParams.get("listener");
  const listener = isUuid(known) ? known : isUuid(named) ? named : crypto.randomUUID();
  const { error } = await context
    .get(supabaseContext)
    .rpc("record_play", {
      track_id: params.id,
      country: country ?? undefined,
      listener,
      address: clientAddress(request) ?? undefined,
      embedded_on: embeddedOn ?? undefined,
    })
    .setHeader(...marketplaceHeader(context));
  const headers = new Headers();
  if (listener !== known && listener !== named) {
    headers.append(
      "Set-Cookie",
      serializeCookieHeader(listenerCookie, listener, { ...sessionCookieOptions(request, false), maxAge: listenerMaxAge }),
    );
  }
  if (!error) return new Response(null, { status: 204, headers });
  // P0002: no such track for this listener.
  if (error.code === "P0002") throw data("Track not found", { status: 404, headers });
  if (error.code === "42501") throw data("This account cannot record plays", { status: 403, headers });
  if (error.code === "54000") throw data("Too many plays from this address. Please try again later.", { status: 429, headers });
  if (error.code === "28000") console.error("recording a play failed: the database does not know this Worker's PLAY_REPORTER_SECRET");
  else console.error("recording a play failed", error);
  throw data("Unable to record the play", { status: 500, headers });
}
