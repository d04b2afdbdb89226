import { createContext, type MiddlewareFunction } from "react-router";
import { envFrom } from "./env.server";
import { accountRole, toSessionUser, type SessionUser } from "./session-user";
import { roundTripCounter } from "./round-trips.server";
import { createSupabaseServerClient, type SupabaseClient } from "./supabase.server";

export const supabaseContext = createContext<SupabaseClient>();
export const userContext = createContext<SessionUser | null>(null);

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
    // The role comes from the profile rows, asked beside the user (one round trip): sign-up metadata is
    // the user's to edit.
    const [{ data, error }, role] = await Promise.all([supabase.auth.getUser(), supabase.rpc("account_role")]);
    if (data.user) {
      if (role.error) console.error("reading the account's role failed", role.error);
      user = toSessionUser(data.user, accountRole(role.data));
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
