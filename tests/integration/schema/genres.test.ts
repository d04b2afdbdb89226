import { describe, expect, it } from "vitest";
import { createUser } from "@crate/local-supabase/testing";
import { createArtist, createFan, createTrack, tomorrow } from "../schema-fixtures.ts";
import { as, describeOnTestDatabase, errorOf, visitor } from "./harness.ts";

// The database's own rules for genres (03_genres.sql): the genre pages, the counts and the roll-ups behind
// them, checked in SQL as each role on embedded PGlite, and on PostgreSQL when npm run test:postgres names
// one.

describeOnTestDatabase("genres", (db) => {
  describe("genre pages", () => {
    it("list the artists tagged with the genre (0 tracks allowed) and those with tracks in it, most tracks first", async () => {
      const tagged = await createUser(db(), {
        role: "artist",
        artist_name: "Tagged Only",
        paypal_email: "p@example.test",
        genres: ["Blues"],
      });
      const releasing = await createArtist(db(), "Releasing Untagged");
      await createTrack(db(), releasing.id, { genre: "Blues" });
      const page = await as(
        db(),
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
        (await as(db(), visitor, (tx) => tx.query<{ genre: string | null }>("select genre_page($1) ->> 'genre' as genre", [name]))).rows[0]
          .genre;
      expect(await genreOf("r&b")).toBe("R&B");
      expect(await genreOf("No Such Genre")).toBeNull();
    });
  });

  describe("catalog counts", () => {
    it("counts tracks per artist and genre from what the reader may see", async () => {
      // Classical: a genre no other test here releases in, so its figures are this artist's
      const artist = await createArtist(db(), "Counted");
      await createTrack(db(), artist.id, { genre: "Classical" });
      await createTrack(db(), artist.id, { genre: "Classical" });
      await createTrack(db(), artist.id, { genre: "Classical", release_date: tomorrow() });

      const forVisitor = await as(db(), visitor, async (tx) => ({
        genre: (await tx.query(`select artist_count, track_count from genre_counts where genre = 'Classical'`)).rows[0],
        perArtist: (await tx.query(`select genre_page('classical') -> 'artists' -> 0 -> 'track_count' as track_count`)).rows,
      }));
      expect(forVisitor).toEqual({
        genre: { artist_count: 1, track_count: 2 },
        perArtist: [{ track_count: 2 }],
      });
      const forArtist = await as(db(), artist.claims, (tx) =>
        tx.query(`select (artist_directory('Counted') -> 'artists' -> 0 ->> 'track_count')::int as track_count`),
      );
      expect(forArtist.rows).toEqual([{ track_count: 3 }]);
    });
  });

  describe("genre rollups", () => {
    // What the rollups must always equal: released tracks counted directly.
    async function expectRollupsExact() {
      const sorted = <T extends { genre: string }>(rows: T[]) => [...rows].sort((a, b) => (a.genre < b.genre ? -1 : 1));
      const perGenre = await db().query<{ genre: string; artist_count: number; track_count: number }>(
        "select genre, artist_count, track_count from private.genre_figures()",
      );
      const counted = await db().query<{ genre: string; artist_count: number; track_count: number }>(
        `select genre, count(distinct artist_id)::integer as artist_count, count(*)::integer as track_count
         from public.tracks where release_date <= current_date group by genre`,
      );
      expect(sorted(perGenre.rows)).toEqual(sorted(counted.rows));

      const perArtist = await db().query<{ rollup: unknown; counted: unknown }>(
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
      const first = await createArtist(db(), "Rollup One");
      const second = await createArtist(db(), "Rollup Two");
      await expectRollupsExact();

      // several tracks in one statement, one of them scheduled (Country and Metal: genres only this test releases in)
      await db().query(
        `insert into public.tracks (artist_id, title, genre, price, description, release_date)
         select a, 'Bulk', g, 1.99, 'A track', d
         from (values ($1::uuid, 'Country', current_date - 3), ($1::uuid, 'Country', current_date),
                      ($2::uuid, 'Country', current_date - 1), ($2::uuid, 'Metal', current_date + 5)) v(a, g, d)`,
        [first.id, second.id],
      );
      await expectRollupsExact();
      expect((await db().query("select artist_count, track_count from private.genre_figures() where genre = 'Metal'")).rows).toEqual([]);

      // a scheduled release counts from its date, without a write to the rollups
      const scheduled = await createTrack(db(), first.id, { genre: "Metal", release_date: tomorrow() });
      await expectRollupsExact();
      await db().query("update public.tracks set release_date = current_date where id = $1", [scheduled]);
      await expectRollupsExact();

      // a genre changed, then all of an artist's tracks moved at once
      await db().query(
        "update public.tracks set genre = 'Metal' where id = (select id from public.tracks where artist_id = $1 and genre = 'Country' limit 1)",
        [first.id],
      );
      await expectRollupsExact();
      await db().query("update public.tracks set genre = 'Country' where artist_id = $1", [second.id]);
      await expectRollupsExact();

      // a profile's genres changed: a tagged genre with no track lists the artist with 0
      await db().query("update public.artist_profiles set genres = array['Jazz', 'Folk'] where id = $1", [first.id]);
      await expectRollupsExact();
      await db().query("update public.artist_profiles set genres = array['Folk'] where id = $1", [first.id]);
      await expectRollupsExact();

      // tracks removed, then a whole artist with their tracks
      await db().query("delete from public.tracks where artist_id = $1 and genre = 'Metal'", [first.id]);
      await expectRollupsExact();
      await db().query("delete from auth.users where id = $1", [second.id]);
      await expectRollupsExact();
      expect(
        (await db().query("select count(*)::integer as n from private.artist_genre_tracks where artist_id = $1", [second.id])).rows,
      ).toEqual([{ n: 0 }]);
    });

    it("are read only through the catalog's own answers", async () => {
      for (const claims of [visitor, (await createFan(db(), "rollup_reader")).claims]) {
        for (const table of ["private.artist_genre_tracks", "private.genre_tracks"]) {
          expect((await errorOf(as(db(), claims, (tx) => tx.query(`select * from ${table}`)))).code).toBe("42501");
          expect((await errorOf(as(db(), claims, (tx) => tx.query(`delete from ${table}`)))).code).toBe("42501");
        }
        expect(
          (
            await errorOf(
              as(db(), claims, (tx) => tx.query("select private.count_genre_tracks(array[gen_random_uuid()], array['Rock'], array[1000])")),
            )
          ).code,
        ).toBe("42501");
        expect((await errorOf(as(db(), claims, (tx) => tx.query("select * from private.scheduled_genre_tracks()")))).code).toBe("42501");
      }
    });
  });
});
