// The demo data a fresh local stack starts with: enough of everything for every screen, real media
// behind every track, and the demo accounts the README lists.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import jpeg from "jpeg-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "@crate/local-supabase";
import { startTestStack } from "@crate/local-supabase/testing";

const genres = ["Rock", "Pop", "Hip Hop", "Electronic", "Jazz", "Classical", "R&B", "Folk", "Metal", "Country", "Blues", "Indie"];
const demoArtist = "a1000000-0000-4000-8000-000000000012"; // The Paper Lanterns
const demoAccounts = {
  admin: { email: "admin@example.com", password: "admin-demo-pass" },
  artist: { email: "artist@example.com", password: "artist-demo-pass" },
  fan: { email: "fan@example.com", password: "fan-demo-pass" },
};

let local: LocalStack;
let service: SupabaseClient;

beforeAll(async () => {
  local = await startTestStack();
  service = client(local.serviceRoleKey);
});

afterAll(async () => {
  await local?.close();
});

function client(key: string): SupabaseClient {
  return createClient(local.url, key, { auth: { persistSession: false, autoRefreshToken: false } });
}

async function one<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T> {
  return (await local.stack.db.query<T>(sql, params)).rows[0];
}

async function all<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await local.stack.db.query<T>(sql, params)).rows;
}

async function signIn(account: { email: string; password: string }) {
  const supabase = client(local.anonKey);
  const { data, error } = await supabase.auth.signInWithPassword(account);
  expect(error).toBeNull();
  return { supabase, user: data.user! };
}

