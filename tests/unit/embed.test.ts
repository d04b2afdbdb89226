import { describe, expect, it } from "vitest";
import { embedCode, embedHeight, embeddingSite, sharing } from "~/lib/sharing/embedding.server";

describe("embeddingSite", () => {
  it("keeps another site's http(s) origin, from an origin or a page address", () => {
    expect(embeddingSite("https://blog.example.com", "https://crate.example")).toBe("https://blog.example.com");
    expect(embeddingSite("http://Zine.Example.org:8080/reviews/1?a=b#c", "https://crate.example")).toBe("http://zine.example.org:8080");
    expect(embeddingSite("https://música.es/post", "https://crate.example")).toBe("https://xn--msica-7ua.es");
  });

  it("shows a look-alike in another script as its punycode", () => {
    // "раураl.com" with Cyrillic а and р
    expect(embeddingSite("https://\u0440\u0430\u0443\u0440\u0430l.com/", "https://crate.example")).toMatch(
      /^https:\/\/xn--[a-z0-9-]+\.com$/,
    );
  });

  it("is null for Crate itself, other schemes, what is no real public host, nothing, and anything too long", () => {
    for (const value of [
      null,
      "",
      "https://crate.example",
      "javascript:alert(1)",
      "data:text/html,x",
      "blog.example.com",
      "https://..",
      "https://localhost:3000/",
      "http://127.0.0.1/",
      "http://[::1]/",
      "http://10.0.0.8:8080/",
      "https://intranet/",
      "https://blog.example/",
      "https://printer.local/",
      "https://router.home/",
      `https://${Array.from({ length: 26 }, (_, n) => `l${n}`).join(".")}.com/`,
      `https://${"a".repeat(64)}.com`,
      `https://${"a".repeat(260)}.example.com`,
    ]) {
      expect(embeddingSite(value, "https://crate.example"), String(value)).toBeNull();
    }
  });
});

describe("embed code", () => {
  it("is an iframe with the embed's address, size and a name, its text escaped", () => {
    expect(embedCode({ origin: "https://crate.example", kind: "track", id: "t1", title: 'Crate player: "Hi" <b>' })).toBe(
      // As wide as its host allows, up to its width: a phone's page is not pushed sideways.
      '<iframe src="https://crate.example/embed/track/t1" width="480" height="164" frameborder="0" style="border:0;border-radius:12px;width:100%;max-width:480px" title="Crate player: &quot;Hi&quot; &lt;b>" loading="lazy" allow="autoplay"></iframe>',
    );
    expect(embedCode({ origin: "https://crate.example", kind: "playlist", id: "p1", title: "x", size: "compact" })).toContain(
      'src="https://crate.example/embed/playlist/p1?size=compact" width="480" height="120"',
    );
  });

  it("grows with a list up to six tracks, and the Share menu names the page's first player for previews", () => {
    expect(embedHeight("large", 1)).toBe(164);
    expect(embedHeight("large", 3)).toBe(164 + 3 * 37);
    expect(embedHeight("large", 40)).toBe(164 + 6 * 37);
    const shared = sharing("https://crate.example", "/playlist/p1", "Mix", [
      { label: "Embed code", kind: "playlist", id: "p1", trackCount: 2 },
    ]);
    expect(shared.link).toBe("https://crate.example/playlist/p1");
    expect(shared.player).toEqual({ path: "/embed/playlist/p1", width: 480, height: 164 + 2 * 37 });
    expect(shared.embeds[0]!.code).toContain('height="238"');
  });
});
