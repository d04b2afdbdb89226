import { appEnv } from "./env.server";
import { readEmbedPass } from "./signed-values.server";

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
 * The header that lets any site's page read an answer, without credentials (a browser shows no page an
 * answer to a request that carried cookies under it): for what a visitor may read from anywhere (oEmbed)
 * and what an embedded player asks for from a frame of another origin, or of none (a sandboxed one).
 */
export const readableByAnySite = { "Access-Control-Allow-Origin": "*" } as const;

/** Where an embedded player reports a play: `/track/{id}/play`. */
const playReportPath = /^\/track\/[^/]+\/play$/;

/**
 * Whether a state change from another site is an embedded player's play report, which may come from
 * anywhere the player is framed: a frame sandboxed without its own origin (as WordPress frames every
 * discovered player) makes even our own page's requests cross-site, with `Origin: null`. It must bring
 * back the pass its embed was served with (signed-values.server.ts), and it carries no cookies either way
 * (the player sends none), so it can never act as the visitor's account. Its play counts by the same rules
 * as any other.
 */
export async function isEmbeddedPlayReport(request: Request, env: unknown): Promise<boolean> {
  const url = new URL(request.url);
  if (request.method !== "POST" || !playReportPath.test(url.pathname)) return false;
  let secret: string;
  try {
    secret = appEnv(env).MARKETPLACE_SECRET;
  } catch {
    return false; // a misconfigured Worker, whose pages say so
  }
  return (await readEmbedPass(secret, url.searchParams.get("embed"))) !== null;
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
