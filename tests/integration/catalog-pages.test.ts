// The one-read-per-page functions of the public catalog (home_page, artist_page, fan_page,
// search_artists) against the demo data, as a visitor, a fan and the artist: what each sees is decided
// by the tables' row-level security, because the functions run as the caller.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "@crate/local-supabase";
import { startTestStack } from "@crate/local-supabase/testing";

const demoArtist = "a1000000-0000-4000-8000-000000000012";
const demoFan = "f0000000-0000-4000-8000-000000000001";

let local: LocalStack;
let visitor: SupabaseClient;

beforeAll(async () => {
  local = await startTestStack({ seed: true, seedMedia: false });
  visitor = client();
});

afterAll(async () => {
  await local?.close();
});

function client(): SupabaseClient {
  return createClient(local.url, local.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
}

async function signIn(email: string, password: string) {
  const supabase = client();
  const { error } = await supabase.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return supabase;
}

async function all<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await local.stack.db.query<T>(sql, params)).rows;
}

type Card = { id: string; artist_name: string; follower_count: number; genres: string[] };
type Home = {
  news: { title: string }[];
  featured: { artist: Card; track: { id: string; title: string; release_date: string }; is_following: boolean } | null;
  new_artists: Card[];
  popular_artists: Card[];
  genres: { genre: string; track_count: number; tracks: { id: string; title: string; artist_name: string; release_date: string }[] }[];
};
type ArtistPage = Card & {
  bio: string;
  is_following: boolean;
  latest_followers: { id: string; display_name: string; is_fan: boolean }[];
  upcoming_shows: { date: string; venue: string; city: string }[];
  release_count: number;
  releases: {
    id: string;
    kind: string;
    title: string;
    release_date: string;
    artwork_url: string | null;
    tracks: { id: string; title: string; track_number: number | null; release_date: string }[];
  }[];
};
const tracksOf = (page: ArtistPage) => page.releases.flatMap((release) => release.tracks);

describe("home_page", () => {
  it("returns the active news newest first, the latest release, the newest and most followed artists and every genre", async () => {
    const { data, error } = await visitor.rpc("home_page");
    expect(error).toBeNull();
    const home = data as Home;

    const news = await all<{ title: string }>("select title from news_items where active order by created_at desc");
    expect(home.news.map((item) => item.title)).toEqual(news.map((item) => item.title));

    // Featured: the newest release of an artist of 30 days or more with 5 followers or more.
    const [latest] = await all<{ id: string; artist_id: string }>(
      `select t.id, t.artist_id from tracks t join artist_profiles a on a.id = t.artist_id
       where t.release_date <= current_date and a.created_at <= now() - interval '30 days' and a.follower_count >= 5
       order by t.release_date desc, t.created_at desc limit 1`,
    );
    expect(home.featured?.track.id).toBe(latest.id);
    expect(home.featured?.artist.id).toBe(latest.artist_id);
    expect(home.featured?.is_following).toBe(false);

    const newest = await all<{ id: string }>("select id from artist_profiles order by created_at desc limit 5");
    expect(home.new_artists.map((artist) => artist.id)).toEqual(newest.map((artist) => artist.id));
    const popular = await all<{ id: string }>("select id from artist_profiles order by follower_count desc, artist_name limit 5");
    expect(home.popular_artists.map((artist) => artist.id)).toEqual(popular.map((artist) => artist.id));
    expect(home.popular_artists[0].follower_count).toBeGreaterThanOrEqual(home.popular_artists[4].follower_count);

    const counts = await all<{ genre: string; n: number }>(
      "select genre, count(*)::int as n from tracks where release_date <= current_date group by genre order by n desc, genre",
    );
    expect(home.genres.map((genre) => [genre.genre, genre.track_count])).toEqual(counts.map((row) => [row.genre, row.n]));
    for (const genre of home.genres) {
      expect(genre.tracks.length).toBe(Math.min(5, genre.track_count));
      const dates = genre.tracks.map((track) => track.release_date);
      expect(dates).toEqual([...dates].sort().reverse());
    }
  });

  it("never shows an unreleased track, not even to its artist", async () => {
    const artist = await signIn("artist@example.com", "artist-demo-pass");
    const { data } = await artist.rpc("home_page");
    const titles = (data as Home).genres.flatMap((genre) => genre.tracks.map((track) => track.title));
    expect(titles).not.toContain("Northern Line");
    expect((data as Home).genres.find((genre) => genre.genre === "Indie")?.track_count).toBe(6);
  });
});

