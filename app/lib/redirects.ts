import type { AccountRole } from "./session.server";

/**
 * A `redirectTo` is honoured only when it is a path on this site: never an absolute, protocol-relative or
 * backslash URL that a browser would take elsewhere.
 */
export function safeRedirectPath(target: unknown): string | null {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.includes("\\")) return null;
  try {
    const base = "http://site.invalid";
    const url = new URL(target, base);
    if (url.origin !== base) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

export function dashboardPath(role: AccountRole | null): string {
  if (role === "artist") return "/dashboard/artist";
  if (role === "fan") return "/dashboard/fan";
  return "/";
}

/**
 * Login, then back to the page the request was for. A request from JavaScript (a fetcher's form, a
 * client navigation) asks for the page's data at `{page}.data` (`/_.data` for the home page), with
 * `_routes` naming the routes; the person is on the page itself, so that is where they come back to.
 */
export function loginPath(request: Request): string {
  const url = new URL(request.url);
  const pathname = url.pathname === "/_.data" ? "/" : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  return `/login?${new URLSearchParams({ redirectTo: `${pathname}${url.search}` })}`;
}
