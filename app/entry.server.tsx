import { isbot } from "isbot";
import { renderToReadableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { lowPriorityModulePreloads } from "~/lib/document-stream.server";

export const streamTimeout = 5_000;

/** React Router's default document render for Workers, with the client modules preloaded at low priority. */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  _loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }

  let shellRendered = false;
  const body = await renderToReadableStream(<ServerRouter context={routerContext} url={request.url} />, {
    signal: AbortSignal.timeout(streamTimeout + 1000),
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
  return new Response(body.pipeThrough(lowPriorityModulePreloads()), { headers: responseHeaders, status: responseStatusCode });
}
