import { describe, expect, it } from "vitest";
import { cx } from "~/lib/ui/cx";
import { canonicalUrl, pageMeta } from "~/lib/sharing/meta";
import { sharedPageMeta } from "~/lib/sharing/meta.server";
import { isoDuration } from "~/lib/sharing/structured-data.server";

describe("pageMeta and sharedPageMeta", () => {
  it("suffixes the title with the brand and carries the description", () => {
    expect(pageMeta("Terms of Use", "The rules")).toEqual([
      { title: "Terms of Use · Crate" },
      { name: "description", content: "The rules" },
      { property: "og:site_name", content: "Crate" },
      { property: "og:title", content: "Terms of Use" },
      { property: "og:description", content: "The rules" },
      { property: "og:type", content: "website" },
      { name: "twitter:card", content: "summary" },
      { name: "twitter:title", content: "Terms of Use" },
      { name: "twitter:description", content: "The rules" },
    ]);
  });

  it("gives a shareable page absolute artwork, its oEmbed address, a player card and its JSON-LD", () => {
    const tags = sharedPageMeta("Low Tide by Harbour Lights", "From the pier", {
      origin: "https://crate.example",
      path: "/track/1",
      type: "music.song",
      image: "/fallback.png",
      embed: { path: "/embed/track/1", width: 480, height: 120, card: true },
      structuredData: { "@type": "MusicRecording", name: "Low Tide" },
    });
    expect(tags).toEqual(
      expect.arrayContaining([
        { property: "og:type", content: "music.song" },
        { property: "og:image", content: "https://crate.example/fallback.png" },
        { name: "twitter:card", content: "player" },
        { name: "twitter:player", content: "https://crate.example/embed/track/1" },
        {
          tagName: "link",
          rel: "alternate",
          type: "application/json+oembed",
          href: "https://crate.example/oembed?url=https%3A%2F%2Fcrate.example%2Ftrack%2F1&format=json",
          title: "Low Tide by Harbour Lights",
        },
        { "script:ld+json": { "@context": "https://schema.org", "@type": "MusicRecording", name: "Low Tide" } },
      ]),
    );
  });

  it("names the image's size right after it when it is known, and no size otherwise", () => {
    const share = { origin: "https://crate.example", path: "/playlist/1", type: "music.playlist" as const, image: "/cover.jpg" };
    const tags = sharedPageMeta("Night Drive", "Songs for the road", { ...share, imageSize: { width: 1200, height: 630 } });
    const image = tags.findIndex((tag) => tag.property === "og:image");
    expect(tags.slice(image, image + 3)).toEqual([
      { property: "og:image", content: "https://crate.example/cover.jpg" },
      { property: "og:image:width", content: "1200" },
      { property: "og:image:height", content: "630" },
    ]);
    const unsized = sharedPageMeta("Night Drive", "Songs for the road", { ...share, imageSize: null });
    expect(unsized.filter((tag) => String(tag.property).startsWith("og:image:") && tag.property !== "og:image:alt")).toEqual([]);
  });

  it("does not repeat the brand on the home page", () => {
    expect(pageMeta("Crate", "Home")[0]).toEqual({ title: "Crate" });
  });
});

describe("canonicalUrl", () => {
  it("keeps the path and a paged list's page, and drops every other parameter", () => {
    expect(canonicalUrl("https://crate.example", "/artists", "?q=lan&page=3&sort=new")).toBe("https://crate.example/artists?page=3");
    expect(canonicalUrl("https://crate.example", "/artists", "?page=1")).toBe("https://crate.example/artists");
    expect(canonicalUrl("https://crate.example", "/track/1", "?buy=1&page=x")).toBe("https://crate.example/track/1");
  });
});

describe("isoDuration", () => {
  it("writes a length as ISO 8601", () => {
    expect(isoDuration(205)).toBe("PT3M25S");
    expect(isoDuration(26.4)).toBe("PT26S");
    expect(isoDuration(3600)).toBe("PT60M0S");
  });
});

describe("cx", () => {
  it("joins the classes that are set", () => {
    expect(cx("a", false, null, undefined, "b")).toBe("a b");
  });
});
