import { describe, expect, it } from "vitest";
import { documentHead, siteLinks } from "~/lib/http/document-stream.server";

async function rewrite(chunks: (string | Uint8Array)[]): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
      controller.close();
    },
  });
  return new Response(source.pipeThrough(documentHead())).text();
}

const head =
  '<html><head><link rel="modulepreload" href="/assets/a.js"/><link rel="stylesheet" href="/s.css"/><link rel="modulepreload" href="/assets/b.js"/></head>';
const body = '<body><p>Café – ♫ <link rel="modulepreload" href="/in-body.js"/></p></body></html>';

describe("documentHead", () => {
  it("marks every module preload in <head> low priority, adds the site's links and leaves the rest alone", async () => {
    const html = await rewrite([head + body]);
    expect(html).toBe(
      '<html><head><link rel="modulepreload" fetchpriority="low" href="/assets/a.js"/><link rel="stylesheet" href="/s.css"/><link rel="modulepreload" fetchpriority="low" href="/assets/b.js"/>' +
        siteLinks +
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

  it("passes a document without </head> through unchanged", async () => {
    expect(await rewrite(["<p>no head", " here</p>"])).toBe("<p>no head here</p>");
  });
});
