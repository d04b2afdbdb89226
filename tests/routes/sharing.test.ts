// What a public page tells link previews and search engines: its canonical address, Open Graph and
// Twitter tags with absolute addresses, and its schema.org description (JSON-LD) with each type's
// required fields, safely escaped whatever an artist writes; and what crawlers are given: the sitemap
// (every address in it answers 200, nothing unreleased or private in it, whoever asks) and robots.txt.
import { createRequire } from "node:module";
import ogs from "open-graph-scraper";
import { beforeAll, describe, expect, it } from "vitest";
import { routeUses, type RoutePattern } from "../../app/route-uses.ts";
import { routeAddresses, routePatterns } from "../support/route-table.ts";
import { Visitor, albumId, appUrl, newArtist, newFan, serviceClient, signedIn, supabaseUrl, trackId } from "./support.ts";

const paperLanterns = "a1000000-0000-4000-8000-000000000012";
const lastBusHome = "b1000000-0000-4000-8000-000000000001";
const saturdayKitchen = "b1000000-0000-4000-8000-000000000002";
const kites = trackId("Kites Over the Clyde");
const northernLine = trackId("Northern Line");
const origin = new URL(appUrl).origin;
// robots-parser is CommonJS exporting the parser itself, though its types declare an ES default export:
// required as it is published, and typed here for what this test calls.
type Robots = { isAllowed(url: string, userAgent?: string): boolean | undefined; getSitemaps(): string[] };
const robotsParser: (url: string, contents: string) => Robots = createRequire(import.meta.url)("robots-parser");

const visitor = new Visitor();

// The demo tracks have no media in this suite: a release of a new artist carries artwork (with the size
// the Worker reads from an upload's bytes) and a length; the artist and a fan have pictures.
let release: { id: string; artworkUrl: string; smallUrl: string };
let harbourLights: { id: string; pictureUrl: string };
let fan: { id: string; pictureUrl: string };
const pictureIn = (owner: string) => `${supabaseUrl}/storage/v1/object/public/artwork/${owner}/1700000000000-picture.jpg`;
beforeAll(async () => {
  const [artist, someFan] = await Promise.all([newArtist("Harbour Lights"), newFan(`previewfan${Date.now().toString(36)}`)]);
  const artworkUrl = `${supabaseUrl}/storage/v1/object/public/artwork/${artist.id}/1700000000000-cover.jpg`;
  const smallUrl = `${supabaseUrl}/storage/v1/object/public/artwork/${artist.id}/1700000000000-cover-small.webp`;
  const { data, error } = await serviceClient
    .from("tracks")
    .insert({
      artist_id: artist.id,
      title: "Low Tide",
      genre: "Folk",
      price: 2,
      description: "Recorded on the pier.",
      release_date: "2026-01-02",
      artwork_url: artworkUrl,
      artwork_small_url: smallUrl,
      artwork_width: 1200,
      artwork_height: 1000,
      duration_seconds: 205,
    })
    .select("id")
    .single();
  if (error) throw error;
  release = { id: data.id, artworkUrl, smallUrl };
  harbourLights = { id: artist.id, pictureUrl: pictureIn(artist.id) };
  fan = { id: someFan.id, pictureUrl: pictureIn(someFan.id) };
  const [artistPicture, fanPicture] = await Promise.all([
    serviceClient
      .from("artist_profiles")
      .update({ profile_image_url: harbourLights.pictureUrl, profile_image_width: 800, profile_image_height: 600 })
      .eq("id", artist.id),
    serviceClient
      .from("fan_profiles")
      .update({ profile_image_url: fan.pictureUrl, profile_image_width: 300, profile_image_height: 400 })
      .eq("id", fan.id),
  ]);
  if (artistPicture.error ?? fanPicture.error) throw artistPicture.error ?? fanPicture.error;
});

