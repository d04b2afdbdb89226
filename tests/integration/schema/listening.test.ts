import { describe, expect, it } from "vitest";
import { type Claims } from "@crate/local-supabase/testing";
import { createArtist, createFan, createTrack, tomorrow } from "../schema-fixtures.ts";
import { as, asMarketplace, describeOnTestDatabase, errorOf, marketplaceSecret, visitor } from "./harness.ts";

// The database's own rules for listening (06_listening.sql): honest play counts through the marketplace
// alone, checked in SQL as each role on embedded PGlite, and on PostgreSQL when npm run test:postgres names
// one.

describeOnTestDatabase("listening", (db) => {
  describe("plays", () => {
    it("records a play with the track artist and the listener, or no listener for a visitor", async () => {
      const artist = await createArtist(db());
      const fan = await createFan(db());
      const trackId = await createTrack(db(), artist.id);
      await asMarketplace(db(), fan.claims, (tx) => tx.query("select record_play($1)", [trackId]));
      await asMarketplace(db(), visitor, (tx) => tx.query("select record_play($1)", [trackId]));
      const { rows } = await db().query(
        "select type, artist_id, user_id from analytics_events where track_id = $1 order by user_id nulls last",
        [trackId],
      );
      expect(rows).toEqual([
        { type: "play", artist_id: artist.id, user_id: fan.id },
        { type: "play", artist_id: artist.id, user_id: null },
      ]);
    });

    it("counts a listener's play of a track once per 10 minutes, however often it is reported", async () => {
      const artist = await createArtist(db());
      const fan = await createFan(db());
      const trackId = await createTrack(db(), artist.id);
      const play = (claims: Claims, listener: string | null, address: string | null) =>
        asMarketplace(
          db(),
          claims,
          async (tx) =>
            (await tx.query<{ counted: boolean }>("select record_play($1, null, $2, $3) as counted", [trackId, listener, address])).rows[0]
              .counted,
        );
      const plays = async () =>
        (await db().query<{ n: number }>("select count(*)::int as n from analytics_events where track_id = $1", [trackId])).rows[0].n;

      const fanPlays: boolean[] = [];
      for (let i = 0; i < 50; i++) fanPlays.push(await play(fan.claims, `cookie-${i}`, `198.51.100.${i}`));
      expect(fanPlays.filter(Boolean)).toHaveLength(1);
      for (let i = 0; i < 5; i++) await play(visitor, "one-visitor", "203.0.113.9");
      expect(await plays()).toBe(2);
      // the same visitor id from another address is another listener
      expect(await play(visitor, "one-visitor", "203.0.113.10")).toBe(true);

      // 10 minutes later the fan's play counts again
      await db().query(`update private.recent_plays set played_at = now() - interval '11 minutes' where listener = $1`, [`user:${fan.id}`]);
      expect(await play(fan.claims, null, null)).toBe(true);
      expect(await plays()).toBe(4);
    });

    it("refuses a burst of plays from one address, and a banned user's plays", async () => {
      const artist = await createArtist(db());
      const fan = await createFan(db());
      const tracks: string[] = [];
      for (let i = 0; i < 31; i++) tracks.push(await createTrack(db(), artist.id, { title: `Burst ${i}` }));
      const play = (trackId: string, listener: string) =>
        asMarketplace(db(), visitor, (tx) => tx.query("select record_play($1, null, $2, '192.0.2.77')", [trackId, listener]));
      for (let i = 0; i < 30; i++) await play(tracks[i]!, `rotating-${i}`);
      expect((await errorOf(play(tracks[30]!, "rotating-30"))).code).toBe("54000");
      // A fan behind the same address is held to their own account's pace, not locked out by the burst.
      const fanPlay = (trackId: string) =>
        asMarketplace(db(), fan.claims, (tx) => tx.query("select record_play($1, null, null, '192.0.2.77')", [trackId]));
      for (let i = 0; i < 30; i++) await fanPlay(tracks[i]!);
      expect((await errorOf(fanPlay(tracks[30]!))).code).toBe("54000");

      await db().query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [fan.id]);
      expect((await errorOf(asMarketplace(db(), fan.claims, (tx) => tx.query("select record_play($1)", [tracks[0]])))).code).toBe("42501");
    });

    it("records no play of an unreleased track for anyone but its artist", async () => {
      const artist = await createArtist(db());
      const fan = await createFan(db());
      const trackId = await createTrack(db(), artist.id, { release_date: tomorrow() });
      expect((await errorOf(asMarketplace(db(), fan.claims, (tx) => tx.query("select record_play($1)", [trackId])))).code).toBe("P0002");
      await asMarketplace(db(), artist.claims, (tx) => tx.query("select record_play($1)", [trackId]));
    });

    it("records plays only for the marketplace's server, which proves it with its registered secret", async () => {
      const artist = await createArtist(db());
      const fan = await createFan(db());
      const trackId = await createTrack(db(), artist.id);
      for (const claims of [visitor, fan.claims]) {
        expect(
          (await errorOf(as(db(), claims, (tx) => tx.query("select record_play($1, null, 'forged', '192.0.2.1')", [trackId])))).code,
        ).toBe("28000");
        const wrongSecret = asMarketplace(db(), claims, (tx) => tx.query("select record_play($1)", [trackId]), `${marketplaceSecret}-not`);
        expect((await errorOf(wrongSecret)).code).toBe("28000");
        // nobody but the operator registers a secret
        expect((await errorOf(as(db(), claims, (tx) => tx.query("select private.trust_marketplace_secret(repeat('x', 40))")))).code).toBe(
          "42501",
        );
        expect((await errorOf(as(db(), claims, (tx) => tx.query("select * from private.marketplace_secrets")))).code).toBe("42501");
      }
      expect(
        (await db().query<{ n: number }>("select count(*)::int as n from analytics_events where track_id = $1", [trackId])).rows[0].n,
      ).toBe(0);
      expect((await errorOf(db().query("select private.trust_marketplace_secret('short')"))).code).toBe("22023");
    });

    it("refuses events written directly", async () => {
      const artist = await createArtist(db());
      const trackId = await createTrack(db(), artist.id);
      const error = await errorOf(
        as(db(), artist.claims, (tx) =>
          tx.query(`insert into analytics_events (type, track_id, artist_id) values ('play', $1, $2)`, [trackId, artist.id]),
        ),
      );
      expect(error.code).toBe("42501");
    });
  });
});
