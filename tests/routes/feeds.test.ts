// Feeds of releases, as feed readers take them: each artist's and the site's, in Atom and RSS 2.0,
// well-formed XML (fast-xml-parser's strict validator) read by a real feed parser (@rowanmanning/feed-parser),
// with the audio of each streaming track as an enclosure, found from the pages that offer them.
import { parseFeed } from "@rowanmanning/feed-parser";
import { XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, albumId, appUrl, serviceClient, trackId } from "./support.ts";

// The Paper Lanterns, the demo artist account.
const artist = "a1000000-0000-4000-8000-000000000012";
const streamed = trackId("Kites Over the Clyde");

/** A feed afresh (past the edge cache, which keeps feeds a minute), checked as XML. */
async function feed(path: string) {
  const response = await fetch(new URL(path, appUrl), { headers: { "Cache-Control": "no-cache" } });
  const xml = await response.text();
  return { response, xml, valid: XMLValidator.validate(xml, { allowBooleanAttributes: false }) };
}

beforeAll(async () => {
  // One of the demo artist's tracks streams (the route tests' marketplace makes no streams): it gets an enclosure.
  const { error } = await serviceClient
    .from("tracks")
    .update({ rendition_path: `${artist}/renditions/kites.128k.mp3`, rendition_state: "ready" })
    .eq("id", streamed);
  expect(error).toBeNull();
});

describe("an artist's feeds", () => {
  it("lists their releases in Atom, newest first, each linking its page with its tracks' audio as enclosures", async () => {
    const { response, xml, valid } = await feed(`/artist/${artist}/feed.atom`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toMatch(/^public/);
    expect(valid).toBe(true);
    const parsed = parseFeed(xml);
    expect(parsed.meta.type).toBe("atom");
    expect(parsed.title).toBe("The Paper Lanterns on Crate");
    expect(parsed.url).toBe(`${appUrl}/artist/${artist}`);
    expect(parsed.self).toBe(`${appUrl}/artist/${artist}/feed.atom`);
    expect(parsed.items.length).toBeGreaterThan(1);
    for (const item of parsed.items) {
      expect(item.url).toMatch(new RegExp(`^${appUrl}/(album|track)/[0-9a-f-]{36}$`));
      expect(item.published).toBeInstanceOf(Date);
      expect(item.authors[0]?.name).toBe("The Paper Lanterns");
    }
    const dates = parsed.items.map((item) => item.updated!.getTime());
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const kites = parsed.items.find((item) => item.media.some((media) => media.url === `${appUrl}/track/${streamed}/audio`));
    expect(kites?.media[0]).toMatchObject({ mimeType: "audio/mpeg" });
    // A track without a stream has no enclosure: the master is never what a feed hands out.
    expect(parsed.items.flatMap((item) => item.media).every((media) => media.url === `${appUrl}/track/${streamed}/audio`)).toBe(true);
  });

  it("lists the same releases in RSS 2.0, with one enclosure an item", async () => {
    const atom = parseFeed((await feed(`/artist/${artist}/feed.atom`)).xml);
    const { response, xml, valid } = await feed(`/artist/${artist}/feed.rss`);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(valid).toBe(true);
    const parsed = parseFeed(xml);
    expect(parsed.meta.type).toBe("rss");
    expect(parsed.meta.version).toBe("2.0");
    expect(parsed.items.map((item) => item.url)).toEqual(atom.items.map((item) => item.url));
    expect(parsed.items.every((item) => item.media.length <= 1)).toBe(true);
    expect(parsed.items.flatMap((item) => item.media).map((media) => media.url)).toEqual([`${appUrl}/track/${streamed}/audio`]);
  });

  it("is found from the artist's page, and is there only for an artist", async () => {
    const { html } = await new Visitor().get(`/artist/${artist}`);
    expect(html).toContain(
      `<link rel="alternate" type="application/atom+xml" title="The Paper Lanterns on Crate (Atom)" href="/artist/${artist}/feed.atom"/>`,
    );
    expect(html).toContain(
      `<link rel="alternate" type="application/rss+xml" title="The Paper Lanterns on Crate (RSS)" href="/artist/${artist}/feed.rss"/>`,
    );
    expect((await feed("/artist/f0000000-0000-4000-8000-000000000001/feed.atom")).response.status).toBe(404);
    expect((await feed("/artist/not-an-id/feed.rss")).response.status).toBe(404);
  });
});

describe("the site's feeds", () => {
  it("list new releases of every artist and the site's news, in Atom and RSS, found from every page", async () => {
    for (const path of ["/feed.atom", "/feed.rss"]) {
      const { response, xml, valid } = await feed(path);
      expect(response.status).toBe(200);
      expect(valid).toBe(true);
      const parsed = parseFeed(xml);
      expect(parsed.title).toBe("New releases on Crate");
      const urls = parsed.items.map((item) => item.url);
      expect(urls).toContain(`${appUrl}/album/${albumId("Headlights & Static")}`);
      expect(parsed.items.map((item) => item.title)).toContain("Welcome to the marketplace");
      expect(new Set(parsed.items.flatMap((item) => item.authors.map((author) => author.name))).size).toBeGreaterThan(2);
    }
    const { html } = await new Visitor().get("/about");
    expect(html).toContain('<link rel="alternate" type="application/atom+xml" title="New releases on Crate (Atom)" href="/feed.atom"/>');
  });
});
