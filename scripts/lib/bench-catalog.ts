// Data for the catalog scale bench (`npm run bench:backend -- --catalog`): the public pages at 100× the
// demo data, on PostgreSQL: 10,000 artists (two genres each), 100,000 tracks, 100,000 fans making
// 1,000,000 follows (a few artists very popular, most barely followed), 400,000 purchases (four a fan, the
// popular tracks most) and 5,000,000 plays over a year; the bench's fan also likes 50 tracks and played 200
// (what recommendations read).
// Written in bulk SQL as the operator. The follower count and play rollup triggers are set aside for the
// bulk inserts, and the counts and rollups written once afterwards.
import type { Db } from "@crate/local-supabase";

const genres = ["Rock", "Pop", "Hip Hop", "Electronic", "Jazz", "Classical", "R&B", "Folk", "Metal", "Country", "Blues", "Indie"];

export type CatalogScale = {
  popularArtist: string;
  prolificArtist: string;
  popularTrack: string;
  /** The most bought track's release, for "fans who bought this also bought". */
  boughtRelease: string;
  fan: string;
  seconds: number;
};

export async function seedCatalogScale(db: Db, log: (line: string) => void): Promise<CatalogScale> {
  const started = performance.now();
  // A statement, or several run one after another.
  const step = async (what: string, sql: string | string[], params: unknown[] = []) => {
    const t = performance.now();
    for (const statement of ([] as string[]).concat(sql)) await db.query(statement, params);
    log(`  ${what}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  await step(
    "10,000 artists",
    `insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at, created_at)
     select 'scale-artist-' || n || '@bench.test',
       jsonb_build_object('role', 'artist', 'artist_name', 'Scale Artist ' || n, 'paypal_email', 'pay@bench.test',
         'genres', jsonb_build_array(($1::text[])[1 + n % 12], ($1::text[])[1 + (n * 7 + 3) % 12])),
       '{"provider": "email", "providers": ["email"]}', now(), now() - n * interval '1 hour'
     from generate_series(1, 10000) n`,
    [genres],
  );
  await step(
    "100,000 fans",
    `insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
     select 'scale-fan-' || n || '@bench.test', jsonb_build_object('role', 'fan', 'username', 'scalefan' || n),
       '{"provider": "email", "providers": ["email"]}', now()
     from generate_series(1, 100000) n`,
  );
  await step("numbering them", [
    `create table bench_artists as
         select row_number() over (order by created_at desc, id) as n, id from public.artist_profiles where artist_name like 'Scale Artist %'`,
    "create unique index on bench_artists (n)",
    `create table bench_fans as
         select row_number() over (order by id) as n, id from public.fan_profiles where username like 'scalefan%'`,
    "create unique index on bench_fans (n)",
  ]);
  // Each artist's tracks are in their two genres (7 and 3), so a genre has about 1,700 artists. One track
  // in a hundred is a scheduled release, which the genre figures must leave out until its day.
  await step(
    "100,000 tracks (1,000 scheduled)",
    `insert into public.tracks (artist_id, title, genre, price, description, release_date, file_url)
     select a.id, 'Scale Track ' || a.n || '.' || k, case when k <= 7 then p.genres[1] else p.genres[2] end, 1.29, 'A bench track',
       case when (a.n + k) % 100 = 0 then current_date + 1 + (a.n % 60)::int
         else current_date - 1 - ((a.n * 31 + k * 7) % 700)::int end,
       a.id || '/audio.mp3'
     from bench_artists a join public.artist_profiles p on p.id = a.id, generate_series(1, 10) k`,
  );
  // One prolific artist: 100 albums of 10 tracks and 1,000 singles. Their page lists 24 releases of them.
  // (each album a release; each single gets its own as it is written)
  await step("a prolific artist's 2,000 tracks", [
    `insert into public.releases (artist_id, kind, title)
     select a.id, 'album', 'Prolific Album ' || k from bench_artists a, generate_series(1, 100) k where a.n = 2`,
    `insert into public.tracks (release_id, artist_id, title, track_number, genre, price, description, release_date, file_url)
     select r.id, a.id, 'Prolific Track ' || k,
       case when k <= 1000 then 1 + (k - 1) % 10 end,
       p.genres[1], 1.29, 'A bench track',
       current_date - 1 - (case when k <= 1000 then (k - 1) / 10 else k end % 700), a.id || '/audio.mp3'
     from generate_series(1, 2000) k
       cross join bench_artists a
       join public.artist_profiles p on p.id = a.id
       left join public.releases r on r.artist_id = a.id and k <= 1000 and r.title = 'Prolific Album ' || (1 + (k - 1) / 10)
     where a.n = 2`,
  ]);
  await step("1,000,000 follows", [
    "alter table public.followers disable trigger user",
    `insert into public.followers (artist_id, fan_id)
         select a.id, f.id
         from bench_fans f, generate_series(1, 10) k,
           lateral (select 1 + floor(10000 * power(((f.n * 7919 + k * 104729) % 100003) / 100003.0, 3))::int as n) pick
           join bench_artists a on a.n = pick.n
         on conflict do nothing`,
    "alter table public.followers enable trigger user",
    `update public.artist_profiles p set follower_count = c.n
         from (select artist_id, count(*)::int as n from public.followers group by artist_id) c where c.artist_id = p.id`,
  ]);
  await step("numbering the tracks", [
    `create table bench_tracks as
         select row_number() over (order by t.id) as n, t.id, t.artist_id from public.tracks t join bench_artists a on a.id = t.artist_id`,
    "create unique index on bench_tracks (n)",
  ]);
  // The rollup triggers are set aside for the bulk load (grouping a million plays per statement into
  // track-days is their worst case) and the rollups written once from the events afterwards.
  // Purchases as the recommendations read them (who bought what); the ledger is the analytics bench's.
  await step(
    "400,000 purchases",
    `insert into public.purchases (amount, track_id, user_id, created_at)
     select 1.29, t.id, f.id, now() - ((f.n * 31 + k) % 365) * interval '1 day'
     from bench_fans f, generate_series(1, 4) k,
       lateral (select 1 + floor(100000 * power(((f.n * 7919 + k * 104729) % 100003) / 100003.0, 2))::int as n) pick
       join bench_tracks t on t.n = pick.n`,
  );
  await step("the bench fan's 50 likes and 200 plays", [
    `insert into public.likes (user_id, track_id)
     select f.id, t.id from bench_fans f join bench_tracks t on t.n between 1000 and 1049 where f.n = 1`,
    `insert into public.analytics_events (type, track_id, artist_id, user_id, created_at)
     select 'play', t.id, t.artist_id, f.id, now() - k * interval '1 hour'
     from bench_fans f, generate_series(1, 200) k join bench_tracks t on t.n = 1 + (k * 37) % 5000 where f.n = 1`,
  ]);
  await step("disabling the rollup triggers", "alter table public.analytics_events disable trigger user");
  for (let batch = 0; batch < 5; batch++) {
    await step(
      `plays ${batch + 1},000,000`,
      `insert into public.analytics_events (type, track_id, artist_id, country, created_at)
       select 'play', t.id, t.artist_id, 'US', now() - ((i * 104729) % (365 * 86400)) * interval '1 second'
       from generate_series($1::bigint * 1000000 + 1, ($1::bigint + 1) * 1000000) i
       join bench_tracks t on t.n = 1 + floor(100000 * power(((i * 7919) % 1000003) / 1000003.0, 2))::int`,
      [batch],
    );
  }
  await step("rolling the plays up", [
    "alter table public.analytics_events enable trigger user",
    `insert into public.track_daily_stats as s (artist_id, day, track_id, plays)
       select e.artist_id, (e.created_at at time zone 'UTC')::date, e.track_id, count(*)
       from public.analytics_events e join bench_tracks t on t.id = e.track_id
       group by 1, 2, 3
       on conflict (artist_id, day, track_id) do update set plays = s.plays + excluded.plays`,
    `insert into public.country_daily_stats as s (artist_id, day, country, plays)
       select e.artist_id, (e.created_at at time zone 'UTC')::date, 'US', count(*)
       from public.analytics_events e join bench_tracks t on t.id = e.track_id
       group by 1, 2
       on conflict (artist_id, day, country) do update set plays = s.plays + excluded.plays`,
  ]);
  // as autovacuum would after such a load: index-only scans need the visibility map
  await step("vacuum analyze", "vacuum analyze");
  const popular = await db.query<{ id: string }>("select id from public.artist_profiles order by follower_count desc limit 1");
  const track = await db.query<{ id: string }>(
    `select e.track_id as id from public.analytics_events e join public.tracks t on t.id = e.track_id
     where e.type = 'play' and t.release_date <= current_date group by e.track_id order by count(*) desc limit 1`,
  );
  const fan = await db.query<{ id: string }>("select id from bench_fans where n = 1");
  const bought = await db.query<{ id: string }>(
    "select t.release_id as id from public.purchases p join public.tracks t on t.id = p.track_id group by t.release_id order by count(*) desc limit 1",
  );
  // The most bought release's purchases as paid orders, one line each, for its "supported by" (its buyers
  // are the page's worst case; the other purchases stand for sales no page reads by order).
  await step(
    "the most bought release's paid orders",
    [
      `insert into public.orders (id, buyer_id, buyer_email, currency, total_cents, state, paid_at, created_at)
     select p.id, p.user_id, 'scale-fan@bench.test', 'USD', 129, 'paid', p.created_at, p.created_at
     from public.purchases p join public.tracks t on t.id = p.track_id where t.release_id = $1`,
      `insert into public.order_lines (order_id, artist_id, kind, item_id, title, amount_cents, total_cents, artist_share_cents, crate_cents)
     select p.id, t.artist_id, 'track', t.id, t.title, 129, 129, 114, 15
     from public.purchases p join public.tracks t on t.id = p.track_id where t.release_id = $1`,
    ],
    [bought.rows[0]!.id],
  );
  await step("analyze the orders", "analyze public.orders, public.order_lines");
  const prolific = await db.query<{ id: string }>("select id from bench_artists where n = 2");
  await db.query("drop table bench_artists, bench_fans, bench_tracks");
  return {
    popularArtist: popular.rows[0]!.id,
    popularTrack: track.rows[0]!.id,
    prolificArtist: prolific.rows[0]!.id,
    fan: fan.rows[0]!.id,
    boughtRelease: bought.rows[0]!.id,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The tables a public page must never read whole at this scale. */
export const largeTables = [
  "tracks",
  "artist_profiles",
  "fan_profiles",
  "followers",
  "analytics_events",
  "purchases",
  "track_daily_stats",
  "comments",
  "artist_genre_tracks",
];