/** The `content` of a `<meta>` by its property or name (the first, unescaped as a browser would). */
function metaContent(html: string, key: string): string | undefined {
  const tag = [...html.matchAll(/<meta [^>]*>/g)].map((match) => match[0]).find((tag) => tag.includes(`="${key}"`));
  return tag
    ? /content="([^"]*)"/
        .exec(tag)?.[1]
        ?.replace(/&amp;/g, "&")
        .replace(/&quot;/g, '"')
    : undefined;
}

/** Every JSON-LD block of the page, parsed. */
function structuredData(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]!));
}

const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];

describe("link previews", () => {
  it("give a track its kind, canonical address, absolute artwork and its player card", async () => {
    const { html } = await visitor.get(`/track/${kites}?buy=1`);
    expect(canonical(html)).toBe(`${origin}/track/${kites}`);
    expect(metaContent(html, "og:url")).toBe(`${origin}/track/${kites}`);
    expect(metaContent(html, "og:type")).toBe("music.song");
    expect(metaContent(html, "og:title")).toBe("Kites Over the Clyde by The Paper Lanterns");
    expect(metaContent(html, "og:site_name")).toBe("Crate");
    // With only the fallback artwork, the site's picture; a track's card is its player either way.
    expect(metaContent(html, "og:image")).toBe(`${origin}/og-image.png`);
    expect(metaContent(html, "og:image:width")).toBe("1200");
    expect(metaContent(html, "twitter:card")).toBe("player");
    const withArtwork = await visitor.get(`/track/${release.id}`);
    expect(metaContent(withArtwork.html, "og:image")).toBe(release.artworkUrl);
    expect(metaContent(withArtwork.html, "og:image:width")).toBe("1200");
    expect(metaContent(withArtwork.html, "og:image:height")).toBe("1000");
    expect(metaContent(withArtwork.html, "twitter:image")).toBe(release.artworkUrl);
    expect(metaContent(withArtwork.html, "twitter:card")).toBe("player");
    const artist = await visitor.get(`/artist/${paperLanterns}`);
    expect(metaContent(artist.html, "twitter:card")).toBe("summary");
  });

  it("give an artist's and a fan's page their picture with its size", async () => {
    const artist = await visitor.get(`/artist/${harbourLights.id}`);
    expect(metaContent(artist.html, "og:image")).toBe(harbourLights.pictureUrl);
    expect([metaContent(artist.html, "og:image:width"), metaContent(artist.html, "og:image:height")]).toEqual(["800", "600"]);
    const fanPage = await visitor.get(`/fan/${fan.id}`);
    expect(metaContent(fanPage.html, "og:type")).toBe("profile");
    expect(canonical(fanPage.html)).toBe(`${origin}/fan/${fan.id}`);
    expect(metaContent(fanPage.html, "og:image")).toBe(fan.pictureUrl);
    expect([metaContent(fanPage.html, "og:image:width"), metaContent(fanPage.html, "og:image:height")]).toEqual(["300", "400"]);
  });

  it("give oEmbed the artwork as its thumbnail with its size, within maxwidth and maxheight (the small rendition where smaller), and none whose size is unknown", async () => {
    const oembed = async (page: string, limits: Record<string, string> = {}) =>
      (await visitor.get(`/oembed?${new URLSearchParams({ url: `${origin}${page}`, format: "json", ...limits })}`)).html;
    expect(JSON.parse(await oembed(`/track/${release.id}`))).toMatchObject({
      thumbnail_url: release.artworkUrl,
      thumbnail_width: 1200,
      thumbnail_height: 1000,
    });
    expect(JSON.parse(await oembed(`/artist/${harbourLights.id}`))).toMatchObject({
      thumbnail_url: harbourLights.pictureUrl,
      thumbnail_width: 800,
      thumbnail_height: 600,
    });
    // Within a consumer's limits: the small rendition (200 px on its longer side) where the artwork is
    // larger, and no thumbnail where neither fits (a picture has no small rendition).
    const thumbnail = async (page: string, limits: Record<string, string>) =>
      Object.entries(JSON.parse(await oembed(page, limits))).filter(([key]) => key.startsWith("thumbnail_"));
    const small = [
      ["thumbnail_url", release.smallUrl],
      ["thumbnail_width", 200],
      ["thumbnail_height", 167],
    ];
    expect(await thumbnail(`/track/${release.id}`, { maxwidth: "1200", maxheight: "1000" })).toEqual([
      ["thumbnail_url", release.artworkUrl],
      ["thumbnail_width", 1200],
      ["thumbnail_height", 1000],
    ]);
    expect(await thumbnail(`/track/${release.id}`, { maxwidth: "600" })).toEqual(small);
    expect(await thumbnail(`/track/${release.id}`, { maxheight: "999" })).toEqual(small);
    expect(await thumbnail(`/track/${release.id}`, { maxheight: "166" })).toEqual([]);
    expect(await thumbnail(`/artist/${harbourLights.id}`, { maxwidth: "480" })).toEqual([]);
    const withoutSize = await serviceClient.from("tracks").update({ artwork_width: null, artwork_height: null }).eq("id", release.id);
    expect(withoutSize.error).toBeNull();
    try {
      const answer = JSON.parse(await oembed(`/embed/track/${release.id}`));
      expect(answer.title).toBe("Low Tide by Harbour Lights");
      expect(Object.keys(answer).filter((key) => key.startsWith("thumbnail_"))).toEqual([]);
    } finally {
      await serviceClient.from("tracks").update({ artwork_width: 1200, artwork_height: 1000 }).eq("id", release.id);
    }
  });

  it("give an artist a profile and a public playlist its kind; a paged list keeps its page in the canonical address", async () => {
    const artist = await visitor.get(`/artist/${paperLanterns}`);
    expect(metaContent(artist.html, "og:type")).toBe("profile");
    const playlist = await visitor.get(`/playlist/${lastBusHome}`);
    expect(metaContent(playlist.html, "og:type")).toBe("music.playlist");
    const list = await visitor.get("/artists?page=2&q=");
    expect(canonical(list.html)).toBe(`${origin}/artists?page=2`);
    const about = await visitor.get("/about");
    expect(metaContent(about.html, "og:type")).toBe("website");
    expect(metaContent(about.html, "twitter:card")).toBe("summary");
    expect(structuredData(about.html)).toEqual([]);
  });
});