describe("catalogue", () => {
  it("has at least 12 artists covering all 12 genres, each with a full public profile", async () => {
    const artists = await all<{
      genres: string[];
      bio: string;
      short_description: string;
      website: string;
      social_links: { twitter?: string; instagram?: string };
      past: number;
      upcoming: number;
      profile_image_url: string | null;
    }>(
      `select genres, bio, short_description, website, social_links, profile_image_url,
         (select count(*)::int from jsonb_array_elements(tour_dates) s where (s ->> 'date')::date < current_date) as past,
         (select count(*)::int from jsonb_array_elements(tour_dates) s where (s ->> 'date')::date >= current_date) as upcoming
       from public.artist_profiles`,
    );
    expect(artists.length).toBeGreaterThanOrEqual(12);
    expect(new Set(artists.flatMap((a) => a.genres))).toEqual(new Set(genres));
    for (const artist of artists) {
      expect(artist.bio.length).toBeGreaterThan(100);
      expect(artist.short_description.length).toBeGreaterThan(20);
      expect(artist.website).toMatch(/^https:\/\/\S+\.example$/);
      expect(artist.social_links).toEqual({ twitter: expect.any(String), instagram: expect.any(String) });
      expect(artist.upcoming).toBeGreaterThan(0);
      expect(artist.profile_image_url).toMatch(/\/storage\/v1\/object\/public\/artwork\/.+\.jpeg$/);
    }
    expect(artists.some((a) => a.past > 0)).toBe(true);
  });

  it("has at least 40 tracks: albums numbered, singles, every genre, a subgenre, price and release date each", async () => {
    const tracks = await all<{
      kind: string;
      release_id: string;
      track_number: number | null;
      genre: string;
      subgenre: string | null;
      label: string | null;
      price: string;
      release_date: string;
    }>(
      `select r.kind, t.release_id, t.track_number, t.genre, t.subgenre, t.label, t.price, t.release_date
       from public.tracks t join public.releases r on r.id = t.release_id`,
    );
    expect(tracks.length).toBeGreaterThanOrEqual(40);
    expect(new Set(tracks.map((t) => t.genre))).toEqual(new Set(genres));
    const albums = tracks.filter((t) => t.kind === "album");
    const singles = tracks.filter((t) => t.kind === "single");
    expect(albums.length).toBeGreaterThanOrEqual(12);
    expect(singles.length).toBeGreaterThanOrEqual(12);
    for (const track of albums) expect(track.track_number).toBeGreaterThan(0);
    // Each album is one release, some with a price of their own; every single is a release of its own.
    const releases = await all<{ kind: string; tracks: number; priced: boolean }>(
      `select r.kind, count(t.id)::int as tracks, r.price is not null as priced
       from public.releases r join public.tracks t on t.release_id = r.id group by r.id`,
    );
    expect(releases.filter((r) => r.kind === "album").length).toBe(new Set(albums.map((t) => t.release_id)).size);
    expect(releases.filter((r) => r.kind === "single").every((r) => r.tracks === 1)).toBe(true);
    expect(releases.filter((r) => r.kind === "single").length).toBe(singles.length);
    expect(releases.some((r) => r.kind === "album" && r.priced)).toBe(true);
    expect(tracks.every((t) => t.subgenre && Number(t.price) >= 0.99 && Number(t.price) <= 1.99)).toBe(true);
    expect(tracks.some((t) => t.label)).toBe(true);
    expect(tracks.some((t) => t.label === null)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    expect(tracks.some((t) => t.release_date > today)).toBe(true);
  });

  it("has merchandise with pictures", async () => {
    const merch = await one<{ count: number; pictures: number }>(
      "select count(*)::int as count, count(image_url)::int as pictures from public.merch",
    );
    expect(merch.count).toBeGreaterThanOrEqual(5);
    expect(merch.pictures).toBe(merch.count);
  });

  it("has 3 active and 2 inactive news items", async () => {
    const news = await all<{ active: boolean; count: number }>(
      "select active, count(*)::int as count from public.news_items group by active order by active",
    );
    expect(news).toEqual([
      { active: false, count: 2 },
      { active: true, count: 3 },
    ]);
  });
});

describe("fans and activity", () => {
  it("has at least 8 fans who follow artists, with follower counts that match", async () => {
    const fans = await one<{ count: number; following: number }>(
      `select count(*)::int as count,
         count(*) filter (where exists (select 1 from public.followers f where f.fan_id = p.id))::int as following
       from public.fan_profiles p`,
    );
    expect(fans.count).toBeGreaterThanOrEqual(8);
    expect(fans.following).toBe(fans.count);
    const mismatched = await all(
      `select id from public.artist_profiles a
       where follower_count <> (select count(*) from public.followers f where f.artist_id = a.id)`,
    );
    expect(mismatched).toEqual([]);
  });

  it("spreads plays over the last 60 days (the demo artist's back to their first release), never before a release", async () => {
    const plays = await one<{ count: number; oldest_days: number; newest_days: number; early: number; weeks: number }>(
      `select count(*)::int as count,
         (extract(epoch from now() - min(e.created_at)) / 86400)::float8 as oldest_days,
         (extract(epoch from now() - max(e.created_at)) / 86400)::float8 as newest_days,
         count(*) filter (where e.created_at < t.release_date)::int as early,
         count(distinct date_trunc('week', e.created_at))::int as weeks
       from public.analytics_events e join public.tracks t on t.id = e.track_id
       where e.type = 'play' and e.artist_id <> '${demoArtist}'`,
    );
    expect(plays.count).toBeGreaterThan(500);
    expect(plays.oldest_days).toBeGreaterThan(50);
    expect(plays.oldest_days).toBeLessThanOrEqual(60);
    expect(plays.newest_days).toBeLessThan(1);
    expect(plays.early).toBe(0);
    expect(plays.weeks).toBeGreaterThanOrEqual(8);

    // The demo artist's analytics differ with each period: plays and sales reach back past 90 days.
    const demo = await one<{ oldest_days: number; early: number; old_sales: number }>(
      `select (extract(epoch from now() - min(e.created_at)) / 86400)::float8 as oldest_days,
         count(*) filter (where e.created_at < t.release_date)::int as early,
         (select count(*)::int from public.purchases p
          where p.artist_id = '${demoArtist}' and p.created_at < now() - interval '90 days') as old_sales
       from public.analytics_events e join public.tracks t on t.id = e.track_id
       where e.type = 'play' and e.artist_id = '${demoArtist}'`,
    );
    expect(demo.oldest_days).toBeGreaterThan(120);
    expect(demo.early).toBe(0);
    expect(demo.old_sales).toBeGreaterThan(0);
  });

  it("locates plays and sales in countries, a few unknown, as Cloudflare would", async () => {
    const located = await one<{ countries: number; unknown: number; known: number }>(
      `select count(distinct e.country)::int as countries, count(*) filter (where e.country is null)::int as unknown,
         count(*) filter (where e.country is not null)::int as known
       from public.analytics_events e`,
    );
    expect(located.countries).toBeGreaterThanOrEqual(10);
    expect(located.unknown).toBeGreaterThan(0);
    expect(located.unknown).toBeLessThan(located.known / 5);
    // The rollups agree with the events they were kept from.
    const rolled = await one<{ events: number; rollup: number }>(
      `select (select count(*)::int from public.analytics_events where type = 'play') as events,
         (select sum(plays)::int from public.track_daily_stats) as rollup`,
    );
    expect(rolled.rollup).toBe(rolled.events);
  });

  it("has purchases, each with its download, and comments", async () => {
    const counts = await one<{ purchases: number; downloads: number; comments: number }>(
      `select (select count(*)::int from public.purchases) as purchases,
         (select count(*)::int from public.analytics_events where type = 'download') as downloads,
         (select count(*)::int from public.comments) as comments`,
    );
    expect(counts.purchases).toBeGreaterThanOrEqual(30);
    expect(counts.downloads).toBe(counts.purchases);
    expect(counts.comments).toBeGreaterThanOrEqual(20);
  });

  it("has store settings and analytics for every artist, consistent with the sales", async () => {
    const rows = await all<{ settings: number; revenue: { total: number; history: unknown[] }; sold: string }>(
      `select (select count(*)::int from public.store_settings s where s.artist_id = a.id) as settings,
         an.revenue, (select coalesce(sum(amount), 0) from public.purchases p where p.artist_id = a.id) as sold
       from public.artist_profiles a join public.analytics an on an.artist_id = a.id`,
    );
    expect(rows.length).toBe((await one<{ count: number }>("select count(*)::int as count from public.artist_profiles")).count);
    for (const row of rows) {
      expect(row.settings).toBe(1);
      expect(row.revenue.total).toBeCloseTo(Number(row.sold), 2);
      expect(row.revenue.history).toHaveLength(8);
    }
  });
});

describe("media", () => {
  it("gives every track an audio file, artwork, peaks and a 20-40 s duration", async () => {
    const tracks = await all<{ file_url: string; artwork_url: string; peaks: number[]; duration_seconds: string; artist_id: string }>(
      "select file_url, artwork_url, peaks, duration_seconds, artist_id from public.tracks",
    );
    for (const track of tracks) {
      expect(track.file_url).toMatch(new RegExp(`^${track.artist_id}/\\d+-[0-9a-f]+\\.wav$`));
      expect(track.artwork_url).toMatch(new RegExp(`^${local.url}/storage/v1/object/public/artwork/${track.artist_id}/.+\\.jpeg$`));
      expect(track.peaks.length).toBeGreaterThanOrEqual(200);
      expect(Math.max(...track.peaks)).toBe(1);
      expect(Number(track.duration_seconds)).toBeGreaterThanOrEqual(20);
      expect(Number(track.duration_seconds)).toBeLessThanOrEqual(40);
    }
    // An album shares one cover.
    const covers = await all<{ covers: number }>(
      `select count(distinct artwork_url)::int as covers from public.tracks t join public.releases r on r.id = t.release_id where r.kind = 'album' group by t.release_id`,
    );
    expect(covers.every((album) => album.covers === 1)).toBe(true);
  });

  it("stores each picture's size beside it, as its bytes tell it", async () => {
    const pictures = await all<{ url: string; width: number | null; height: number | null }>(
      `select artwork_url as url, artwork_width as width, artwork_height as height from public.tracks
       union all
       select profile_image_url, profile_image_width, profile_image_height from public.artist_profiles`,
    );
    expect(pictures.every((picture) => picture.url && picture.width === 400 && picture.height === 400)).toBe(true);
    const cover = jpeg.decode(new Uint8Array(await (await fetch(pictures[0]!.url)).arrayBuffer()));
    expect([cover.width, cover.height]).toEqual([400, 400]);
  });

  it("serves a seeded track as a playable WAV through a signed URL", async () => {
    const track = await one<{ file_url: string; duration_seconds: string }>(
      `select file_url, duration_seconds from public.tracks where title = 'Satellite Town'`,
    );
    const { data, error } = await service.storage.from("tracks").createSignedUrl(track.file_url, 3600);
    expect(error).toBeNull();
    const response = await fetch(data!.signedUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/wav");
    const wav = new Uint8Array(await response.arrayBuffer());
    const view = new DataView(wav.buffer);
    expect(String.fromCharCode(...wav.subarray(0, 4))).toBe("RIFF");
    expect(String.fromCharCode(...wav.subarray(8, 12))).toBe("WAVE");
    const seconds = view.getUint32(40, true) / view.getUint32(28, true);
    expect(seconds).toBeCloseTo(Number(track.duration_seconds), 1);
  });

  it("serves artwork at its public URL as a JPEG", async () => {
    const { artwork_url } = await one<{ artwork_url: string }>("select artwork_url from public.tracks limit 1");
    const response = await fetch(artwork_url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect([...new Uint8Array(await response.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  it("gives some fans a picture and leaves others to the fallback", async () => {
    const fans = await one<{ pictures: number; without: number }>(
      `select count(profile_image_url)::int as pictures, count(*) filter (where profile_image_url is null)::int as without
       from public.fan_profiles`,
    );
    expect(fans.pictures).toBeGreaterThan(0);
    expect(fans.without).toBeGreaterThan(0);
  });
});

describe("demo accounts", () => {
  it("signs the admin in, with the admin role in app_metadata", async () => {
    const { supabase, user } = await signIn(demoAccounts.admin);
    expect(user.app_metadata.role).toBe("admin");
    const { data } = await supabase.rpc("is_admin");
    expect(data).toBe(true);
  });

  it("signs the demo artist in to a dashboard with tracks, followers, plays, sales and comments", async () => {
    const { supabase, user } = await signIn(demoAccounts.artist);
    expect(user.user_metadata.role).toBe("artist");
    const count = async (table: string, filter: Record<string, string> = {}) => {
      const { count, error } = await supabase
        .from(table)
        .select("*", { count: "exact", head: true })
        .match({ artist_id: user.id, ...filter });
      expect(error).toBeNull();
      return count ?? 0;
    };
    expect(await count("tracks")).toBeGreaterThanOrEqual(5);
    expect(await count("followers")).toBeGreaterThanOrEqual(8);
    expect(await count("analytics_events", { type: "play" })).toBeGreaterThan(100);
    expect(await count("purchases")).toBeGreaterThan(5);
    expect(await count("comments")).toBeGreaterThan(5);
    const { data: analytics } = await supabase.from("analytics").select("revenue, top_tracks").eq("artist_id", user.id).single();
    expect(analytics?.revenue.total).toBeGreaterThan(0);
    expect(analytics?.top_tracks.length).toBeGreaterThan(0);
    // The upcoming single is the artist's own to see, not yet the public's.
    const { data: upcoming } = await supabase.from("tracks").select("id").eq("title", "Northern Line");
    expect(upcoming).toHaveLength(1);
    const { data: hidden } = await client(local.anonKey).from("tracks").select("id").eq("title", "Northern Line");
    expect(hidden).toEqual([]);
    // The next album is on pre-order: listed to everyone, its opener an instant download.
    const { data: preorder } = await client(local.anonKey)
      .from("tracks")
      .select("title, instant, release:releases(title, preorder)")
      .in("title", ["Low Tide Lanterns", "Ferry Timetable"])
      .order("track_number");
    expect(preorder).toEqual([
      { title: "Low Tide Lanterns", instant: true, release: { title: "Tidewater", preorder: true } },
      { title: "Ferry Timetable", instant: false, release: { title: "Tidewater", preorder: true } },
    ]);
  });

  it("signs the demo fan in to follows, purchases and plays of the last 30 days", async () => {
    const { supabase, user } = await signIn(demoAccounts.fan);
    expect(user.user_metadata.role).toBe("fan");
    const since = new Date(Date.now() - 30 * 86400_000).toISOString();
    const [follows, purchases, plays] = await Promise.all([
      supabase.from("followers").select("*", { count: "exact", head: true }).eq("fan_id", user.id),
      supabase.from("purchases").select("*", { count: "exact", head: true }).eq("user_id", user.id),
      supabase
        .from("analytics_events")
        .select("*", { count: "exact", head: true })
        .eq("user_id", user.id)
        .eq("type", "play")
        .gte("created_at", since),
    ]);
    expect(follows.count).toBeGreaterThanOrEqual(3);
    expect(purchases.count).toBeGreaterThanOrEqual(3);
    expect(plays.count).toBeGreaterThanOrEqual(10);
  });

  it("refuses a wrong password", async () => {
    const { error } = await client(local.anonKey).auth.signInWithPassword({ ...demoAccounts.fan, password: "wrong-password" });
    expect(error?.message).toBe("Invalid login credentials");
  });
});
