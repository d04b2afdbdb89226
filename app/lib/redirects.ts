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

export function loginPath(request: Request): string {
  const url = new URL(request.url);
  return `/login?${new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })}`;
}
