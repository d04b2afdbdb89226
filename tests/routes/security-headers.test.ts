// The security headers on every response of the built Worker: pages, cached pages, form replies, errors,
// 404s and resource routes. HTML carries a Content-Security-Policy whose nonce is this response's own,
// and every inline script of the page carries it.
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { Visitor, appUrl, signedIn, supabaseUrl, text } from "./support.ts";

const paperLanterns = "a1000000-0000-4000-8000-000000000012";

const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1];

/** Every nonce attribute in the page. */
const scriptNonces = (html: string) => [...html.matchAll(/<(?:script|link)\b[^>]*\bnonce="([^"]*)"/g)].map((match) => match[1]);

function expectBaseHeaders(response: Response) {
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  // The suite runs over plain HTTP: HSTS would be meaningless there (the unit tests cover HTTPS).
  expect(response.headers.get("strict-transport-security")).toBeNull();
}

function expectPolicy(response: Response, html: string) {
  expectBaseHeaders(response);
  const policy = response.headers.get("content-security-policy") ?? "";
  const directives = new Map(policy.split(/;\s*/).map((directive) => [directive.split(" ")[0], directive]));
  const nonce = nonceOf(policy);
  expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(directives.get("script-src")).toBe(`script-src 'self' 'nonce-${nonce}'`);
  expect(policy).not.toContain("unsafe-inline'; script");
  expect(directives.get("frame-ancestors")).toBe("frame-ancestors 'none'");
  expect(directives.get("connect-src")).toBe(`connect-src 'self' ${supabaseUrl} ${supabaseUrl.replace(/^http/, "ws")}`);
  expect(directives.get("object-src")).toBe("object-src 'none'");
  // every inline script carries this response's nonce, and there is at least one (React Router's)
  const nonces = scriptNonces(html);
  expect(nonces.length).toBeGreaterThan(0);
  expect(new Set(nonces)).toEqual(new Set([nonce]));
  return nonce;
}

describe("security headers", () => {
  it("are on pages, with a nonce of their own per response, a page from the edge cache included", async () => {
    const first = await new Visitor().get("/");
    const second = await new Visitor().get("/");
    const firstNonce = expectPolicy(first.response, first.html);
    const secondNonce = expectPolicy(second.response, second.html);
    expect(secondNonce).not.toBe(firstNonce);
    // what the cache keeps of the render stays there
    expect(second.response.headers.get("x-render-nonce")).toBeNull();
  });

  it("are on a signed-in page, a refused form, a 403, a 404 and an error page", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    for (const { response, html } of [
      await fan.get("/dashboard/fan"),
      await fan.get("/admin"),
      await new Visitor().get("/no-such-page"),
      await new Visitor().get("/track/not-a-track"),
      await new Visitor().post("/login", { email: "", password: "" }),
    ]) {
      expectPolicy(response, html);
    }
  });

  it("are on resource routes and redirects, without a policy where there is no page", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    for (const { response } of [await new Visitor().get("/dashboard/fan"), await fan.get("/account/realtime-token")]) {
      expectBaseHeaders(response);
      expect(response.headers.get("content-security-policy")).toBeNull();
    }
  });

  it("are on static files, which the asset layer serves without the Worker (public/_headers)", async () => {
    const page = await new Visitor().get("/");
    const script = /href="(\/assets\/[^"]+\.js)"/.exec(page.html)?.[1];
    expect(script).toBeDefined();
    for (const path of ["/favicon.svg", "/fallback-artwork.svg", script ?? ""]) {
      const { response } = await new Visitor().get(path);
      expect(response.status).toBe(200);
      expectBaseHeaders(response);
    }
  });
});

/** A GET of `path` exactly as written (a URL parser would read `//host/` as another host): its status, `Location` and page. */
function rawGet(path: string): Promise<{ status: number; location: string | undefined; html: string }> {
  const { hostname, port } = new URL(appUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: "GET" }, (response) => {
      let html = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (html += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, location: response.headers.location, html }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("addresses that look like another site's", () => {
  it.each([
    "//evil.example/",
    "/\\evil.example/",
    "//evil.example/x/",
    "/%5Cevil.example/",
    "/%2F/evil.example/",
    `//artist/${paperLanterns}`,
  ])("%s is the not-found page, never a redirect to another site", async (path) => {
    const { status, location, html } = await rawGet(path);
    expect(status).toBe(404);
    expect(location).toBeUndefined();
    expect(text(html)).toContain("Page not found");
  });
});