describe("artist_page", () => {
  it("returns the profile, latest 5 followers, upcoming shows only and released (or pre-order) tracks newest first to a visitor", async () => {
    const { data, error } = await visitor.rpc("artist_page", { artist_id: demoArtist });
    expect(error).toBeNull();
    const page = data as ArtistPage;
    expect(page.artist_name).toBe("The Paper Lanterns");
    expect(page.is_following).toBe(false);

    const followers = await all<{ fan_id: string }>(
      "select fan_id from followers where artist_id = $1 order by created_at desc, fan_id limit 5",
      [demoArtist],
    );
    expect(page.latest_followers.map((follower) => follower.id)).toEqual(followers.map((follower) => follower.fan_id));
    const [{ n }] = await all<{ n: number }>("select count(*)::int as n from followers where artist_id = $1", [demoArtist]);
    expect(page.follower_count).toBe(n);

    const today = new Date().toISOString().slice(0, 10);
    expect(page.upcoming_shows.length).toBe(3);
    expect(page.upcoming_shows.every((show) => show.date >= today)).toBe(true);
    expect(page.upcoming_shows.map((show) => show.venue)).not.toContain("King Tut's Wah Wah Hut");

    expect(tracksOf(page).map((track) => track.title)).not.toContain("Northern Line");
    // Its six released tracks, and the two of Tidewater, on pre-order.
    expect(tracksOf(page).length).toBe(8);
    const dates = page.releases.map((release) => release.release_date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it("groups the tracks by their release, never by a title: each album's in track order, its artwork its first track's", async () => {
    const page = (await visitor.rpc("artist_page", { artist_id: demoArtist })).data as ArtistPage;
    const stored = await all<{ id: string; release_id: string; title: string; kind: string; artwork: string | null }>(
      `select t.id, t.release_id, r.title, r.kind, coalesce(t.artwork_small_url, t.artwork_url) as artwork
         from public.tracks t join public.releases r on r.id = t.release_id
        where t.artist_id = $1 and (t.release_date <= current_date or r.preorder)
        order by t.track_number nulls last, t.created_at, t.id`,
      [demoArtist],
    );
    for (const release of page.releases) {
      const own = stored.filter((track) => track.release_id === release.id);
      expect(release.tracks.map((track) => track.id)).toEqual(own.map((track) => track.id));
      expect([release.kind, release.title]).toEqual([own[0]!.kind, own[0]!.title]);
      expect(release.artwork_url).toBe(own.find((track) => track.artwork)?.artwork ?? null);
    }
    const album = page.releases.find((release) => release.kind === "album");
    expect(album?.tracks.length).toBeGreaterThan(1);
    const numbers = album!.tracks.map((track) => track.track_number);
    expect(numbers).toEqual([...numbers].sort((a, b) => (a ?? 999) - (b ?? 999)));
  });

  it("shows the artist their own upcoming release, and a follower that they follow", async () => {
    const artist = await signIn("artist@example.com", "artist-demo-pass");
    const own = (await artist.rpc("artist_page", { artist_id: demoArtist })).data as ArtistPage;
    expect(tracksOf(own).map((track) => track.title)).toContain("Northern Line");

    const fan = await signIn("fan@example.com", "fan-demo-pass");
    const followed = (await fan.rpc("artist_page", { artist_id: demoArtist })).data as ArtistPage;
    expect(followed.is_following).toBe(true);
  });

  it("lists the releases a page at a time, newest first, an album never split across pages", async () => {
    const page = async (release_page: number, release_page_size?: number) => {
      const { data, error } = await visitor.rpc("artist_page", { artist_id: demoArtist, release_page, release_page_size });
      expect(error).toBeNull();
      return data as ArtistPage;
    };
    const whole = await page(1);
    const releases = whole.releases.map((release) => release.id);
    expect(whole.release_count).toBe(releases.length);
    // The demo artist has singles and an album of several tracks.
    expect(releases.length).toBeGreaterThan(2);
    expect(releases.length).toBeLessThan(tracksOf(whole).length);

    const paged: string[] = [];
    for (let n = 1; n <= releases.length; n += 1) {
      const one = await page(n, 1);
      expect(one.release_count).toBe(releases.length);
      expect(one.releases.map((release) => release.id)).toEqual([releases[n - 1]]);
      paged.push(...tracksOf(one).map((track) => track.id));
    }
    expect(paged).toEqual(tracksOf(whole).map((track) => track.id));

    const beyond = await page(releases.length + 1, 1);
    expect(beyond.releases).toEqual([]);
    expect(beyond.release_count).toBe(releases.length);
    // Sizes and pages out of range are brought into it: no size is a page of one, no page the first.
    expect((await page(1, 0)).releases.map((release) => release.id)).toEqual([releases[0]]);
    expect((await page(-3)).releases).toEqual(whole.releases);
  });

  it("returns null for an unknown artist and for a fan", async () => {
    expect((await visitor.rpc("artist_page", { artist_id: crypto.randomUUID() })).data).toBeNull();
    expect((await visitor.rpc("artist_page", { artist_id: demoFan })).data).toBeNull();
  });
});

describe("fan_page", () => {
  it("returns the fan and the artists they follow, most recent first", async () => {
    const { data, error } = await visitor.rpc("fan_page", { fan_id: demoFan });
    expect(error).toBeNull();
    const page = data as { username: string; favorite_genres: string[]; following: Card[] };
    expect(page.username).toBe("rileyspins");
    expect(page.favorite_genres).toEqual(["Indie", "Folk", "Electronic"]);
    const follows = await all<{ artist_id: string }>("select artist_id from followers where fan_id = $1 order by created_at desc", [
      demoFan,
    ]);
    expect(page.following.map((artist) => artist.id)).toEqual(follows.map((follow) => follow.artist_id));
  });

  it("returns null for an unknown fan and for an artist", async () => {
    expect((await visitor.rpc("fan_page", { fan_id: crypto.randomUUID() })).data).toBeNull();
    expect((await visitor.rpc("fan_page", { fan_id: demoArtist })).data).toBeNull();
  });
});

describe("artist_directory", () => {
  type Directory = { total: number; artists: { artist_name: string; follower_count: number; track_count: number }[] };
  const directory = async (args: Record<string, unknown>) => {
    const { data, error } = await visitor.rpc("artist_directory", args);
    expect(error).toBeNull();
    return data as Directory;
  };
  const names = async (args: Record<string, unknown>) => (await directory(args)).artists.map((row) => row.artist_name).sort();

  it("matches name, short description and genre case-insensitively, or only name and description", async () => {
    expect(await names({ search: "  lanterns " })).toEqual(["The Paper Lanterns"]);
    expect(await names({ search: "LEIPZIG" })).toEqual(["Lumen Drift"]);
    expect(await names({ search: "hip HOP" })).toEqual(["Ozi Reyes"]);
    expect(await names({ search: "hip hop", include_genres: false })).toEqual([]);
    expect(await names({ search: "%" })).toEqual([]);
    expect(await names({ search: "_" })).toEqual([]);
    expect((await directory({ search: "" })).total).toBe(12);
  });

  it("filters by any chosen genre, sorts most followed or newest first, and cuts pages with the total", async () => {
    expect(await names({ any_genres: ["Jazz", "Metal"] })).toEqual(["Harbor Street Quartet", "Iron Tide"]);
    const everyone = await directory({});
    const counts = everyone.artists.map((row) => row.follower_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    expect(everyone.artists[0]).toMatchObject({ artist_name: "The Paper Lanterns" });
    expect(everyone.artists.every((row) => row.track_count >= 0)).toBe(true);

    const first = await directory({ page_size: 5 });
    const third = await directory({ page_size: 5, page: 3 });
    expect(first).toMatchObject({ total: 12 });
    expect(first.artists).toHaveLength(5);
    expect(third.artists).toHaveLength(2);
    expect(first.artists.map((row) => row.artist_name)).toEqual(everyone.artists.slice(0, 5).map((row) => row.artist_name));
    const newest = await directory({ newest: true, page_size: 1 });
    const [{ name }] = await all<{ name: string }>(
      "select artist_name as name from public.artist_profiles order by created_at desc limit 1",
    );
    expect(newest.artists[0]?.artist_name).toBe(name);
  });
});

describe("studio_catalog", () => {
  type StudioCatalog = {
    track_count: number;
    tracks: { id: string; release: { kind: string }; plays: number; upcoming: boolean }[];
    merch: unknown[];
  };

  it("gives the artist every track of theirs, upcoming ones too, with each one's plays, a page at a time", async () => {
    const artist = await signIn("artist@example.com", "artist-demo-pass");
    const { data, error } = await artist.rpc("studio_catalog", { kind: "all", page: 1, page_size: 50 });
    expect(error).toBeNull();
    const catalog = data as StudioCatalog;
    const [{ tracks, plays }] = await all<{ tracks: number; plays: number }>(
      `select count(*)::int as tracks,
         (select count(*)::int from public.analytics_events e where e.artist_id = $1 and e.type = 'play') as plays
       from public.tracks where artist_id = $1`,
      [demoArtist],
    );
    expect(catalog.track_count).toBe(tracks);
    expect(catalog.tracks.some((track) => track.upcoming)).toBe(true);
    expect(catalog.tracks.reduce((sum, track) => sum + track.plays, 0)).toBe(plays);
    expect(catalog.merch.length).toBeGreaterThan(0);

    const albums = (await artist.rpc("studio_catalog", { kind: "album" })).data as StudioCatalog;
    expect(albums.tracks.length).toBeGreaterThan(0);
    expect(albums.tracks.every((track) => track.release.kind === "album")).toBe(true);
    const secondPage = (await artist.rpc("studio_catalog", { kind: "all", page: 2, page_size: 2 })).data as StudioCatalog;
    expect(secondPage.tracks.map((track) => track.id)).toEqual(catalog.tracks.slice(2, 4).map((track) => track.id));
  });

  it("gives another artist their own catalogue only, a fan nothing, and a visitor no access", async () => {
    const other = await signIn("lumendrift@example.com", "demo-pass");
    const theirs = (await other.rpc("studio_catalog", {})).data as StudioCatalog;
    const ids = (await all<{ id: string }>("select id from public.tracks where artist_id = $1", [demoArtist])).map((row) => row.id);
    expect(theirs.tracks.length).toBeGreaterThan(0);
    expect(theirs.tracks.some((track) => ids.includes(track.id))).toBe(false);

    const fan = await signIn("fan@example.com", "fan-demo-pass");
    expect((await fan.rpc("studio_catalog", {})).data).toEqual({
      currency: "USD",
      track_count: 0,
      tracks: [],
      release_sales: {},
      merch: [],
    });

    const { error } = await visitor.rpc("studio_catalog", {});
    expect(error?.code).toBe("42501");
  });
});

describe("artist_page merch", () => {
  it("lists the artist's merchandise for everyone", async () => {
    const { data } = await visitor.rpc("artist_page", { artist_id: demoArtist });
    const merch = (data as { merch: { title: string; price: number }[] }).merch;
    const [{ count }] = await all<{ count: number }>("select count(*)::int from public.merch where artist_id = $1", [demoArtist]);
    expect(merch).toHaveLength(Math.min(count, 24));
    expect(merch[0]).toMatchObject({ title: expect.any(String), price: expect.any(Number) });
  });
});
