import { describe, expect, it } from "vitest";
import { documentHead, headAdditions } from "~/lib/http/document-stream.server";

const site = { origin: "https://crate.example" };

async function rewrite(chunks: (string | Uint8Array)[]): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
      controller.close();
    },
  });
  return new Response(source.pipeThrough(documentHead(site))).text();
}

const head =
  '<html><head><link rel="modulepreload" href="/assets/a.js"/><link rel="stylesheet" href="/s.css"/><link rel="modulepreload" href="/assets/b.js"/></head>';
const body = '<body><p>Café – ♫ <link rel="modulepreload" href="/in-body.js"/></p></body></html>';

describe("documentHead", () => {
  it("marks every module preload in <head> low priority, adds the site's links and leaves the rest alone", async () => {
    const html = await rewrite([head + body]);
    expect(html).toBe(
      '<html><head><link rel="modulepreload" fetchpriority="low" href="/assets/a.js"/><link rel="stylesheet" href="/s.css"/><link rel="modulepreload" fetchpriority="low" href="/assets/b.js"/>' +
        headAdditions(head, site) +
        "</head>" +
        body,
    );
  });

  it("finds <head> across chunk boundaries, even split inside a tag or a character", async () => {
    const whole = new TextEncoder().encode(head + body);
    const expected = await rewrite([head + body]);
    for (const size of [1, 3, 7, 64]) {
      const chunks: Uint8Array[] = [];
      for (let at = 0; at < whole.length; at += size) chunks.push(whole.subarray(at, at + size));
      expect(await rewrite(chunks)).toBe(expected);
    }
  });

  it("adds the install links, the feeds, og:locale, the site's X account, and the site's picture where the page has none", async () => {
    const bare = headAdditions("<title>About</title>", { ...site, xHandle: "@crate" });
    expect(bare).toContain('<link rel="manifest" href="/site.webmanifest"/>');
    expect(bare).toContain('<link rel="alternate" type="application/atom+xml" title="New releases on Crate (Atom)" href="/feed.atom"/>');
    expect(bare).toContain('<meta property="og:locale" content="en_US"/>');
    expect(bare).toContain('<meta name="twitter:site" content="@crate"/>');
    expect(bare).toContain('<meta property="og:image" content="https://crate.example/og-image.png"/>');
    expect(bare).toContain('<meta property="og:image:width" content="1200"/>');
    const own = headAdditions('<meta property="og:image" content="https://cdn.example/cover.jpg"/>', site);
    expect(own).not.toContain("og-image.png");
    expect(own).not.toContain("twitter:site");
  });

  it("passes a document without </head> through unchanged", async () => {
    expect(await rewrite(["<p>no head", " here</p>"])).toBe("<p>no head here</p>");
  });
});
