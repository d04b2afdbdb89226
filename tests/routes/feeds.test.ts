// Feeds of releases, as feed readers take them: each artist's and the site's, in Atom and RSS 2.0,
// well-formed XML (fast-xml-parser's strict validator) read by a real feed parser (@rowanmanning/feed-parser),
// with the audio of each streaming track as an enclosure, found from the pages that offer them. A new
// artist's releases, so what other suites publish meanwhile changes nothing here.
import { parseFeed } from "@rowanmanning/feed-parser";
import { XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, appUrl, newArtist, serviceClient, streamFinished } from "./support.ts";

let artistId: string;
const streamSize = 1234;
let album: { id: string; streaming: string };
let single: string;
const newsTitle = `Feeds are here ${Date.now().toString(36)}`;

/** A feed afresh (past the edge cache, which keeps feeds a minute), checked as XML. */
async function feed(path: string) {
  const response = await fetch(new URL(path, appUrl), { headers: { "Cache-Control": "no-cache" } });
  const xml = await response.text();
  return { response, xml, valid: XMLValidator.validate(xml) };
}

async function track(fields: Record<string, unknown>) {
  const { data, error } = await serviceClient
    .from("tracks")
    .insert({ artist_id: artistId, genre: "Folk", price: 1, description: "For the feed tests", release_date: "2026-03-01", ...fields })
    .select("id")
    .single();
  expect(error).toBeNull();
  return data!.id as string;
}

beforeAll(async () => {
  artistId = (await newArtist("Tide Table")).id;
  const { data: release } = await serviceClient
    .from("releases")
    .insert({ artist_id: artistId, kind: "album", title: "High & Low" })
    .select("id")
    .single();
  const master = `${artistId}/flood.wav`;
  const streaming = await track({ release_id: release!.id, title: "Flood", track_number: 1, file_url: master });
  // Its second track has no stream.
  await track({ release_id: release!.id, title: "Ebb", track_number: 2 });
  album = { id: release!.id, streaming };
  single = await track({ title: "Slack", release_date: "2026-04-01" });
  // One track streams (this suite's marketplace makes no streams): it alone gets an enclosure, of its size.
  const stream = `${artistId}/renditions/flood.128k.mp3`;
  expect(
    (await serviceClient.storage.from("tracks").upload(stream, new Blob([new Uint8Array(streamSize)], { type: "audio/mpeg" }))).error,
  ).toBeNull();
  await streamFinished(streaming, { masterPath: master, path: stream });
  const news = await serviceClient.from("news_items").insert({ title: newsTitle, content: "Follow any artist by feed.", type: "info" });
  expect(news.error).toBeNull();
});

// First: the site's feed lists the newest 30 releases, and other suites publish meanwhile.
describe("the site's feeds", () => {
  it("list new releases and the site's news, in Atom and RSS, found from every page", async () => {
    for (const path of ["/feed.atom", "/feed.rss"]) {
      const { response, xml, valid } = await feed(path);
      expect(response.status).toBe(200);
      expect(valid).toBe(true);
      const parsed = parseFeed(xml);
      expect(parsed.title).toBe("New releases on Crate");
      expect(parsed.items.map((item) => item.url)).toContain(`${appUrl}/album/${album.id}`);
      expect(parsed.items.map((item) => item.title)).toContain(newsTitle);
    }
    const { html } = await new Visitor().get("/about");
    expect(html).toContain('<link rel="alternate" type="application/atom+xml" title="New releases on Crate (Atom)" href="/feed.atom"/>');
  });
});

describe("an artist's feeds", () => {
  it("lists their releases in Atom, each linking its page, with its streaming tracks' audio as enclosures", async () => {
    const { response, xml, valid } = await feed(`/artist/${artistId}/feed.atom`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(response.headers.get("cache-control")).toMatch(/^public/);
    expect(valid).toBe(true);
    const parsed = parseFeed(xml);
    expect(parsed.meta.type).toBe("atom");
    expect(parsed.title).toBe("Tide Table on Crate");
    expect(parsed.url).toBe(`${appUrl}/artist/${artistId}`);
    expect(parsed.self).toBe(`${appUrl}/artist/${artistId}/feed.atom`);
    expect(parsed.items.map((item) => item.url).sort()).toEqual([`${appUrl}/album/${album.id}`, `${appUrl}/track/${single}`].sort());
    for (const item of parsed.items) {
      expect(item.published).toBeInstanceOf(Date);
      expect(item.authors[0]?.name).toBe("Tide Table");
    }
    const albumItem = parsed.items.find((item) => item.url === `${appUrl}/album/${album.id}`)!;
    expect(albumItem.title).toBe("High & Low");
    // The stream, never the master: a track without one has no enclosure.
    expect(albumItem.media).toMatchObject([{ url: `${appUrl}/track/${album.streaming}/audio`, mimeType: "audio/mpeg" }]);
    expect(parsed.items.find((item) => item.url === `${appUrl}/track/${single}`)!.media).toEqual([]);
  });

  it("lists the same releases in RSS 2.0, with one enclosure an item", async () => {
    const atom = parseFeed((await feed(`/artist/${artistId}/feed.atom`)).xml);
    const { response, xml, valid } = await feed(`/artist/${artistId}/feed.rss`);
    expect(response.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    expect(valid).toBe(true);
    const parsed = parseFeed(xml);
    expect(parsed.meta.type).toBe("rss");
    expect(parsed.meta.version).toBe("2.0");
    expect(parsed.items.map((item) => item.url)).toEqual(atom.items.map((item) => item.url));
    expect(parsed.items.flatMap((item) => item.media).map((media) => media.url)).toEqual([`${appUrl}/track/${album.streaming}/audio`]);
    // Its length is the stream's, in bytes, not 0.
    expect(xml).toContain(`length="${streamSize}"`);
  });

  it("is found from the artist's page, and is there only for an artist", async () => {
    const { html } = await new Visitor().get(`/artist/${artistId}`);
    // A link people see, beside the ones feed readers find.
    expect(html).toContain(`<a href="/artist/${artistId}/feed.rss"`);
    expect(html).toContain(
      `<link rel="alternate" type="application/atom+xml" title="Tide Table on Crate (Atom)" href="/artist/${artistId}/feed.atom"/>`,
    );
    expect(html).toContain(
      `<link rel="alternate" type="application/rss+xml" title="Tide Table on Crate (RSS)" href="/artist/${artistId}/feed.rss"/>`,
    );
    expect((await feed("/artist/f0000000-0000-4000-8000-000000000001/feed.atom")).response.status).toBe(404);
    expect((await feed("/artist/not-an-id/feed.rss")).response.status).toBe(404);
  });
});
