import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asRole, type Claims, createUser, type TestUser } from "@crate/local-supabase/testing";
import { openDb, type Db, migrate } from "@crate/local-supabase";
import { createAdmin, createArtist, createFan, createTrack, tomorrow } from "./schema-fixtures.ts";

// The database's own rules (triggers, constraints, functions, grants), checked in SQL as each role,
// on embedded PGlite and, when TEST_DATABASE_URL names a PostgreSQL server, on a fresh database there.

const platformSql = readFileSync(join(import.meta.dirname, "../../supabase/local/platform.sql"), "utf8");
const visitor: Claims = { role: "anon" };

type Backend = { name: string; open(): Promise<{ db: Db; drop(): Promise<void> }> };

const backends: Backend[] = [{ name: "pglite", open: async () => ({ db: await openDb({ memory: true }), drop: async () => {} }) }];
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  backends.push({
    name: "postgres",
    async open() {
      const name = `schema_test_${process.pid}_${Date.now()}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      const template = process.env.TEST_DATABASE_TEMPLATE;
      await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      const db = await openDb({ databaseUrl: url.toString() });
      return {
        db,
        async drop() {
          await db.close();
          await admin.query(`drop database ${name}`);
          await admin.end();
        },
      };
    },
  });
}

function as<T>(db: Db, claims: Claims, fn: (tx: Db) => Promise<T>) {
  return asRole(db, claims, fn);
}

// Plays are recorded only for the marketplace's server, which sends its registered secret.
const marketplaceSecret = "schema-test-marketplace-secret-0123456789";
function asMarketplace<T>(db: Db, claims: Claims, fn: (tx: Db) => Promise<T>, secret = marketplaceSecret) {
  return asRole(db, claims, fn, { headers: new Headers({ "X-Marketplace-Secret": secret }) });
}

async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error("expected the statement to fail");
}

describe.each(backends)("schema on $name", (backend) => {
  let db: Db;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ db, drop } = await backend.open());
    await migrate(db, { seed: false });
    await db.query("select private.trust_marketplace_secret($1)", [marketplaceSecret]);
  });
  afterAll(() => drop());

  describe("platform", () => {
    it("applies again without changing anything", async () => {
      await db.exec(platformSql);
      const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from pg_roles where rolname in
        ('anon', 'authenticated', 'service_role', 'authenticator')`);
      expect(rows[0].n).toBe(4);
    });

    it("stops a visitor's statement after 3 s and a signed-in user's after 8 s, as hosted Supabase does", async () => {
      const timeoutFor = async (claims: Claims) =>
        (await as(db, claims, (tx) => tx.query<{ timeout: string }>("select current_setting('statement_timeout') as timeout"))).rows[0]
          .timeout;
      expect(await timeoutFor(visitor)).toBe("3s");
      expect(await timeoutFor((await createFan(db, "timed_fan")).claims)).toBe("8s");
      // PGlite runs no timers, so only PostgreSQL can stop the statement (the README says so).
      if (backend.name === "postgres") {
        expect((await errorOf(as(db, visitor, (tx) => tx.query("select pg_sleep(3.5)")))).code).toBe("57014");
      }
    });

    it("reads the caller from the JWT claims like Supabase", async () => {
      const user = await createFan(db);
      const row = await as(db, user.claims, async (tx) => {
        const { rows } = await tx.query<{ uid: string; role: string; email: string; jwt: { sub: string } }>(
          "select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() as jwt",
        );
        return rows[0];
      });
      expect(row).toMatchObject({ uid: user.id, role: "authenticated", email: user.email, jwt: { sub: user.id } });
    });

    it("splits storage paths like Supabase", async () => {
      const { rows } = await db.query(
        `select storage.foldername('u1/covers/a.png') as folders, storage.filename('u1/covers/a.png') as file,
                storage.extension('u1/covers/a.png') as ext`,
      );
      expect(rows[0]).toEqual({ folders: ["u1", "covers"], file: "a.png", ext: "png" });
    });
  });

  describe("profiles created with the user", () => {
    it("creates an artist profile and payout settings from the sign-up metadata", async () => {
      const user = await createUser(db, {
        role: "artist",
        artist_name: "  Night Owls ",
        paypal_email: "owls@example.test",
        bio: "Synths",
        genres: ["Electronic", "Pop"],
      });
      const profile = await db.query("select artist_name, bio, genres, follower_count from artist_profiles where id = $1", [user.id]);
      expect(profile.rows).toEqual([{ artist_name: "Night Owls", bio: "Synths", genres: ["Electronic", "Pop"], follower_count: 0 }]);
      const payout = await db.query("select paypal_email, payment_settings from artist_payout_settings where artist_id = $1", [user.id]);
      expect(payout.rows).toEqual([
        {
          paypal_email: "owls@example.test",
          payment_settings: { minimum_price: 1, default_currency: "USD", auto_withdraw: false, withdraw_threshold: 50 },
        },
      ]);
    });

    it("creates a fan profile and payout settings from the sign-up metadata", async () => {
      const user = await createUser(db, { role: "fan", username: "lena", favorite_genres: ["Jazz", "R&B"] });
      const profile = await db.query("select username, favorite_genres from fan_profiles where id = $1", [user.id]);
      expect(profile.rows).toEqual([{ username: "lena", favorite_genres: ["Jazz", "R&B"] }]);
      const payout = await db.query("select payment_settings from fan_payout_settings where fan_id = $1", [user.id]);
      expect(payout.rows).toEqual([{ payment_settings: { paypal_email: null, default_currency: "USD" } }]);
    });

    it.each([
      [{ role: "artist", paypal_email: "a@example.test" }, "artist_name is required"],
      [{ role: "artist", artist_name: "X" }, "paypal_email is required"],
      [{ role: "artist", artist_name: "X", paypal_email: "not-an-email" }, "paypal_email is required"],
      [{ role: "artist", artist_name: "X", paypal_email: "a@example.test", genres: ["Polka"] }, "genres must come from"],
      [{ role: "artist", artist_name: "X", paypal_email: "a@example.test", genres: "Rock" }, "genres must be a list"],
      [{ role: "fan", username: " " }, "username is required"],
      [{ role: "fan", username: "x", favorite_genres: ["Disco"] }, "favorite_genres must come from"],
    ])("refuses the whole sign-up for invalid metadata %j", async (metadata, message) => {
      const email = `invalid-${crypto.randomUUID()}@example.test`;
      const error = await errorOf(db.query("insert into auth.users (email, raw_user_meta_data) values ($1, $2)", [email, metadata]));
      expect(error.message).toContain(message);
      const { rows } = await db.query("select 1 from auth.users where email = $1", [email]);
      expect(rows).toEqual([]);
    });

    it("gives users without a role (administrators) no profile", async () => {
      const admin = await createAdmin(db);
      const { rows } = await db.query(
        "select (select count(*) from artist_profiles where id = $1)::int + (select count(*) from fan_profiles where id = $1)::int as n",
        [admin.id],
      );
      expect(rows[0]).toEqual({ n: 0 });
    });
  });

  describe("constraints from the validation rules", () => {
    let artist: TestUser;
    let trackId: string;

    beforeAll(async () => {
      artist = await createArtist(db);
      trackId = await createTrack(db, artist.id);
    });

    it.each([
      ["a track under 0.99", `update tracks set price = 0.98 where id = $1`],
      ["a track type outside album/single/other", `update tracks set type = 'ep' where id = $1`],
      ["an album title on a single", `update tracks set album_title = 'LP' where id = $1`],
      ["a blank genre", `update tracks set genre = ' ' where id = $1`],
      ["a genre outside the catalog's list", `update tracks set genre = 'NotAGenre' where id = $1`],
      ["a genre in the list's words but not its spelling", `update tracks set genre = 'rock' where id = $1`],
      ["a title over 200 characters", `update tracks set title = repeat('t', 201) where id = $1`],
      ["a description over 5,000 characters", `update tracks set description = repeat('d', 5001) where id = $1`],
      ["a subgenre over 100 characters", `update tracks set subgenre = repeat('s', 101) where id = $1`],
      ["a label over 100 characters", `update tracks set label = repeat('l', 101) where id = $1`],
      ["a price over 1,000", `update tracks set price = 1000.01 where id = $1`],
      ["a track number over 100", `update tracks set track_number = 101 where id = $1`],
      ["a release date before 1900", `update tracks set release_date = '1899-12-31' where id = $1`],
      [
        "a release date more than two years ahead",
        `update tracks set release_date = current_date + interval '2 years 1 day' where id = $1`,
      ],
      [
        "merch over 1,000",
        `insert into merch (artist_id, title, price, description) select artist_id, 'Box', 1000.01, 'A box' from tracks where id = $1`,
      ],
      [
        "a bio over 5,000 characters",
        `update artist_profiles set bio = repeat('b', 5001) where id = (select artist_id from tracks where id = $1)`,
      ],
      [
        "a social link that is a script",
        `update artist_profiles set social_links = '{"twitter": "javascript:alert(1)"}' where id = (select artist_id from tracks where id = $1)`,
      ],
      [
        "a social link on another site",
        `update artist_profiles set social_links = '{"instagram": "https://evil.example/name"}' where id = (select artist_id from tracks where id = $1)`,
      ],
      [
        "a social network the profile has no place for",
        `update artist_profiles set social_links = '{"myspace": "name"}' where id = (select artist_id from tracks where id = $1)`,
      ],
      [
        "a show on a day that does not exist",
        `update artist_profiles set tour_dates = '[{"date": "2027-02-30", "venue": "Hall", "city": "Oslo"}]' where id = (select artist_id from tracks where id = $1)`,
      ],
      [
        "more than 50 shows",
        `update artist_profiles set tour_dates = (select jsonb_agg(jsonb_build_object('date', '2027-01-01', 'venue', 'Hall', 'city', 'Oslo')) from generate_series(1, 51))
         where id = (select artist_id from tracks where id = $1)`,
      ],
      ["peaks outside 0..1", `update tracks set peaks = '[0.2, 1.5]' where id = $1`],
      ["an artwork size without artwork", `update tracks set artwork_url = null, artwork_width = 600, artwork_height = 600 where id = $1`],
      [
        "half an artwork size",
        `update tracks set artwork_url = 'http://localhost/storage/v1/object/public/artwork/' || artist_id || '/1700000000000-aaaaaaaa.png',
           artwork_width = 600 where id = $1`,
      ],
      [
        "an artwork of no pixels",
        `update tracks set artwork_url = 'http://localhost/storage/v1/object/public/artwork/' || artist_id || '/1700000000000-aaaaaaaa.png',
           artwork_width = 0, artwork_height = 600 where id = $1`,
      ],
      [
        "a picture size without a picture",
        `update artist_profiles set profile_image_url = null, profile_image_width = 400, profile_image_height = 400
         where id = (select artist_id from tracks where id = $1)`,
      ],
      [
        "an event type other than play/download",
        `insert into analytics_events (type, track_id, artist_id) select 'like', id, artist_id from tracks where id = $1`,
      ],
    ])("refuses %s", async (_, sql) => {
      expect((await errorOf(db.query(sql, [trackId]))).code).toBe("23514");
    });

    it.each([
      ["a discount over 100", { discounts: [{ id: "d", code: "X", percentage: 101, validUntil: null, active: true }] }],
      ["a fractional discount", { discounts: [{ id: "d", code: "X", percentage: 12.5, validUntil: null, active: true }] }],
      ["a bundle discount over 100", { bundling: { enabled: true, discountPercentage: 120 } }],
      ["a negative tier price", { pricing_tiers: [{ id: "t", name: "Fan", price: -1, description: "" }] }],
      ["a tier without a price", { pricing_tiers: [{ id: "t", name: "Fan" }] }],
      ["a tier without a name", { pricing_tiers: [{ id: "t", name: " ", price: 1 }] }],
      ["a tier price in fractions of a cent", { pricing_tiers: [{ id: "t", name: "Fan", price: 1.005 }] }],
      ["a discount without a code", { discounts: [{ id: "d", code: "", percentage: 10, validUntil: null, active: true }] }],
      ["a discount valid until no date", { discounts: [{ id: "d", code: "X", percentage: 10, validUntil: "soon", active: true }] }],
      [
        "two discounts with one code in different cases",
        {
          discounts: [
            { id: "a", code: "SPRING", percentage: 10, validUntil: null, active: true },
            { id: "b", code: "spring", percentage: 20, validUntil: null, active: false },
          ],
        },
      ],
      ["more than 20 tiers", { pricing_tiers: Array.from({ length: 21 }, (_, i) => ({ id: `t${i}`, name: "Fan", price: 1 })) }],
      ["a tier over 1,000", { pricing_tiers: [{ id: "t", name: "Patron", price: 1000.01 }] }],
      ["a tier description over 500 characters", { pricing_tiers: [{ id: "t", name: "Fan", price: 1, description: "x".repeat(501) }] }],
      [
        "a discount valid until a day that does not exist",
        { discounts: [{ id: "d", code: "X", percentage: 10, validUntil: "2024-02-30", active: true }] },
      ],
    ])("refuses store settings with %s", async (_, settings) => {
      const [column, value] = Object.entries(settings)[0];
      const error = await errorOf(
        db.query(`insert into store_settings (artist_id, ${column}) values ($1, $2)`, [artist.id, JSON.stringify(value)]),
      );
      expect(error.code).toBe("23514");
    });

    it("accepts store settings within the rules and defaults bundling to 10%", async () => {
      await db.query(`insert into store_settings (artist_id, discounts, pricing_tiers) values ($1, $2, $3)`, [
        artist.id,
        JSON.stringify([{ id: "d", code: "SUMMER", percentage: 100, validUntil: "2027-01-01", active: false }]),
        JSON.stringify([{ id: "t", name: "Free", price: 0, description: "Stream only" }]),
      ]);
      const { rows } = await db.query("select bundling from store_settings where artist_id = $1", [artist.id]);
      expect(rows[0]).toEqual({ bundling: { enabled: false, discountPercentage: 10 } });
    });

    it.each([
      ["a negative minimum price", { minimum_price: -1, default_currency: "USD", auto_withdraw: false, withdraw_threshold: 50 }],
      ["a threshold under 50", { minimum_price: 1, default_currency: "USD", auto_withdraw: true, withdraw_threshold: 40 }],
      ["a fractional threshold", { minimum_price: 1, default_currency: "USD", auto_withdraw: true, withdraw_threshold: 60.5 }],
      ["an unknown currency", { minimum_price: 1, default_currency: "JPY", auto_withdraw: false, withdraw_threshold: 50 }],
    ])("refuses artist payment settings with %s", async (_, settings) => {
      const error = await errorOf(
        db.query("update artist_payout_settings set payment_settings = $2 where artist_id = $1", [artist.id, JSON.stringify(settings)]),
      );
      expect(error.code).toBe("23514");
    });

    it("refuses news of an unknown type", async () => {
      const error = await errorOf(db.query(`insert into news_items (title, content, type) values ('t', 'c', 'alert')`));
      expect(error.code).toBe("23514");
    });

    it("defaults a news item to active info", async () => {
      const { rows } = await db.query(`insert into news_items (title, content) values ('t', 'c') returning type, active`);
      expect(rows[0]).toEqual({ type: "info", active: true });
    });

    it("lets a stored file be named only through the marketplace, and cleared by anyone who may edit the row", async () => {
      const path = `${artist.id}/1700000000000-aaaaaaaa.mp3`;
      const name = (claims: Claims, tx = as) =>
        tx(db, claims, (q) => q.query("update tracks set file_url = $2 where id = $1", [trackId, path]));
      expect((await errorOf(name(artist.claims))).code).toBe("42501");
      await name(artist.claims, asMarketplace);
      expect((await db.query("select file_url from tracks where id = $1", [trackId])).rows[0].file_url).toBe(path);
      // the same value again, or none, names nothing new
      await as(db, artist.claims, (q) => q.query("update tracks set file_url = $2, title = 'Renamed' where id = $1", [trackId, path]));
      await as(db, artist.claims, (q) => q.query("update tracks set file_url = null where id = $1", [trackId]));
      // the service role (an Edge Function) is not the API's user
      await as(db, { role: "service_role" }, (q) => q.query("update tracks set file_url = $2 where id = $1", [trackId, path]));
    });

    it("keeps social links that are a handle or a profile address on their own network", async () => {
      const links = { twitter: "https://x.com/paperlanterns/", instagram: "@the.lanterns" };
      await db.query("update artist_profiles set social_links = $2 where id = $1", [artist.id, JSON.stringify(links)]);
      const { rows } = await db.query("select social_links from artist_profiles where id = $1", [artist.id]);
      expect(rows[0].social_links).toEqual(links);
    });

    it("refuses news and names past their lengths", async () => {
      for (const sql of [
        `insert into news_items (title, content) values (repeat('t', 201), 'c')`,
        `insert into news_items (title, content) values ('t', repeat('c', 2001))`,
        `update fan_profiles set username = repeat('u', 51) where id = (select id from fan_profiles limit 1)`,
        `update artist_profiles set artist_name = repeat('a', 101) where id = '${artist.id}'`,
      ]) {
        expect((await errorOf(db.query(sql))).code).toBe("23514");
      }
    });

    it("refuses a website that is not a URL and favourite genres off the list", async () => {
      expect((await errorOf(db.query(`update artist_profiles set website = 'example' where id = $1`, [artist.id]))).code).toBe("23514");
      const fan = await createFan(db);
      const error = await errorOf(db.query(`update fan_profiles set favorite_genres = '{Disco}' where id = $1`, [fan.id]));
      expect(error.code).toBe("23514");
    });
  });

  describe("followers", () => {
    it("keeps follower_count exact through follows and unfollows, and refuses self and double follows", async () => {
      const artist = await createArtist(db);
      const fans = await Promise.all(Array.from({ length: 6 }, () => createFan(db)));
      await Promise.all(
        fans.map((fan) =>
          as(db, fan.claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $2)", [artist.id, fan.id])),
        ),
      );
      await as(db, fans[0].claims, (tx) => tx.query("delete from followers where artist_id = $1", [artist.id]));

      const count = await as(db, visitor, async (tx) => {
        const { rows } = await tx.query<{ n: number }>("select get_follower_count($1) as n", [artist.id]);
        return rows[0].n;
      });
      expect(count).toBe(5);

      const self = await errorOf(
        as(db, artist.claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $1)", [artist.id])),
      );
      expect(self.code).toBe("23514");
      const twice = await errorOf(
        as(db, fans[1].claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $2)", [artist.id, fans[1].id])),
      );
      expect(twice.code).toBe("23505");
    });

    it("lets an artist follow another artist and names followers by their profile", async () => {
      const [artist, other] = [await createArtist(db, "Followed"), await createArtist(db, "Follower Band")];
      await as(db, other.claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $2)", [artist.id, other.id]));
      const { rows } = await as(db, visitor, (tx) =>
        tx.query("select display_name, is_fan from artist_followers where artist_id = $1", [artist.id]),
      );
      expect(rows).toEqual([{ display_name: "Follower Band", is_fan: false }]);
    });
  });

  describe("plays", () => {
    it("records a play with the track artist and the listener, or no listener for a visitor", async () => {
      const artist = await createArtist(db);
      const fan = await createFan(db);
      const trackId = await createTrack(db, artist.id);
      await asMarketplace(db, fan.claims, (tx) => tx.query("select record_play($1)", [trackId]));
      await asMarketplace(db, visitor, (tx) => tx.query("select record_play($1)", [trackId]));
      const { rows } = await db.query(
        "select type, artist_id, user_id from analytics_events where track_id = $1 order by user_id nulls last",
        [trackId],
      );
      expect(rows).toEqual([
        { type: "play", artist_id: artist.id, user_id: fan.id },
        { type: "play", artist_id: artist.id, user_id: null },
      ]);
    });

    it("counts a listener's play of a track once per 10 minutes, however often it is reported", async () => {
      const artist = await createArtist(db);
      const fan = await createFan(db);
      const trackId = await createTrack(db, artist.id);
      const play = (claims: Claims, listener: string | null, address: string | null) =>
        asMarketplace(
          db,
          claims,
          async (tx) =>
            (await tx.query<{ counted: boolean }>("select record_play($1, null, $2, $3) as counted", [trackId, listener, address])).rows[0]
              .counted,
        );
      const plays = async () =>
        (await db.query<{ n: number }>("select count(*)::int as n from analytics_events where track_id = $1", [trackId])).rows[0].n;

      const fanPlays: boolean[] = [];
      for (let i = 0; i < 50; i++) fanPlays.push(await play(fan.claims, `cookie-${i}`, `198.51.100.${i}`));
      expect(fanPlays.filter(Boolean)).toHaveLength(1);
      for (let i = 0; i < 5; i++) await play(visitor, "one-visitor", "203.0.113.9");
      expect(await plays()).toBe(2);
      // the same visitor id from another address is another listener
      expect(await play(visitor, "one-visitor", "203.0.113.10")).toBe(true);

      // 10 minutes later the fan's play counts again
      await db.query(`update private.recent_plays set played_at = now() - interval '11 minutes' where listener = $1`, [`user:${fan.id}`]);
      expect(await play(fan.claims, null, null)).toBe(true);
      expect(await plays()).toBe(4);
    });

    it("refuses a burst of plays from one address, and a banned user's plays", async () => {
      const artist = await createArtist(db);
      const fan = await createFan(db);
      const tracks: string[] = [];
      for (let i = 0; i < 31; i++) tracks.push(await createTrack(db, artist.id, { title: `Burst ${i}` }));
      const play = (trackId: string, listener: string) =>
        asMarketplace(db, visitor, (tx) => tx.query("select record_play($1, null, $2, '192.0.2.77')", [trackId, listener]));
      for (let i = 0; i < 30; i++) await play(tracks[i]!, `rotating-${i}`);
      expect((await errorOf(play(tracks[30]!, "rotating-30"))).code).toBe("54000");
      // A fan behind the same address is held to their own account's pace, not locked out by the burst.
      const fanPlay = (trackId: string) =>
        asMarketplace(db, fan.claims, (tx) => tx.query("select record_play($1, null, null, '192.0.2.77')", [trackId]));
      for (let i = 0; i < 30; i++) await fanPlay(tracks[i]!);
      expect((await errorOf(fanPlay(tracks[30]!))).code).toBe("54000");

      await db.query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [fan.id]);
      expect((await errorOf(asMarketplace(db, fan.claims, (tx) => tx.query("select record_play($1)", [tracks[0]])))).code).toBe("42501");
    });

    it("records no play of an unreleased track for anyone but its artist", async () => {
      const artist = await createArtist(db);
      const fan = await createFan(db);
      const trackId = await createTrack(db, artist.id, { release_date: tomorrow() });
      expect((await errorOf(asMarketplace(db, fan.claims, (tx) => tx.query("select record_play($1)", [trackId])))).code).toBe("P0002");
      await asMarketplace(db, artist.claims, (tx) => tx.query("select record_play($1)", [trackId]));
    });

    it("records plays only for the marketplace's server, which proves it with its registered secret", async () => {
      const artist = await createArtist(db);
      const fan = await createFan(db);
      const trackId = await createTrack(db, artist.id);
      for (const claims of [visitor, fan.claims]) {
        expect(
          (await errorOf(as(db, claims, (tx) => tx.query("select record_play($1, null, 'forged', '192.0.2.1')", [trackId])))).code,
        ).toBe("28000");
        const wrongSecret = asMarketplace(db, claims, (tx) => tx.query("select record_play($1)", [trackId]), `${marketplaceSecret}-not`);
        expect((await errorOf(wrongSecret)).code).toBe("28000");
        // nobody but the operator registers a secret
        expect((await errorOf(as(db, claims, (tx) => tx.query("select private.trust_marketplace_secret(repeat('x', 40))")))).code).toBe(
          "42501",
        );
        expect((await errorOf(as(db, claims, (tx) => tx.query("select * from private.marketplace_secrets")))).code).toBe("42501");
      }
      expect(
        (await db.query<{ n: number }>("select count(*)::int as n from analytics_events where track_id = $1", [trackId])).rows[0].n,
      ).toBe(0);
      expect((await errorOf(db.query("select private.trust_marketplace_secret('short')"))).code).toBe("22023");
    });

    it("refuses events written directly", async () => {
      const artist = await createArtist(db);
      const trackId = await createTrack(db, artist.id);
      const error = await errorOf(
        as(db, artist.claims, (tx) =>
          tx.query(`insert into analytics_events (type, track_id, artist_id) values ('play', $1, $2)`, [trackId, artist.id]),
        ),
      );
      expect(error.code).toBe("42501");
    });
  });

  describe("administration", () => {
    it("knows admins from app_metadata only", async () => {
      const admin = await createAdmin(db);
      const pretender = await createUser(db, { role: "admin" });
      const isAdmin = (claims: Claims) =>
        as(db, claims, async (tx) => (await tx.query<{ is_admin: boolean }>("select is_admin()")).rows[0].is_admin);
      expect(await isAdmin(admin.claims)).toBe(true);
      expect(await isAdmin(pretender.claims)).toBe(false);
      expect(await isAdmin(visitor)).toBe(false);
    });

    it("stops knowing a banned admin as one, though their token still says admin", async () => {
      const admin = await createAdmin(db);
      await db.query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [admin.id]);
      const { rows } = await as(db, admin.claims, (tx) => tx.query<{ is_admin: boolean }>("select is_admin()"));
      expect(rows[0].is_admin).toBe(false);
    });

    it("ends a banned user's sessions with the audit entry, for the service role only", async () => {
      const admin = await createAdmin(db);
      const fan = await createFan(db);
      const { rows: sessions } = await db.query<{ id: string }>("insert into auth.sessions (user_id) values ($1) returning id", [fan.id]);
      await db.query(`insert into auth.refresh_tokens (token, user_id, session_id) values ('rt-ban', $1, $2)`, [fan.id, sessions[0].id]);
      const record = `select record_user_administration($1, 'admin@example.test', 'user.ban', $2, 'fan@example.test', ' spam ')`;

      expect((await errorOf(as(db, admin.claims, (tx) => tx.query(record, [admin.id, fan.id])))).code).toBe("42501");
      expect((await db.query("select 1 from auth.sessions where user_id = $1", [fan.id])).rows).toHaveLength(1);

      await as(db, { role: "service_role" }, (tx) => tx.query(record, [admin.id, fan.id]));
      expect((await db.query("select 1 from auth.sessions where user_id = $1", [fan.id])).rows).toEqual([]);
      expect((await db.query("select 1 from auth.refresh_tokens where user_id = $1::text and not revoked", [fan.id])).rows).toEqual([]);
      const { rows } = await db.query("select actor_id, action, summary, reason from audit_log where target_id = $1", [fan.id]);
      expect(rows).toEqual([{ actor_id: admin.id, action: "user.ban", summary: "fan@example.test", reason: "spam" }]);

      const notAUserAction = `select record_user_administration($1, null, 'news.delete', $2, 'x', null)`;
      expect((await errorOf(as(db, { role: "service_role" }, (tx) => tx.query(notAUserAction, [admin.id, fan.id])))).code).toBe("22023");
    });

    it("tells when a suspension ends, for banned accounts only, to the marketplace with the right password", async () => {
      const fan = await createFan(db);
      await db.query(
        "update auth.users set encrypted_password = extensions.crypt('the-password', extensions.gen_salt('bf')) where id = $1",
        [fan.id],
      );
      const until = async (email: string, password = "the-password") =>
        (
          await asMarketplace(db, visitor, (tx) =>
            tx.query<{ until: string | null }>("select suspended_until($1, $2) as until", [email, password]),
          )
        ).rows[0].until;
      expect(await until(fan.email)).toBeNull();
      await db.query(`update auth.users set banned_until = now() + interval '3 days' where id = $1`, [fan.id]);
      expect(await until(` ${fan.email.toUpperCase()} `)).not.toBeNull();
      expect(await until(fan.email, "a-guess")).toBeNull();
      for (const claims of [visitor, fan.claims]) {
        const error = await errorOf(as(db, claims, (tx) => tx.query("select suspended_until($1, 'the-password')", [fan.email])));
        expect(error.code).toBe("28000");
      }
      await db.query(`update auth.users set banned_until = now() - interval '1 second' where id = $1`, [fan.id]);
      expect(await until(fan.email)).toBeNull();
    });
  });

  describe("genre pages", () => {
    it("list the artists tagged with the genre (0 tracks allowed) and those with tracks in it, most tracks first", async () => {
      const tagged = await createUser(db, {
        role: "artist",
        artist_name: "Tagged Only",
        paypal_email: "p@example.test",
        genres: ["Blues"],
      });
      const releasing = await createArtist(db, "Releasing Untagged");
      await createTrack(db, releasing.id, { genre: "Blues" });
      const page = await as(
        db,
        visitor,
        async (tx) =>
          (
            await tx.query<{ page: { genre: string; artists: { id: string; track_count: number }[] } }>(
              "select genre_page('bLuEs') as page",
            )
          ).rows[0].page,
      );
      expect(page.genre).toBe("Blues");
      const byId = new Map(page.artists.map((artist) => [artist.id, artist.track_count]));
      expect(byId.get(tagged.id)).toBe(0);
      expect(byId.get(releasing.id)).toBe(1);
      expect(page.artists.findIndex((artist) => artist.id === releasing.id)).toBeLessThan(
        page.artists.findIndex((artist) => artist.id === tagged.id),
      );
    });

    it("name a genre as the catalog spells it, whatever the case asked, and nothing for an unknown one", async () => {
      const genreOf = async (name: string) =>
        (await as(db, visitor, (tx) => tx.query<{ genre: string | null }>("select genre_page($1) ->> 'genre' as genre", [name]))).rows[0]
          .genre;
      expect(await genreOf("r&b")).toBe("R&B");
      expect(await genreOf("No Such Genre")).toBeNull();
    });
  });

  describe("account roles", () => {
    it("come from the profile rows, never from metadata the user can edit", async () => {
      const artist = await createArtist(db, "Real Artist");
      const fan = await createFan(db, "plain_fan_role");
      const roleOf = async (claims: Claims) =>
        (await as(db, claims, (tx) => tx.query<{ role: string | null }>("select account_role() as role"))).rows[0].role;
      expect(await roleOf(artist.claims)).toBe("artist");
      expect(await roleOf(fan.claims)).toBe("fan");
      await db.query(`update auth.users set raw_user_meta_data = raw_user_meta_data || '{"role": "artist"}' where id = $1`, [fan.id]);
      expect(await roleOf({ ...fan.claims, user_metadata: { role: "artist" } })).toBe("fan");
      expect((await errorOf(as(db, visitor, (tx) => tx.query("select account_role()")))).code).toBe("42501");
    });
  });

  describe("catalog counts", () => {
    it("counts tracks per artist and genre from what the reader may see", async () => {
      // Classical: a genre no other test here releases in, so its figures are this artist's
      const artist = await createArtist(db, "Counted");
      await createTrack(db, artist.id, { genre: "Classical" });
      await createTrack(db, artist.id, { genre: "Classical" });
      await createTrack(db, artist.id, { genre: "Classical", release_date: tomorrow() });

      const forVisitor = await as(db, visitor, async (tx) => ({
        genre: (await tx.query(`select artist_count, track_count from genre_counts where genre = 'Classical'`)).rows[0],
        perArtist: (await tx.query(`select genre_page('classical') -> 'artists' -> 0 -> 'track_count' as track_count`)).rows,
      }));
      expect(forVisitor).toEqual({
        genre: { artist_count: 1, track_count: 2 },
        perArtist: [{ track_count: 2 }],
      });
      const forArtist = await as(db, artist.claims, (tx) =>
        tx.query(`select (artist_directory('Counted') -> 'artists' -> 0 ->> 'track_count')::int as track_count`),
      );
      expect(forArtist.rows).toEqual([{ track_count: 3 }]);
    });
  });

  describe("genre rollups", () => {
    // What the rollups must always equal: released tracks counted directly.
    async function expectRollupsExact() {
      const sorted = <T extends { genre: string }>(rows: T[]) => [...rows].sort((a, b) => (a.genre < b.genre ? -1 : 1));
      const perGenre = await db.query<{ genre: string; artist_count: number; track_count: number }>(
        "select genre, artist_count, track_count from private.genre_figures()",
      );
      const counted = await db.query<{ genre: string; artist_count: number; track_count: number }>(
        `select genre, count(distinct artist_id)::integer as artist_count, count(*)::integer as track_count
         from public.tracks where release_date <= current_date group by genre`,
      );
      expect(sorted(perGenre.rows)).toEqual(sorted(counted.rows));

      const perArtist = await db.query<{ rollup: unknown; counted: unknown }>(
        `select
           (select jsonb_agg(jsonb_build_array(g.genre, f.artist_id, f.track_count) order by g.genre, f.artist_id)
            from unnest(private.genre_list()) as g(genre),
              private.genre_artist_tracks(g.genre) f) as rollup,
           (select jsonb_agg(jsonb_build_array(c.genre, c.artist_id, c.track_count) order by c.genre, c.artist_id)
            from (
              select g.genre, a.id as artist_id,
                (select count(*)::integer from public.tracks t
                 where t.artist_id = a.id and t.genre = g.genre and t.release_date <= current_date) as track_count
              from unnest(private.genre_list()) as g(genre), public.artist_profiles a
            ) c
            where c.track_count > 0 or exists (
              select 1 from public.artist_profiles p where p.id = c.artist_id and p.genres @> array[c.genre])) as counted`,
      );
      expect(perArtist.rows[0].rollup).toEqual(perArtist.rows[0].counted);
    }

    it("stay equal to the released tracks counted directly through every kind of change", async () => {
      await expectRollupsExact();
      const first = await createArtist(db, "Rollup One");
      const second = await createArtist(db, "Rollup Two");
      await expectRollupsExact();

      // several tracks in one statement, one of them scheduled (Country and Metal: genres only this test releases in)
      await db.query(
        `insert into public.tracks (artist_id, title, genre, price, description, release_date)
         select a, 'Bulk', g, 1.99, 'A track', d
         from (values ($1::uuid, 'Country', current_date - 3), ($1::uuid, 'Country', current_date),
                      ($2::uuid, 'Country', current_date - 1), ($2::uuid, 'Metal', current_date + 5)) v(a, g, d)`,
        [first.id, second.id],
      );
      await expectRollupsExact();
      expect((await db.query("select artist_count, track_count from private.genre_figures() where genre = 'Metal'")).rows).toEqual([]);

      // a scheduled release counts from its date, without a write to the rollups
      const scheduled = await createTrack(db, first.id, { genre: "Metal", release_date: tomorrow() });
      await expectRollupsExact();
      await db.query("update public.tracks set release_date = current_date where id = $1", [scheduled]);
      await expectRollupsExact();

      // a genre changed, then all of an artist's tracks moved at once
      await db.query(
        "update public.tracks set genre = 'Metal' where id = (select id from public.tracks where artist_id = $1 and genre = 'Country' limit 1)",
        [first.id],
      );
      await expectRollupsExact();
      await db.query("update public.tracks set genre = 'Country' where artist_id = $1", [second.id]);
      await expectRollupsExact();

      // a profile's genres changed: a tagged genre with no track lists the artist with 0
      await db.query("update public.artist_profiles set genres = array['Jazz', 'Folk'] where id = $1", [first.id]);
      await expectRollupsExact();
      await db.query("update public.artist_profiles set genres = array['Folk'] where id = $1", [first.id]);
      await expectRollupsExact();

      // tracks removed, then a whole artist with their tracks
      await db.query("delete from public.tracks where artist_id = $1 and genre = 'Metal'", [first.id]);
      await expectRollupsExact();
      await db.query("delete from auth.users where id = $1", [second.id]);
      await expectRollupsExact();
      expect(
        (await db.query("select count(*)::integer as n from private.artist_genre_tracks where artist_id = $1", [second.id])).rows,
      ).toEqual([{ n: 0 }]);
    });

    it("are read only through the catalog's own answers", async () => {
      for (const claims of [visitor, (await createFan(db, "rollup_reader")).claims]) {
        for (const table of ["private.artist_genre_tracks", "private.genre_tracks"]) {
          expect((await errorOf(as(db, claims, (tx) => tx.query(`select * from ${table}`)))).code).toBe("42501");
          expect((await errorOf(as(db, claims, (tx) => tx.query(`delete from ${table}`)))).code).toBe("42501");
        }
        expect(
          (
            await errorOf(
              as(db, claims, (tx) => tx.query("select private.count_genre_tracks(array[gen_random_uuid()], array['Rock'], array[1000])")),
            )
          ).code,
        ).toBe("42501");
        expect((await errorOf(as(db, claims, (tx) => tx.query("select * from private.scheduled_genre_tracks()")))).code).toBe("42501");
      }
    });
  });

  describe("storage and realtime", () => {
    it("creates the tracks and artwork buckets with their limits", async () => {
      const { rows } = await db.query<{ id: string; public: boolean; file_size_limit: number; allowed_mime_types: string[] }>(
        "select id, public, file_size_limit, allowed_mime_types from storage.buckets order by id",
      );
      expect(rows.map(({ id, public: isPublic, file_size_limit }) => ({ id, isPublic, file_size_limit }))).toEqual([
        { id: "artwork", isPublic: true, file_size_limit: 5242880 },
        { id: "tracks", isPublic: false, file_size_limit: 52428800 },
      ]);
      expect(rows[0].allowed_mime_types).toEqual(["image/jpeg", "image/png", "image/webp"]);
      expect(rows[1].allowed_mime_types).toEqual(expect.arrayContaining(["audio/mpeg", "audio/wav", "audio/aac", "audio/ogg"]));
    });

    it("publishes purchases, analytics events and comments to realtime", async () => {
      const { rows } = await db.query<{ tablename: string }>(
        `select tablename from pg_publication_tables where pubname = 'supabase_realtime' order by tablename`,
      );
      expect(rows.map((r) => r.tablename)).toEqual(["analytics_events", "comments", "purchases"]);
    });
  });
});
