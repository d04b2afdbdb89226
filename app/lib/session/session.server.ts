import { createContext, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { envFrom } from "../http/env.server";
import { accountFrom, toSessionUser, type SessionUser } from "./session-user";
import { roundTripCounter } from "../backend/round-trips.server";
import { createSupabaseServerClient, isAuthCookieName, requestCookies, type SupabaseClient } from "../backend/supabase.server";
import { hasCartCookie } from "../payments/cart";
import type { Shopper } from "../payments/cart.server";
import { clientAddress, cloudflareContext } from "../http/context.server";
import { marketplaceClient } from "../backend/marketplace-client.server";

export const supabaseContext = createContext<SupabaseClient>();
export const userContext = createContext<SessionUser | null>(null);

/** For whom a vouched client asks: a guest's order (its receipt link's holder), and as a visitor whoever is signed in. */
type VouchedFor = { guestOrder?: string | null; visitor?: boolean };
const vouchedContext = createContext<(vouchedFor: VouchedFor) => SupabaseClient>();

/**
 * This request's backend client with the marketplace's secret on every request: for what the database
 * takes only through this Worker (plays, orders and refunds, the files a row names, the client's address,
 * a guest's order). It asks as the request's user (the session of `supabaseContext`, however refreshed)
 * unless `visitor`; one client per request and guest's order, made on first use.
 */
export const vouchedClient = (context: Readonly<RouterContextProvider>, vouchedFor: VouchedFor = {}) =>
  context.get(vouchedContext)(vouchedFor);

/**
 * Whether the request carries a session cookie (or one of its chunks), its name read as the auth client
 * reads it: `sb-…-auth-token =` with a space is still a session.
 */
/** Whose cart the request's is: its backend client (and the one the marketplace vouches for), whether it is signed in, the country it comes from. */
export const shopperFrom = (context: Readonly<RouterContextProvider>): Shopper => ({
  supabase: context.get(supabaseContext),
  vouched: () => vouchedClient(context),
  signedIn: context.get(userContext) !== null,
  country: context.get(cloudflareContext).country,
});

export const hasAuthCookie = (request: Request) => requestCookies(request).some(({ name }) => isAuthCookieName(name));

/**
 * What a render did with a session, whatever the request's headers looked like: the auth client read a
 * session cookie, a backend request went out as a user (a token other than the anon key), a user was
 * resolved, or a cookie was set. A render that did any of these is its reader's alone: it is made
 * `private, no-store`, and the edge cache never keeps it.
 */
const personalRenderContext = createContext<{ personal: boolean } | null>(null);

/** Whether this request's render was personal (see personalRenderContext); false before the session middleware ran. */
export function renderWasPersonal(context: Readonly<RouterContextProvider>): boolean {
  return context.get(personalRenderContext)?.personal ?? false;
}

/** The backend's fetch, noting any request that carries a user's token instead of the anon key. */
function noticingUserTokens(baseFetch: typeof fetch, anonKey: string, noticed: () => void): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const authorization = headers.get("Authorization");
    if (authorization && authorization !== `Bearer ${anonKey}`) noticed();
    return baseFetch(input, init);
  };
}

/**
 * Root middleware: one Supabase client per request, the user checked with the auth server (never read from
 * the cookie alone), refreshed or cleared cookies appended to the response.
 */
export const sessionMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const env = envFrom(context);
  const sessionHeaders = new Headers();
  const render = { personal: false };
  context.set(personalRenderContext, render);
  const personal = () => {
    render.personal = true;
  };
  const backend = roundTripCounter(noticingUserTokens(fetch, env.SUPABASE_ANON_KEY, personal));
  const supabase = createSupabaseServerClient(request, env, sessionHeaders, undefined, backend.fetch, personal);
  context.set(supabaseContext, supabase);
  const vouched = new Map<string, SupabaseClient>();
  context.set(vouchedContext, ({ guestOrder = null, visitor = false }) => {
    const key = `${visitor ? "visitor" : "user"} ${guestOrder ?? ""}`;
    const accessToken = async () => (visitor ? null : ((await supabase.auth.getSession()).data.session?.access_token ?? null));
    const made =
      vouched.get(key) ?? marketplaceClient(env, { accessToken, address: clientAddress(request), guestOrder, fetch: backend.fetch });
    return vouched.set(key, made).get(key)!;
  });

  const signedInBefore = hasAuthCookie(request);
  let user: SessionUser | null = null;
  if (signedInBefore) {
    // The role and the name shown come from the profile rows, asked beside the user (one round trip):
    // sign-up metadata is the user's to edit, and keeps the name they signed up with.
    const [{ data, error }, account] = await Promise.all([supabase.auth.getUser(), supabase.rpc("account")]);
    if (data.user) {
      if (account.error) console.error("reading the account's profile failed", account.error);
      user = toSessionUser(data.user, accountFrom(account.data));
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
  if (signedInBefore || user || hasCartCookie(request) || pageCookies.length > 0 || sessionHeaders.has("Set-Cookie")) personal();
  if (render.personal) response.headers.set("Cache-Control", "private, no-store");
  response.headers.append("Server-Timing", backend.serverTiming());
  return response;
};
