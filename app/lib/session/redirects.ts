import { href } from "react-router";
import type { AccountRole } from "./session-user";

const ownOrigin = "http://site.invalid";

/**
 * A `redirectTo` is honoured only when it is a path on this site. The decision is made on the path we
 * would send back, not on the raw input: dot segments, encoded dots, tabs and backslashes are resolved
 * first (`/..//evil.example` becomes `//evil.example`), and the result must still resolve to our own
 * origin, so no input can end as an absolute, protocol-relative or backslash URL in `Location`.
 */
export function safeRedirectPath(target: unknown): string | null {
  if (typeof target !== "string" || !target.startsWith("/")) return null;
  try {
    const url = new URL(target, ownOrigin);
    const path = `${url.pathname}${url.search}${url.hash}`;
    // `//host` (what `/..//host` resolves to) is another site to a browser: the path we send must
    // itself resolve to our origin.
    return url.origin === ownOrigin && new URL(path, ownOrigin).origin === ownOrigin ? path : null;
  } catch {
    return null;
  }
}

export function dashboardPath(role: AccountRole | null): string {
  if (role === "artist") return href("/dashboard/artist");
  if (role === "fan") return href("/dashboard/fan");
  return "/";
}

/** Where a user changes their email and password and signs out everywhere; null where there is no such page yet. */
export function accountSettingsPath(role: AccountRole | null): string | null {
  if (role === "artist") return href("/dashboard/artist/settings");
  if (role === "fan") return href("/dashboard/fan/settings");
  return null;
}

/**
 * Login, then back to the page the request was for (or to `returnTo`, when the request was a form's
 * post to somewhere else). A request from JavaScript (a fetcher's form, a client navigation) asks for
 * the page's data at `{page}.data` (`/_.data` for the home page), with `_routes` naming the routes; the
 * person is on the page itself, so that is where they come back to.
 */
export function loginPath(request: Request, returnTo?: string): string {
  const url = new URL(request.url);
  const pathname = url.pathname === "/_.data" ? "/" : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  return `/login?${new URLSearchParams({ redirectTo: returnTo ?? `${pathname}${url.search}` })}`;
}
