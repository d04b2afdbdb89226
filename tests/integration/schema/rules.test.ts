import { beforeAll, describe, expect, it } from "vitest";
import { type TestUser, type Claims } from "@crate/local-supabase/testing";
import { createArtist, createFan, createTrack } from "../schema-fixtures.ts";
import { as, asMarketplace, describeOnTestDatabase, errorOf } from "./harness.ts";

// The database's own rules for the validation rules every area's checks hold (03_catalog.sql, 04_studio.sql,
// 08_administration.sql) and stored files named only through the marketplace, checked in SQL as each role on
// embedded PGlite, and on PostgreSQL when npm run test:postgres names one.

describeOnTestDatabase("rules", (db) => {
  describe("constraints from the validation rules", () => {
    let artist: TestUser;
    let trackId: string;

    beforeAll(async () => {
      artist = await createArtist(db());
      trackId = await createTrack(db(), artist.id);
    });

    it.each([
      ["a track under 0.99", `update tracks set price = 0.98 where id = $1`],
      ["a release kind outside album/single", `update releases set kind = 'ep' where id = (select release_id from tracks where id = $1)`],
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
      expect((await errorOf(db().query(sql, [trackId]))).code).toBe("23514");
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
        db().query(`insert into store_settings (artist_id, ${column}) values ($1, $2)`, [artist.id, JSON.stringify(value)]),
      );
      expect(error.code).toBe("23514");
    });

    it("accepts store settings within the rules and defaults bundling to 10%", async () => {
      await db().query(`insert into store_settings (artist_id, discounts, pricing_tiers) values ($1, $2, $3)`, [
        artist.id,
        JSON.stringify([{ id: "d", code: "SUMMER", percentage: 100, validUntil: "2027-01-01", active: false }]),
        JSON.stringify([{ id: "t", name: "Free", price: 0, description: "Stream only" }]),
      ]);
      const { rows } = await db().query("select bundling from store_settings where artist_id = $1", [artist.id]);
      expect(rows[0]).toEqual({ bundling: { enabled: false, discountPercentage: 10 } });
    });

    it.each([
      ["a negative minimum price", { minimum_price: -1, default_currency: "USD", auto_withdraw: false, withdraw_threshold: 50 }],
      ["a threshold under 50", { minimum_price: 1, default_currency: "USD", auto_withdraw: true, withdraw_threshold: 40 }],
      ["a fractional threshold", { minimum_price: 1, default_currency: "USD", auto_withdraw: true, withdraw_threshold: 60.5 }],
      ["an unknown currency", { minimum_price: 1, default_currency: "JPY", auto_withdraw: false, withdraw_threshold: 50 }],
    ])("refuses artist payment settings with %s", async (_, settings) => {
      const error = await errorOf(
        db().query("update artist_payout_settings set payment_settings = $2 where artist_id = $1", [artist.id, JSON.stringify(settings)]),
      );
      expect(error.code).toBe("23514");
    });

    it("refuses news of an unknown type", async () => {
      const error = await errorOf(db().query(`insert into news_items (title, content, type) values ('t', 'c', 'alert')`));
      expect(error.code).toBe("23514");
    });

    it("defaults a news item to active info", async () => {
      const { rows } = await db().query(`insert into news_items (title, content) values ('t', 'c') returning type, active`);
      expect(rows[0]).toEqual({ type: "info", active: true });
    });

    it("lets a stored file be named only through the marketplace, and cleared by anyone who may edit the row", async () => {
      const path = `${artist.id}/1700000000000-aaaaaaaa.mp3`;
      const name = (claims: Claims, tx = as) =>
        tx(db(), claims, (q) => q.query("update tracks set file_url = $2 where id = $1", [trackId, path]));
      expect((await errorOf(name(artist.claims))).code).toBe("42501");
      await name(artist.claims, asMarketplace);
      expect((await db().query("select file_url from tracks where id = $1", [trackId])).rows[0].file_url).toBe(path);
      // the same value again, or none, names nothing new
      await as(db(), artist.claims, (q) => q.query("update tracks set file_url = $2, title = 'Renamed' where id = $1", [trackId, path]));
      await as(db(), artist.claims, (q) => q.query("update tracks set file_url = null where id = $1", [trackId]));
      // the service role (an Edge Function) is not the API's user
      await as(db(), { role: "service_role" }, (q) => q.query("update tracks set file_url = $2 where id = $1", [trackId, path]));
    });

    it("keeps social links that are a handle or a profile address on their own network", async () => {
      const links = { twitter: "https://x.com/paperlanterns/", instagram: "@the.lanterns" };
      await db().query("update artist_profiles set social_links = $2 where id = $1", [artist.id, JSON.stringify(links)]);
      const { rows } = await db().query("select social_links from artist_profiles where id = $1", [artist.id]);
      expect(rows[0].social_links).toEqual(links);
    });

    it("refuses news and names past their lengths", async () => {
      const fan = await createFan(db(), "long-named");
      for (const sql of [
        `insert into news_items (title, content) values (repeat('t', 201), 'c')`,
        `insert into news_items (title, content) values ('t', repeat('c', 2001))`,
        `update fan_profiles set username = repeat('u', 51) where id = '${fan.id}'`,
        `update artist_profiles set artist_name = repeat('a', 101) where id = '${artist.id}'`,
      ]) {
        expect((await errorOf(db().query(sql))).code).toBe("23514");
      }
    });

    it("refuses a website that is not a URL and favourite genres off the list", async () => {
      expect((await errorOf(db().query(`update artist_profiles set website = 'example' where id = $1`, [artist.id]))).code).toBe("23514");
      const fan = await createFan(db());
      const error = await errorOf(db().query(`update fan_profiles set favorite_genres = '{Disco}' where id = $1`, [fan.id]));
      expect(error.code).toBe("23514");
    });
  });
});