/** A page's preview as open-graph-scraper (the scraper link-preview services run) reads it. */
async function scraped(path: string) {
  const { html } = await visitor.get(path);
  const { result } = await ogs({ html });
  return result;
}

describe("previews without gaps", () => {
  it("give the home page and pages without artwork the site's picture with its size, and every page its locale", async () => {
    for (const path of ["/", "/about", "/genres/Rock", "/artists"]) {
      const preview = await scraped(path);
      // (the scraper gives the sizes as the page wrote them: text)
      expect(preview.ogImage?.[0], path).toMatchObject({ url: `${origin}/og-image.png`, width: "1200", height: "630" });
      expect(preview.twitterImage?.[0]?.alt, path).toBe("Crate: music straight from independent artists");
      expect(preview.ogLocale, path).toBe("en_US");
    }
    const image = await fetch(`${origin}/og-image.png`);
    expect(image.headers.get("content-type")).toBe("image/png");
  });

  it("describe the home page as the site (WebSite, with its search), a fan's page as their profile", async () => {
    const home = (await scraped("/")).jsonLD as Record<string, unknown>[];
    expect(home).toContainEqual(
      expect.objectContaining({
        "@type": "WebSite",
        "@id": `${origin}/#website`,
        name: "Crate",
        potentialAction: expect.objectContaining({ "@type": "SearchAction" }),
      }),
    );
    const profile = (await scraped(`/fan/${fan.id}`)).jsonLD as Record<string, unknown>[];
    expect(profile).toContainEqual(
      expect.objectContaining({
        "@type": "ProfilePage",
        isPartOf: { "@id": `${origin}/#website` },
        mainEntity: expect.objectContaining({ "@type": "Person", image: fan.pictureUrl }),
      }),
    );
  });

  it("give a track, an album and a playlist their player as og:video, and every image its alt text", async () => {
    const track = await scraped(`/track/${kites}`);
    expect(track.ogVideo?.[0]).toMatchObject({ url: `${origin}/embed/track/${kites}`, type: "text/html" });
    const album = await scraped(`/album/${albumId("Small Town Satellites")}`);
    expect(album.ogVideo?.[0]?.url).toBe(`${origin}/embed/album/${albumId("Small Town Satellites")}`);
    const playlist = await scraped(`/playlist/${lastBusHome}`);
    expect(playlist.ogVideo?.[0]?.url).toBe(`${origin}/embed/playlist/${lastBusHome}`);
    const withArtwork = await scraped(`/track/${release.id}`);
    expect(withArtwork.twitterImage?.[0]).toMatchObject({ url: release.artworkUrl, alt: "Low Tide by Harbour Lights" });
    expect((await scraped(`/artist/${paperLanterns}`)).ogVideo).toBeUndefined();
  });

  it("give an artist without a picture their latest release's cover", async () => {
    const artist = await newArtist("Quiet Pier");
    const cover = `${supabaseUrl}/storage/v1/object/public/artwork/${artist.id}/1700000000000-cover.jpg`;
    const { error } = await serviceClient.from("tracks").insert({
      artist_id: artist.id,
      title: "Slack Water",
      genre: "Folk",
      price: 1,
      description: "A first single.",
      release_date: "2026-02-03",
      artwork_url: cover,
      artwork_width: 900,
      artwork_height: 900,
    });
    expect(error).toBeNull();
    expect((await scraped(`/artist/${artist.id}`)).ogImage?.[0]?.url).toBe(cover);
  });
});

