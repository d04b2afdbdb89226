import { parseCookieHeader, serializeCookieHeader } from "@supabase/ssr";
import type { RouterContextProvider } from "react-router";
import { isUuid } from "../catalog/catalog";
import { userContext } from "./session.server";
import { sessionCookieOptions } from "../backend/supabase.server";

/** A visitor's anonymous listener id: a play counts once per listener per track per 10 minutes. */
const listenerCookie = "listener";
const listenerMaxAge = 60 * 60 * 24 * 365;

/**
 * Who is listening, as plays count them: the signed-in user, else a visitor by their listener id (the
 * cookie, or for an embedded player, which never sends cookies, the id it keeps in its frame's storage and
 * names in the address). `listener` is the id the database's record_play() takes; `identity` is what a
 * play ticket is bound to. With `mint`, a visitor without one gets a new id, and its cookie to set.
 */
export function listenerOf(
  request: Request,
  context: Readonly<RouterContextProvider>,
  { mint }: { mint: boolean },
): { listener: string; identity: string; setCookie: string | null } | null {
  const user = context.get(userContext);
  const known = parseCookieHeader(request.headers.get("Cookie") ?? "").find((cookie) => cookie.name === listenerCookie)?.value;
  const named = new URL(request.url).searchParams.get("listener");
  const visitor = isUuid(known) ? known : isUuid(named) ? named : mint ? crypto.randomUUID() : null;
  if (user) return { listener: visitor ?? user.id, identity: `user:${user.id}`, setCookie: null };
  if (!visitor) return null;
  const setCookie =
    visitor === known || visitor === named
      ? null
      : serializeCookieHeader(listenerCookie, visitor, { ...sessionCookieOptions(request, false), maxAge: listenerMaxAge });
  return { listener: visitor, identity: `visitor:${visitor}`, setCookie };
}
