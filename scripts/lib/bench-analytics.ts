// Data for the analytics scale bench (`npm run bench:backend`): 1,000 artists on PostgreSQL, one of them
// big (1,000,000 plays and 100,000 purchases with their downloads over two years, on 50 tracks, from 20
// countries), 997 with a few hundred events each, and one small artist with 100 events. Written in bulk
// SQL as the operator, so the database's own triggers keep the rollups as they would for real traffic.
import type { Db } from "@crate/local-supabase";
import { signJwt, createUser } from "@crate/local-supabase/testing";
import { recordPaidSales } from "./paid-sales.ts";

export type AnalyticsArtist = { id: string; token: string; label: string };

const countries = ["US", "GB", "DE", "FR", "CA", "AU", "NL", "SE", "JP", "BR", "IE", "MX", "ES", "IT", "PL", "NO", "DK", "FI", "NZ", "ZA"];

async function artist(db: Db, name: string, jwtSecret: string): Promise<{ id: string; token: string }> {
  const {
    id,
    claims: { session_id: _session, ...claims },
  } = await createUser(db, { role: "artist", artist_name: name, paypal_email: "pay@example.test", genres: ["Rock"] });
  return { id, token: signJwt(claims, jwtSecret) };
}

/** `count` tracks of one artist, released two years ago. */
async function tracksOf(db: Db, artistId: string, count: number): Promise<void> {
  await db.query(
    `insert into public.tracks (artist_id, title, genre, price, description, release_date)
     select $1, 'Track ' || n, 'Rock', 1.29, 'Bench track', current_date - 730 from generate_series(1, $2) n`,
    [artistId, count],
  );
}

/** Plays, purchases and their downloads spread over the last two years, over the artist's tracks and 20 countries. */
async function eventsOf(db: Db, artistId: string, plays: number, purchases: number): Promise<void> {
  const spread = `from (select array_agg(id) as ids from public.tracks where artist_id = $1) t, generate_series(1, $2) n`;
  await db.query(
    `insert into public.analytics_events (type, track_id, artist_id, country, created_at)
     select 'play', t.ids[1 + (n::bigint * 7919) % cardinality(t.ids)], $1, ($3::text[])[1 + (n * 31) % 20],
       now() - ((n::bigint * 104729) % (730 * 86400)) * interval '1 second'
     ${spread}`,
    [artistId, plays, countries],
  );
  await recordPaidSales(
    db,
    `select 1.29 + (n % 3) as amount, t.ids[1 + (n::bigint * 7919) % cardinality(t.ids)] as track_id, null::uuid as user_id,
       ($3::text[])[1 + (n * 31) % 20] as country, now() - ((n::bigint * 104729) % (730 * 86400)) * interval '1 second' as created_at
     ${spread}`,
    [artistId, purchases, countries],
  );
  await db.query(
    `insert into public.analytics_events (type, track_id, artist_id, country, created_at)
     select 'download', p.track_id, p.artist_id, p.country, p.created_at from public.purchases p where p.artist_id = $1`,
    [artistId],
  );
}

export async function seedAnalyticsScale(db: Db, jwtSecret: string): Promise<{ big: AnalyticsArtist; small: AnalyticsArtist }> {
  const big = await artist(db, "Bench Headliner", jwtSecret);
  const small = await artist(db, "Bench Newcomer", jwtSecret);
  // The crowd: 997 more artists (the seed has 12), each with 5 tracks and 250 events.
  await db.query(
    `insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
     select 'crowd' || n || '@bench.test', jsonb_build_object('role', 'artist', 'artist_name', 'Crowd ' || n,
       'paypal_email', 'pay@bench.test', 'genres', '["Rock"]'::jsonb), '{"provider": "email", "providers": ["email"]}', now()
     from generate_series(1, 986) n`,
  );
  const crowd = await db.query<{ id: string }>("select id from public.artist_profiles where artist_name like 'Crowd %'");
  for (const { id } of crowd.rows) await tracksOf(db, id, 5);
  await db.query(
    `insert into public.analytics_events (type, track_id, artist_id, country, created_at)
     select 'play', t.id, t.artist_id, 'US', now() - (n * 3) * interval '1 day'
     from public.tracks t, generate_series(1, 50) n
     where t.title like 'Track %' and t.artist_id in (select id from public.artist_profiles where artist_name like 'Crowd %')`,
  );

  await tracksOf(db, big.id, 50);
  await eventsOf(db, big.id, 1_000_000, 100_000);
  await tracksOf(db, small.id, 2);
  await eventsOf(db, small.id, 80, 10);
  await db.query("analyze");
  return { big: { ...big, label: "1M plays, 100k sales" }, small: { ...small, label: "100 events" } };
}

/**
 * A fan with 10,000 plays (a third in the last 30 days), 1,000 purchases and 500 likes, among the artists
 * above: what the fan space's lists must stay fast for.
 */
export async function seedFanScale(db: Db, jwtSecret: string): Promise<{ id: string; token: string }> {
  const {
    id,
    claims: { session_id: _session, ...claims },
  } = await createUser(db, { role: "fan", username: "bench_listener", favorite_genres: ["Rock"] });
  const tracks = `(select array_agg(id) as ids from (select id from public.tracks where title like 'Track %' order by id limit 2000) t) t`;
  await db.query(
    `insert into public.analytics_events (type, track_id, artist_id, user_id, created_at)
     select 'play', tr.id, tr.artist_id, $1, now() - ((n::bigint * 7919) % (90 * 86400)) * interval '1 second'
     from ${tracks}, generate_series(1, 10000) n, public.tracks tr
     where tr.id = t.ids[1 + (n * 13) % cardinality(t.ids)]`,
    [id],
  );
  await recordPaidSales(
    db,
    `select 1.29 as amount, t.ids[1 + (n * 17) % cardinality(t.ids)] as track_id, $1::uuid as user_id, null::text as country,
       now() - n * interval '1 hour' as created_at
     from ${tracks}, generate_series(1, 1000) n`,
    [id],
  );
  await db.query(
    `insert into public.likes (user_id, track_id, created_at)
     select $1, t.ids[n], now() - n * interval '1 hour' from ${tracks}, generate_series(1, 500) n`,
    [id],
  );
  await db.query("analyze");
  return { id, token: signJwt(claims, jwtSecret) };
}
