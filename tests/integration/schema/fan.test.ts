import { describe, expect, it } from "vitest";
import { createArtist, createFan } from "../schema-fixtures.ts";
import { as, describeOnTestDatabase, errorOf, visitor } from "./harness.ts";

// The database's own rules for fans (05_fan.sql): follows and follower counts, checked in SQL as each role on
// embedded PGlite, and on PostgreSQL when npm run test:postgres names one.

describeOnTestDatabase("fan", (db) => {
  describe("followers", () => {
    it("keeps follower_count exact through follows and unfollows, and refuses self and double follows", async () => {
      const artist = await createArtist(db());
      const fans = await Promise.all(Array.from({ length: 6 }, () => createFan(db())));
      await Promise.all(
        fans.map((fan) =>
          as(db(), fan.claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $2)", [artist.id, fan.id])),
        ),
      );
      await as(db(), fans[0].claims, (tx) => tx.query("delete from followers where artist_id = $1", [artist.id]));

      const count = await as(db(), visitor, async (tx) => {
        const { rows } = await tx.query<{ n: number }>("select get_follower_count($1) as n", [artist.id]);
        return rows[0].n;
      });
      expect(count).toBe(5);

      const self = await errorOf(
        as(db(), artist.claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $1)", [artist.id])),
      );
      expect(self.code).toBe("23514");
      const twice = await errorOf(
        as(db(), fans[1].claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $2)", [artist.id, fans[1].id])),
      );
      expect(twice.code).toBe("23505");
    });

    it("lets an artist follow another artist and names followers by their profile", async () => {
      const [artist, other] = [await createArtist(db(), "Followed"), await createArtist(db(), "Follower Band")];
      await as(db(), other.claims, (tx) => tx.query("insert into followers (artist_id, fan_id) values ($1, $2)", [artist.id, other.id]));
      const { rows } = await as(db(), visitor, (tx) =>
        tx.query("select display_name, is_fan from artist_followers where artist_id = $1", [artist.id]),
      );
      expect(rows).toEqual([{ display_name: "Follower Band", is_fan: false }]);
    });
  });
});
