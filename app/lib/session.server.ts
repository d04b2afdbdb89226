import type { User } from "@supabase/supabase-js";
import { createContext, type MiddlewareFunction } from "react-router";
import { envFrom } from "./env.server";
import { roundTripCounter } from "./round-trips.server";
import { createSupabaseServerClient, type SupabaseClient } from "./supabase.server";

export type AccountRole = "artist" | "fan";

/** Who is signed in, as the pages need it. Role and name come from sign-up metadata and only choose UI. */
export type SessionUser = {
  id: string;
  email: string;
  role: AccountRole | null;
  displayName: string;
  isAdmin: boolean;
};

export const supabaseContext = createContext<SupabaseClient>();
export const userContext = createContext<SessionUser | null>(null);

export function toSessionUser(user: User): SessionUser {
  const metadata = user.user_metadata ?? {};
  const role = metadata.role === "artist" || metadata.role === "fan" ? metadata.role : null;
  const name = role === "artist" ? metadata.artist_name : metadata.username;
  return {
    id: user.id,
    email: user.email ?? "",
    role,
    displayName: typeof name === "string" && name.trim() ? name : ((user.email ?? "").split("@")[0] ?? ""),
    isAdmin: user.app_metadata?.role === "admin",
  };
}

/** The session cookie (or its chunks); not the PKCE verifier cookies a password reset leaves behind. */
export const hasAuthCookie = (request: Request) => /(?:^|;\s*)sb-[^=;]*-auth-token(?:\.\d+)?=/.test(request.headers.get("Cookie") ?? "");

/**
 * Root middleware: one Supabase client per request, the user checked with the auth server (never read from
 * the cookie alone), refreshed or cleared cookies appended to the response.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const env = envFrom(context);
  const sessionHeaders = new Headers();
  const backend = roundTripCounter();
  const supabase = createSupabaseServerClient(request, env, sessionHeaders, undefined, backend.fetch);
  context.set(supabaseContext, supabase);

  const signedInBefore = hasAuthCookie(request);
  let user: SessionUser | null = null;
  if (signedInBefore) {
    const { data, error } = await supabase.auth.getUser();
    if (data.user) {
      user = toSessionUser(data.user);
    } else if (error && error.name !== "AuthRetryableFetchError") {
      // The session is no longer valid (signed out elsewhere, expired, banned): forget it.
      await supabase.auth.signOut({ scope: "local" });
    }
  }
  context.set(userContext, user);

  const response = await next();
  // The page's own cookies (e.g. a fresh sign-in) come last, so they win over a cleared stale session.
  const pageCookies = response.headers.getSetCookie();
  response.headers.delete("Set-Cookie");
  for (const cookie of sessionHeaders.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  for (const cookie of pageCookies) response.headers.append("Set-Cookie", cookie);
  if (signedInBefore || user || pageCookies.length > 0) {
    response.headers.set("Cache-Control", "private, no-store");
  }
  response.headers.append("Server-Timing", backend.serverTiming());
  return response;
};
