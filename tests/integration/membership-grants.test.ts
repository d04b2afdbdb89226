import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrl } from "../../scripts/lib/supabase-cli.ts";

// A new release is given to an artist's members once, however many announcement jobs run at once: two
// sessions give members their new releases side by side (give_members_new_releases, 22_memberships.sql,
// which the hourly job calls), the second waiting for the first's transaction, and the member owns the
// track once. Two sessions need a real PostgreSQL server: the migrated template `npm run test:postgres` makes.
const serverUrl = process.env.TEST_DATABASE_URL;
const template = process.env.TEST_DATABASE_TEMPLATE;

describe.skipIf(!serverUrl || !template)("a member's new releases", () => {
  const copy = `membership_grants_${process.pid}_${Date.now().toString(36)}`;
  let server: pg.Client;
  let first: pg.Client;
  let second: pg.Client;
  let fan: string;
  let track: string;

  beforeAll(async () => {
    server = new pg.Client({ connectionString: serverUrl });
    await server.connect();
    await server.query(`create database ${copy} template ${template}`);
    first = new pg.Client({ connectionString: databaseUrl(serverUrl!, copy) });
    second = new pg.Client({ connectionString: databaseUrl(serverUrl!, copy) });
    await Promise.all([first.connect(), second.connect()]);
    // An artist with a tier that gives new releases, a fan who joined it a week ago, and a track out today.
    const { rows } = await first.query<{ artist: string; fan: string }>(`
      with artist as (
        insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
        values ('grants-artist@tests.example', '{"role": "artist", "artist_name": "Granting", "paypal_email": "grants-artist@tests.example"}', '{"provider": "email"}', now())
        returning id),
      fan as (
        insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
        values ('grants-fan@tests.example', '{"role": "fan", "username": "granted"}', '{"provider": "email"}', now())
        returning id)
      select (select id from artist) as artist, (select id from fan) as fan`);
    fan = rows[0]!.fan;
    const artist = rows[0]!.artist;
    const tier = await first.query<{ id: string }>(
      `insert into public.membership_tiers (artist_id, name, monthly_price_cents, currency, grants_new_releases)
       values ($1, 'Everything new', 500, 'USD', true) returning id`,
      [artist],
    );
    await first.query(
      `insert into public.memberships (fan_id, tier_id, artist_id, billing_interval, amount_cents, currency, subscription_id,
         current_period_end, joined_at)
       values ($1, $2, $3, 'month', 500, 'USD', 'sub_grants', now() + interval '1 month', now() - interval '7 days')`,
      [fan, tier.rows[0]!.id, artist],
    );
    const made = await first.query<{ id: string }>(
      `insert into public.tracks (artist_id, title, genre, price, description, release_date)
       values ($1, 'Out today', 'Rock', 1.99, 'New', current_date) returning id`,
      [artist],
    );
    track = made.rows[0]!.id;
  });

  afterAll(async () => {
    await Promise.allSettled([first?.end(), second?.end()]);
    await server?.query(`drop database if exists ${copy}`);
    await server?.end();
  });

  it("is given once under two job runs at once", async () => {
    await first.query("begin");
    await second.query("begin");
    const given = await first.query<{ n: number }>("select private.give_members_new_releases() as n");
    // The second run waits for the first's transaction; it answers once that one has committed.
    const waiting = second.query<{ n: number }>("select private.give_members_new_releases() as n");
    const settled = await Promise.race([
      waiting.then(() => "answered"),
      new Promise((resolve) => setTimeout(() => resolve("waiting"), 300)),
    ]);
    expect(settled).toBe("waiting");
    await first.query("commit");
    const givenAgain = await waiting;
    await second.query("commit");
    expect([given.rows[0]!.n, givenAgain.rows[0]!.n]).toEqual([1, 0]);
    const owned = await first.query<{ count: string }>("select count(*) from public.purchases where user_id = $1 and track_id = $2", [
      fan,
      track,
    ]);
    expect(Number(owned.rows[0]!.count)).toBe(1);
  });
});
