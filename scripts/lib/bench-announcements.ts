// Data for the announcement bench (`npm run bench:backend -- --announcements`), on PostgreSQL: a headliner
// followed by 10,000 fans, and 199 more artists each followed by the first 100 of those fans; all 200
// release a single today. The job then announces them: 10,000 fans told of the headliner's, the 100 of
// 200 releases each, and each fan's mail grouped into one message (the digest rule), so the queue carries
// one message an address, not one a release. Written in bulk SQL as the operator.
import type { Db } from "@crate/local-supabase";

export type AnnouncementScale = { releases: number; followers: number; seconds: number };

export async function seedAnnouncementScale(db: Db, log: (line: string) => void): Promise<AnnouncementScale> {
  const started = performance.now();
  const step = async (what: string, sql: string) => {
    const t = performance.now();
    await db.query(sql);
    log(`  ${what}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  };
  // What the seed left waiting for its day is not this bench's.
  await db.query("update private.release_announcements set announced_at = now() where announced_at is null");
  await step(
    "200 artists",
    `insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
     select 'announce-artist-' || n || '@bench.test',
       jsonb_build_object('role', 'artist', 'artist_name', 'Announcing Artist ' || n, 'paypal_email', 'pay@bench.test'),
       '{"provider": "email"}', now()
     from generate_series(1, 200) n`,
  );
  await step(
    "10,000 fans",
    `insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
     select 'announce-fan-' || n || '@bench.test', jsonb_build_object('role', 'fan', 'username', 'announcefan' || n),
       '{"provider": "email"}', now()
     from generate_series(1, 10000) n`,
  );
  await step(
    "10,000 follows of the headliner, and the first 100 fans following all 200",
    `insert into public.followers (artist_id, fan_id)
     select a.id, f.id
     from public.artist_profiles a, public.fan_profiles f
     where a.artist_name like 'Announcing Artist %' and f.username like 'announcefan%'
       and (a.artist_name = 'Announcing Artist 1' or substring(f.username from 12)::int <= 100)`,
  );
  await step(
    "200 singles out today",
    `insert into public.tracks (artist_id, title, genre, price, description, release_date)
     select a.id, 'Announced ' || a.artist_name, 'Folk', 1, 'A bench release', current_date
     from public.artist_profiles a where a.artist_name like 'Announcing Artist %'`,
  );
  await db.query("analyze");
  return { releases: 200, followers: 10_000, seconds: (performance.now() - started) / 1000 };
}
