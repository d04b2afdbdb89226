const safeMethods = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request that changes state comes from another site. Browsers say where a request comes
 * from in `Sec-Fetch-Site` (every current one) and `Origin` (older ones too): `same-origin`, or `none`
 * for what the person did themselves, passes; a request naming any other origin does not. A request
 * with neither header is not a browser's, so no site can have sent it on a visitor's behalf.
 */
export function isCrossSiteRequest(request: Request): boolean {
  if (safeMethods.has(request.method)) return false;
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite) return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = request.headers.get("Origin");
  if (origin === null) return false;
  return origin !== new URL(request.url).origin;
}

/**
 * Whether a request, whatever its method, says it comes from another site: for reads that hand out
 * something of the user's own (their access token). `Sec-Fetch-Site` must be `same-origin` when sent, and
 * an `Origin`, when sent, must be this site's.
 */
export function isFromAnotherSite(request: Request): boolean {
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite !== null && fetchSite !== "same-origin") return true;
  const origin = request.headers.get("Origin");
  return origin !== null && origin !== new URL(request.url).origin;
}

/**
 * The Worker's answer to a state change sent by another site, before React Router sees it (its own check
 * of page actions answers 400, and resource routes such as sign-out and plays need one too): 403.
 */
export function crossSiteRefusal(): Response {
  return new Response("Cross-site requests are not accepted.", {
    status: 403,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}