describe("structured data", () => {
  it("describes a track as a MusicRecording: its artist, length, release date, artwork and price", async () => {
    const [recording] = structuredData((await visitor.get(`/track/${kites}`)).html);
    expect(recording).toMatchObject({
      "@context": "https://schema.org",
      "@type": "MusicRecording",
      name: "Kites Over the Clyde",
      url: `${origin}/track/${kites}`,
      byArtist: { "@type": "MusicGroup", name: "The Paper Lanterns", url: `${origin}/artist/${paperLanterns}` },
      offers: { "@type": "Offer", price: "1.29", priceCurrency: "USD" },
    });
    expect(recording!.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const [timed] = structuredData((await visitor.get(`/track/${release.id}`)).html);
    expect(timed).toMatchObject({ duration: "PT3M25S", datePublished: "2026-01-02", image: release.artworkUrl, genre: "Folk" });
    expect(timed!.offers).toMatchObject({ price: "2.00", priceCurrency: "USD" });
  });

  it("describes an album track's album, and an artist as a MusicGroup with their links and albums", async () => {
    const [recording] = structuredData((await visitor.get(`/track/${trackId("Open Highway")}`)).html);
    expect(recording!.inAlbum).toMatchObject({
      "@type": "MusicAlbum",
      "@id": `${origin}/album/${albumId("Headlights & Static")}`,
      name: "Headlights & Static",
    });
    const [group] = structuredData((await visitor.get(`/artist/${paperLanterns}`)).html);
    expect(group).toMatchObject({ "@type": "MusicGroup", name: "The Paper Lanterns", url: `${origin}/artist/${paperLanterns}` });
    expect(group!.sameAs).toEqual(expect.arrayContaining(["https://thepaperlanterns.example/"]));
    const singles = group!.track as { name: string }[];
    expect(singles.map((track) => track.name)).toContain("Kites Over the Clyde");
    // Unreleased music is no one's structured data but its artist's page, and not there either.
    expect(singles.map((track) => track.name)).not.toContain("Northern Line");
    const [albumArtist] = structuredData((await visitor.get(`/artist/${"a1000000-0000-4000-8000-000000000001"}`)).html);
    const [album] = albumArtist!.album as Record<string, unknown>[];
    expect(album).toMatchObject({
      "@type": "MusicAlbum",
      url: `${origin}/album/${albumId("Headlights & Static")}`,
      name: "Headlights & Static",
      numTracks: 4,
    });
  });

  it("describes an album page as a MusicAlbum with its tracks in order and its own price, and previews it as one", async () => {
    const headlights = albumId("Headlights & Static");
    const { html } = await visitor.get(`/album/${headlights}?buy=1`);
    expect(canonical(html)).toBe(`${origin}/album/${headlights}`);
    expect(metaContent(html, "og:type")).toBe("music.album");
    expect(metaContent(html, "og:title")).toBe("Headlights & Static by Ember Road");
    expect(metaContent(html, "twitter:player")).toBe(`${origin}/embed/album/${headlights}`);
    const [album] = structuredData(html);
    expect(album).toMatchObject({
      "@type": "MusicAlbum",
      "@id": `${origin}/album/${headlights}`,
      name: "Headlights & Static",
      byArtist: { "@type": "MusicGroup", name: "Ember Road" },
      numTracks: 4,
      offers: { "@type": "Offer", price: "4.49", priceCurrency: "USD" },
    });
    expect((album!.track as { name: string; url: string }[]).map((track) => [track.name, track.url])).toEqual(
      ["Open Highway", "Static on the Radio", "Gasoline Heart", "Porch Light"].map((name) => [name, `${origin}/track/${trackId(name)}`]),
    );
  });

  it("describes a public playlist as a MusicPlaylist with its tracks in order; a private one, to its owner, as nothing", async () => {
    const [playlist] = structuredData((await visitor.get(`/playlist/${lastBusHome}`)).html);
    expect(playlist).toMatchObject({ "@type": "MusicPlaylist", name: "Last bus home", numTracks: 5 });
    expect((playlist!.track as { name: string }[]).map((track) => track.name)).toEqual([
      "Satellite Town",
      "Rain on the El",
      "Bicycle Bell",
      "Mesquite Moon",
      "Harbour Wall",
    ]);
    const owner = await signedIn("fan@example.com", "fan-demo-pass");
    const own = await owner.get(`/playlist/${saturdayKitchen}`);
    expect(own.response.status).toBe(200);
    expect(structuredData(own.html)).toEqual([]);
    // Nothing of it in its preview either: the site's own picture.
    expect(metaContent(own.html, "og:image")).toBe(`${origin}/og-image.png`);
  });

  it("keeps an artist's text inside its script: no </script> breakout, the name read back intact", async () => {
    const name = `</script><script>alert(1)</script> & Co`;
    const artist = await newArtist(name);
    const { html } = await visitor.get(`/artist/${artist.id}`);
    expect(html).not.toContain("<script>alert(1)");
    const [group] = structuredData(html);
    expect(group!.name).toBe(name);
  });
});

/** The `<loc>`s of a sitemap or an index. */
const locations = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));

