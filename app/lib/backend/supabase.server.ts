import { clientAddress } from "../http/context.server";
import { createServerClient, parseCookieHeader, serializeCookieHeader, type CookieOptions } from "@supabase/ssr";
import type { Database } from "./database";
import type { AppEnv } from "../http/env.server";

/** Marks a session the user asked to keep ("Remember me"); without it auth cookies end with the browser session. */
export const rememberCookieName = "remember-me";
const rememberMaxAge = 400 * 24 * 60 * 60;

export function sessionCookieOptions(request: Request, remember: boolean): CookieOptions {
  return {
    path: "/",
    sameSite: "lax",
    // The browser never needs the session: every backend call that uses it goes through the Worker.
    httpOnly: true,
    secure: new URL(request.url).protocol === "https:",
    ...(remember ? { maxAge: rememberMaxAge } : {}),
  };
}

function wantsPersistentSession(request: Request) {
  return requestCookies(request).some((cookie) => cookie.name === rememberCookieName);
}

/** A session cookie (or one of its chunks) as the auth client names it; not the PKCE verifier a password reset leaves. */
export const isAuthCookieName = (name: string) => /^sb-.+-auth-token(?:\.\d+)?$/.test(name);

/** The request's cookies, parsed (names trimmed) exactly as the auth client reads them. */
export const requestCookies = (request: Request) =>
  parseCookieHeader(request.headers.get("Cookie") ?? "").map(({ name, value }) => ({ name, value: value ?? "" }));

/**
 * One Supabase client per request, acting as the signed-in user through the session cookies. Cookies it
 * sets (sign-in, refresh, sign-out) are collected in `responseHeaders` for the middleware to append.
 * `onSessionRead` is told whenever the client reads a session cookie, however the header spelled it.
 */
export function createSupabaseServerClient(
  request: Request,
  env: AppEnv,
  responseHeaders: Headers,
  remember = wantsPersistentSession(request),
  backendFetch: typeof fetch = fetch,
  onSessionRead: () => void = () => {},
) {
  const cookieOptions = sessionCookieOptions(request, remember);
  // Per-client rate limits at the auth server need the visitor's address, not the Worker's.
  const address = clientAddress(request);
  return createServerClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    cookieOptions,
    // PostgREST reads are retried by default, for 7 s in all when the backend is unreachable; a page
    // should answer at once with its error message and Retry instead.
    db: { retry: false },
    global: { fetch: backendFetch, ...(address ? { headers: { "X-Forwarded-For": address } } : {}) },
    cookies: {
      getAll: () => {
        const cookies = requestCookies(request);
        if (cookies.some(({ name }) => isAuthCookieName(name))) onSessionRead();
        return cookies;
      },
      setAll: (cookies, headers) => {
        for (const { name, value, options } of cookies) {
          // Our lifetime wins over the library's 400-day default: a session cookie unless "Remember me".
          const { maxAge: _libraryMaxAge, expires: _libraryExpires, ...rest } = options;
          const maxAge = value ? cookieOptions.maxAge : 0;
          responseHeaders.append("Set-Cookie", serializeCookieHeader(name, value, { ...rest, ...cookieOptions, maxAge }));
        }
        for (const [name, value] of Object.entries(headers)) responseHeaders.set(name, value);
      },
    },
  });
}

export type SupabaseClient = ReturnType<typeof createSupabaseServerClient>;

/**
 * A client that reads as a visitor, whoever asks (no session cookies): for answers that are the same for
 * everyone and kept at the edge, such as the sitemap, where a signed-in artist must not list their
 * unreleased tracks.
 */
export function createVisitorClient(request: Request, env: AppEnv, backendFetch: typeof fetch = fetch): SupabaseClient {
  return createSupabaseServerClient(new Request(request.url), env, new Headers(), false, backendFetch);
}
