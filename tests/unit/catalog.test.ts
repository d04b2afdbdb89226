import { describe, expect, it } from "vitest";
import { groupReleases, safeHttpUrl, socialProfile } from "~/lib/catalog/artist-profile";
import { containsPattern, countOf, isUuid } from "~/lib/catalog/catalog";
import type { ReleaseTrack } from "~/lib/schemas/catalog-data";
import { roundTripCounter } from "~/lib/backend/round-trips.server";

const track = (title: string, fields: Partial<ReleaseTrack> = {}): ReleaseTrack => ({
  id: title.toLowerCase().replaceAll(" ", "-"),
  release_id: `single-${title.toLowerCase().replaceAll(" ", "-")}`,
  title,
  type: "single",
  album_title: null,
  track_number: null,
  genre: "Indie",
  price: 1.29,
  artwork_url: null,
  artwork_small_url: null,
  release_date: "2026-01-01",
  upcoming: false,
  duration_seconds: null,
  ...fields,
});

describe("groupReleases", () => {
  it("gathers an album's tracks into one release in track order, keeps singles apart, in the order given", () => {
    const album = { type: "album", release_id: "satellites", album_title: "Satellites", release_date: "2026-06-01" } as const;
    const releases = groupReleases([
      track("Kites", { release_date: "2026-11-01" }),
      track("Harbour Wall", { ...album, track_number: 3, artwork_url: "a.png" }),
      track("Satellite Town", { ...album, track_number: 1 }),
      track("Greenhouse", { release_date: "2026-05-01" }),
      track("Bicycle Bell", { ...album, track_number: 2 }),
    ]);
    expect(releases.map((release) => [release.kind, release.title, release.tracks.map((t) => t.title)])).toEqual([
      ["single", "Kites", ["Kites"]],
      ["album", "Satellites", ["Satellite Town", "Bicycle Bell", "Harbour Wall"]],
      ["single", "Greenhouse", ["Greenhouse"]],
    ]);
    expect(releases[1]!.artworkUrl).toBe("a.png");
    expect(releases[1]!.id).toBe("satellites");
  });

  it("shows a release's small artwork rendition where there is one, else the original", () => {
    const [withSmall, without] = groupReleases([
      track("Kites", { artwork_url: "kites.png", artwork_small_url: "small/kites.webp" }),
      track("Greenhouse", { artwork_url: "greenhouse.png" }),
    ]);
    expect([withSmall!.artworkUrl, without!.artworkUrl]).toEqual(["small/kites.webp", "greenhouse.png"]);
  });

  it("groups by release, never by title: two albums of one title are two releases", () => {
    const releases = groupReleases([
      track("Live One", { type: "album", release_id: "live-2024", album_title: "Live", track_number: 1 }),
      track("Live Two", { type: "album", release_id: "live-2025", album_title: "Live", track_number: 1 }),
    ]);
    expect(releases.map((release) => [release.id, release.title, release.tracks.length])).toEqual([
      ["live-2024", "Live", 1],
      ["live-2025", "Live", 1],
    ]);
  });
});

describe("links on public pages", () => {
  it("renders only http(s) addresses as links", () => {
    expect(safeHttpUrl("https://band.example")).toBe("https://band.example/");
    expect(safeHttpUrl("http://band.example/tour")).toBe("http://band.example/tour");
    for (const unsafe of ["javascript:alert(1)", "data:text/html,hi", "ftp://band.example", "band.example", "", null, undefined]) {
      expect(safeHttpUrl(unsafe)).toBeNull();
    }
  });

  it("shows social links as @handle, from a handle or a profile URL on that network only", () => {
    expect(socialProfile("twitter", "paperlanterns")).toEqual({
      label: "Twitter",
      handle: "@paperlanterns",
      href: "https://twitter.com/paperlanterns",
    });
    expect(socialProfile("twitter", "@paperlanterns")?.handle).toBe("@paperlanterns");
    expect(socialProfile("twitter", "https://x.com/paperlanterns/")?.handle).toBe("@paperlanterns");
    expect(socialProfile("instagram", "https://www.instagram.com/the.lanterns")?.href).toBe("https://instagram.com/the.lanterns");
    expect(socialProfile("instagram", "https://evil.example/the.lanterns")).toBeNull();
    expect(socialProfile("twitter", "javascript:alert(1)")).toBeNull();
    expect(socialProfile("twitter", "two words")).toBeNull();
    expect(socialProfile("twitter", null)).toBeNull();
  });
});

describe("small rules", () => {
  it("counts with the right plural", () => {
    expect(countOf(1, "follower")).toBe("1 follower");
    expect(countOf(0, "follower")).toBe("0 followers");
    expect(countOf(1200, "track")).toBe("1,200 tracks");
  });

  it("accepts only UUIDs as page ids", () => {
    expect(isUuid("a1000000-0000-4000-8000-000000000012")).toBe(true);
    expect(isUuid("not-an-id")).toBe(false);
    expect(isUuid(undefined)).toBe(false);
  });

  it("makes a search term a literal pattern", () => {
    expect(containsPattern("lan")).toBe("%lan%");
    expect(containsPattern("100%_\\")).toBe("%100\\%\\_\\\\%");
  });
});

describe("roundTripCounter", () => {
  it("counts requests in flight together as one round trip, and the ones after as another", async () => {
    const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response("ok")), 5));
    const backend = roundTripCounter(slow as typeof fetch);
    await Promise.all([backend.fetch("a"), backend.fetch("b"), backend.fetch("c")]);
    expect(backend.roundTrips).toBe(1);
    await backend.fetch("d");
    expect(backend.roundTrips).toBe(2);
    expect(backend.serverTiming()).toMatch(/^backend;dur=[\d.]+;desc="2 round trips, 4 requests"$/);
  });
});
