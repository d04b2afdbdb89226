// The public pages when the backend is down: a second Worker, on the same build, pointed at a server
// that answers every request "503 Service Unavailable" and counts them.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, serveApp, type AppServer } from "../../scripts/lib/app-server.ts";
import { loadEnv } from "../../scripts/lib/env.ts";
import { text } from "./support.ts";

let app: AppServer;
let backend: Server;
let backendRequests = 0;

beforeAll(async () => {
  backend = createServer((_request, response) => {
    backendRequests++;
    response.writeHead(503, { "Content-Type": "application/json" }).end(JSON.stringify({ message: "Service Unavailable" }));
  });
  const backendPort = await freePort();
  await new Promise<void>((resolve) => backend.listen(backendPort, "127.0.0.1", resolve));
  const vars = {
    SUPABASE_URL: `http://127.0.0.1:${backendPort}`,
    SUPABASE_ANON_KEY: loadEnv().SUPABASE_ANON_KEY!,
    MARKETPLACE_SECRET: "no backend to register it in, nor plays to report",
  };
  app = await serveApp({ port: await freePort(), quiet: true, vars });
}, 90_000);

afterAll(async () => {
  await app?.stop();
  backend?.close();
});

/** A render past the Workers cache (which this Worker shares with the other route tests'), and how many backend requests it made. */
async function render(path: string) {
  const before = backendRequests;
  const response = await fetch(new URL(path, app.url), { headers: { "Cache-Control": "no-cache" } });
  const body = await response.text();
  return { response, body, backendRequests: backendRequests - before };
}

describe("when the backend is down", () => {
  it("the home page shows 'Unable to load artists' with a Retry that reloads it, and is never cached", async () => {
    const { response, body: html } = await render("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(html).toMatch(/role="alert"[^>]*>[\s\S]*Unable to load artists\. Please try again later\./);
    const retry = html.match(/<form[^>]*action="\/"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    expect(retry).toContain('method="get"');
    expect(text(retry)).toContain("Retry");
    // The rest of the page is still there: the shared layout and the newsletter.
    expect(text(html)).toContain("Your Library");
    expect(html).toMatch(/<input[^>]*type="email"/);
  });

  it.each([
    "/discover",
    "/genres",
    "/genres/Hip%20Hop",
    "/artists",
    "/artist/a1000000-0000-4000-8000-000000000012",
    "/fan/f0000000-0000-4000-8000-000000000001",
  ])("%s answers at once with the error page inside the layout, never cached", async (path) => {
    const { response, body: html, backendRequests } = await render(path);
    // One try: no retrying a failing backend for seconds while the visitor waits.
    expect(backendRequests).toBe(1);
    expect(response.status).toBe(500);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(text(html)).toContain("Something went wrong");
    expect(text(html)).toContain("Your Library");
  });

  it("the header search answers at once with an error and no results", async () => {
    const { response, body, backendRequests } = await render("/search/artists?q=lantern");
    expect(backendRequests).toBe(1);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const results = JSON.parse(body) as { artists: unknown[]; error: string | null };
    expect(results.artists).toEqual([]);
    expect(results.error).toBeTruthy();
  });
});
