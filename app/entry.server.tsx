import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { cloudflareContext } from "~/lib/http/context.server";
import { envFrom } from "~/lib/http/env.server";
import { documentHead } from "~/lib/http/document-stream.server";
import { NonceContext } from "~/lib/http/nonce";

export const streamTimeout = 5_000;

/** React Router's default document render for Workers, its head rewritten (client modules preloaded at low priority, the install links). */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  let shellRendered = false;
  // React Router's and React's own inline scripts carry the nonce the Content-Security-Policy names.
  const { nonce } = loadContext.get(cloudflareContext);
  const document = (
    <NonceContext value={nonce}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </NonceContext>
  );
  const body = await renderToReadableStream(document, {
    nonce,
    signal: AbortSignal.timeout(streamTimeout + 1000),
    // What has rendered goes out in place, however long the page: past this many bytes React otherwise
    // sends a finished Suspense boundary (the purchase dialog, the comment form) after the page, for a
    // script to move in, and without JavaScript it would stay hidden. Boundaries still waiting for data
    // (a deferred loader value) stream as before.
    progressiveChunkSize: Number.MAX_SAFE_INTEGER,
    onError(error: unknown) {
      responseStatusCode = 500;
      // Errors while rendering the shell reject and are logged by React Router; log the later ones.
      if (shellRendered) console.error(error);
    },
  });
  shellRendered = true;

  // Crawlers get the whole document at once.
  const userAgent = request.headers.get("user-agent");
  if (userAgent && isbot(userAgent)) await body.allReady;

  responseHeaders.set("Content-Type", "text/html");
  const site = { origin: new URL(request.url).origin, xHandle: envFrom(loadContext).SITE_X_HANDLE };
  return new Response(body.pipeThrough(documentHead(site)), { headers: responseHeaders, status: responseStatusCode });
}
