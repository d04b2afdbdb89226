import type { MiddlewareFunction } from "react-router";

/**
 * Whether an address cannot name anything here: a path that is not valid percent-encoded UTF-8, or a NUL
 * character in the path or the query (the database refuses NUL in text, so it would fail a search).
 */
function isBadAddress(url: URL): boolean {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return true;
  }
  return path.includes("\0") || [...url.searchParams].some(([name, value]) => name.includes("\0") || value.includes("\0"));
}

/** Whether a path, decoded, begins like an address of another site: `//host` or `/\\host`. */
function isOtherSiteLike(pathname: string): boolean {
  return /^\/[/\\]/.test(decodeURIComponent(pathname));
}

/**
 * Root middleware: a bad address is the client's mistake, answered 400 before any page runs; a page's
 * address with a trailing slash (`/track/{id}/`) is the same page, so it is sent to the one address that
 * names itself canonical instead of being a second copy of it.
 */
export const badAddressMiddleware: MiddlewareFunction<Response> = ({ request }, next) => {
  const url = new URL(request.url);
  if (isBadAddress(url)) {
    return new Response("This address is not valid.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
  }
  // A path that starts with two slashes (or a backslash, which the address parser reads as one) names no
  // page here, and as a `Location` it would name another site (`//evil.example`): it is left to the
  // not-found page, never redirected.
  if (isOtherSiteLike(url.pathname)) return next();
  if ((request.method === "GET" || request.method === "HEAD") && url.pathname.length > 1 && url.pathname.endsWith("/")) {
    url.pathname = url.pathname.replace(/\/+$/, "") || "/";
    return new Response(null, { status: 301, headers: { Location: `${url.pathname}${url.search}`, "Cache-Control": "no-store" } });
  }
  return next();
};
