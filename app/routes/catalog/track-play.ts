import { data } from "react-router";
import { isUuid } from "~/lib/catalog/catalog";
import { cloudflareContext, clientAddress } from "~/lib/http/context.server";
import { envFrom } from "~/lib/http/env.server";
import { listenerOf } from "~/lib/session/listener.server";
import { readEmbedPass, ticketHolds } from "~/lib/http/signed-values.server";
import { readableByAnySite } from "~/lib/http/cross-site.server";
import { vouchedClient } from "~/lib/session/session.server";
import type { Route } from "./+types/track-play";
import { sqlState } from "~/lib/backend/sqlstate";

/**
 * Records one play of a track (the player posts here after 5 seconds of playback, or at the end of a
 * shorter track, with the ticket its audio URL came with: a play counts only for a listener the server gave
 * that track's URL long enough before, signed-values.server.ts) through the database's record_play(), which
 * checks the track may be played, counts it
 * once per listener per track per 10 minutes, refuses bursts from one address and banned users, and
 * fills in its artist and the listener. The listener's country, as Cloudflare located the request, goes
 * with it for the artist's analytics. The Worker's marketplace secret vouches for the listener and
 * address: the database records plays from no one else. 204 whether it counted or was a repeat. An
 * embedded player reports from a frame of any origin (cross-site.server.ts), so any site may read the answer.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const headers = new Headers(readableByAnySite);
  if (!isUuid(params.id)) throw data("Track not found", { status: 404, headers });
  const { country } = context.get(cloudflareContext);
  const url = new URL(request.url);
  // An embedded player brings back its page's pass (`?embed=`), which names the site that framed it: for
  // the artist's analytics.
  const embeddedOn = (await readEmbedPass(envFrom(context).MARKETPLACE_SECRET, url.searchParams.get("embed")))?.site;
  const who = listenerOf(request, context, { mint: false });
  if (!who) throw data("This play was not heard", { status: 403, headers });
  const heard = await ticketHolds(envFrom(context).MARKETPLACE_SECRET, url.searchParams.get("ticket"), {
    trackId: params.id,
    listener: who.identity,
  });
  if (heard === "no ticket") throw data("This play was not heard", { status: 403, headers });
  if (heard === "too soon") throw data("This play was not heard long enough", { status: 409, headers });
  const { listener } = who;
  const { error } = await vouchedClient(context).rpc("record_play", {
    track_id: params.id,
    country: country ?? undefined,
    listener,
    address: clientAddress(request) ?? undefined,
    embedded_on: embeddedOn ?? undefined,
  });
  if (!error) return new Response(null, { status: 204, headers });
  // P0002: no such track for this listener.
  if (error.code === sqlState.noDataFound) throw data("Track not found", { status: 404, headers });
  if (error.code === sqlState.insufficientPrivilege) throw data("This account cannot record plays", { status: 403, headers });
  if (error.code === sqlState.limitReached)
    throw data("Too many plays from this address. Please try again later.", { status: 429, headers });
  if (error.code === sqlState.notTheMarketplace)
    console.error("recording a play failed: the database does not know this Worker's MARKETPLACE_SECRET");
  else console.error("recording a play failed", error);
  throw data("Unable to record the play", { status: 500, headers });
}