describe("crawling", () => {
  it("names every public page in the sitemap, each answering 200, and nothing unreleased or private, whoever asks", async () => {
    const index = await visitor.get("/sitemap.xml");
    expect(index.response.status).toBe(200);
    expect(index.response.headers.get("content-type")).toContain("application/xml");
    expect(index.response.headers.get("cache-control")).toMatch(/^public/);
    expect(index.html).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const sitemaps = locations(index.html);
    expect(sitemaps).toEqual(
      expect.arrayContaining([
        `${origin}/sitemap/pages/1`,
        `${origin}/sitemap/artists/1`,
        `${origin}/sitemap/tracks/1`,
        `${origin}/sitemap/albums/1`,
      ]),
    );
    const urls: string[] = [];
    for (const sitemap of sitemaps) {
      const page = await visitor.get(new URL(sitemap).pathname);
      expect(page.response.status).toBe(200);
      const found = locations(page.html);
      expect(found.length).toBeGreaterThan(0);
      expect(found.length).toBeLessThanOrEqual(50_000);
      urls.push(...found);
    }
    expect(urls).toEqual(
      expect.arrayContaining([`${origin}/`, `${origin}/genres/Hip%20Hop`, `${origin}/track/${kites}`, `${origin}/playlist/${lastBusHome}`]),
    );
    // Albums by their own pages; a single's release has none (its page is its track's).
    expect(urls).toContain(`${origin}/album/${albumId("Headlights & Static")}`);
    const kitesRelease = (await serviceClient.from("tracks").select("release_id").eq("id", kites).single()).data!.release_id;
    expect(urls).not.toContain(`${origin}/album/${kitesRelease}`);
    expect(urls).not.toContain(`${origin}/track/${northernLine}`);
    expect(urls).not.toContain(`${origin}/playlist/${saturdayKitchen}`);
    // Every address answers, a few at a time.
    const paths = urls.map((url) => new URL(url).pathname);
    for (let i = 0; i < paths.length; i += 8) {
      // `no-store`: rendered afresh, and the edge cache left as it was for the other suites' pages.
      const statuses = await Promise.all(
        paths
          .slice(i, i + 8)
          .map(async (path) => [path, (await fetch(new URL(path, appUrl), { headers: { "Cache-Control": "no-store" } })).status]),
      );
      expect(statuses.filter(([, status]) => status !== 200)).toEqual([]);
    }
    // The artist of the unreleased track, signed in, is given the visitors' sitemap.
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    const theirs = await artist.get("/sitemap/tracks/1");
    expect(locations(theirs.html)).not.toContain(`${origin}/track/${northernLine}`);
  });

  it("gives each page's lastmod as when it last changed: an edit moves a track's and its artist's", async () => {
    const lastmod = async (list: string, path: string) => {
      const xml = await (await fetch(new URL(`/sitemap/${list}/1`, appUrl), { headers: { "Cache-Control": "no-cache" } })).text();
      return new RegExp(`<loc>${origin}${path}</loc><lastmod>([^<]+)</lastmod>`).exec(xml)?.[1];
    };
    // Backdated as the operator may (a client's own updated_at is ignored, as pgTAP proves).
    for (const [table, id] of [
      ["tracks", release.id],
      ["artist_profiles", harbourLights.id],
    ] as const) {
      expect((await serviceClient.from(table).update({ updated_at: "2020-01-02T00:00:00Z" }).eq("id", id)).error).toBeNull();
    }
    expect(await lastmod("tracks", `/track/${release.id}`)).toBe("2020-01-02");
    expect(await lastmod("artists", `/artist/${harbourLights.id}`)).toBe("2020-01-02");
    expect(
      (await serviceClient.from("tracks").update({ description: "Recorded on the pier, at low tide." }).eq("id", release.id)).error,
    ).toBeNull();
    const today = new Date().toISOString().slice(0, 10);
    expect(await lastmod("tracks", `/track/${release.id}`)).toBe(today);
    expect(await lastmod("artists", `/artist/${harbourLights.id}`)).toBe(today);
  });

  it("answers 404 for a list or a page that is not there", async () => {
    for (const path of ["/sitemap/comments/1", "/sitemap/tracks/0", "/sitemap/tracks/999", "/sitemap/pages/2", "/sitemap/tracks/x"]) {
      expect((await visitor.get(path)).response.status, path).toBe(404);
    }
  });

  it("keeps crawlers out of dashboards, admin, account pages and resource routes, and names the sitemap", async () => {
    const { response, html } = await visitor.get("/robots.txt");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    expect(response.headers.get("cache-control")).toMatch(/^public/);
    // Read as crawlers read it: every address of every route is open to them exactly when the route table says.
    const robots = robotsParser(`${origin}/robots.txt`, html);
    const verdicts = routePatterns()
      .filter((pattern) => pattern !== "/*")
      .flatMap((pattern) => routeAddresses(pattern).map((address) => [address, routeUses[pattern as RoutePattern].crawl] as const));
    expect(verdicts.length).toBeGreaterThan(50);
    for (const [address, crawl] of verdicts) {
      expect([address, robots.isAllowed(`${origin}${address.replaceAll("{id}", "a1b2")}`, "Googlebot")]).toEqual([address, crawl]);
    }
    expect(robots.isAllowed(`${origin}/track/a1b2.data?index`, "Googlebot")).toBe(false);
    expect(robots.getSitemaps()).toEqual([`${origin}/sitemap.xml`]);
  });
});
