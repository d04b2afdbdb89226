import { createRequestHandler, RouterContextProvider } from "react-router";
import { cloudflareContext, requestCountry } from "~/lib/http/context.server";
import { crossSiteRefusal, isCrossSiteRequest, isEmbeddedPlayReport } from "~/lib/http/cross-site.server";
import { discardBody } from "~/lib/http/request-body";
import { isEmbedPath, newNonce, withoutCookies, withSecurityHeaders } from "~/lib/http/security-headers.server";

type App = { handleRequest: ReturnType<typeof createRequestHandler>; buildVersion: string };

async function loadApp(): Promise<App> {
  const build = await import("virtual:react-router/server-build");
  return { handleRequest: createRequestHandler(build, import.meta.env.MODE), buildVersion: build.assets.version };
}

// React Router re-derives its routes on every request when it is handed a function that loads the build
// (what development's hot reload needs); in production the build never changes, so that is done once
// per isolate, which saves a few milliseconds on every render.
let production: Promise<App> | undefined;
const app = () => (import.meta.env.DEV ? loadApp() : (production ??= loadApp()));

export default {
  async fetch(request, env, ctx) {
    const { handleRequest, buildVersion } = await app();
    const context = new RouterContextProvider();
    const nonce = newNonce();
    context.set(cloudflareContext, { env, ctx, buildVersion, country: requestCountry(request), nonce });
    const crossSite = isCrossSiteRequest(request);
    // Another site's state change is refused before anything runs, page actions and resource routes alike,
    // but for an embedded player's play report, which is taken without cookies like the embed itself.
    const embedded = crossSite && (await isEmbeddedPlayReport(request, env));
    const incoming = embedded || isEmbedPath(new URL(request.url).pathname) ? withoutCookies(request) : request;
    const response = crossSite && !embedded ? crossSiteRefusal() : await handleRequest(incoming, context);
    // A body no route read (a post to a page without a form, a refusal before the form was read)
    await discardBody(incoming);
    const secured = withSecurityHeaders(request, response, { nonce, env, development: import.meta.env.DEV });
    // React Router's data addresses are for the app's own navigations, never a search result, query or not.
    if (new URL(request.url).pathname.endsWith(".data")) secured.headers.set("X-Robots-Tag", "noindex");
    return secured;
  },
} satisfies ExportedHandler<Env>;
