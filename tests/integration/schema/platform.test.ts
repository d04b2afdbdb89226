import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Claims } from "@crate/local-supabase/testing";
import { createFan } from "../schema-fixtures.ts";
import { as, describeOnTestDatabase, errorOf, visitor } from "./harness.ts";

// The database's own rules for the platform Supabase provides: roles, claims, statement limits, storage
// paths, buckets and realtime, checked in SQL as each role on embedded PGlite, and on PostgreSQL when npm run
// test:postgres names one.

const platformSql = readFileSync(join(import.meta.dirname, "../../../supabase/local/platform.sql"), "utf8");

describeOnTestDatabase("platform", (db, backend) => {
  describe("platform", () => {
    it("applies again without changing anything", async () => {
      await db().exec(platformSql);
      const { rows } = await db().query<{ n: number }>(`select count(*)::int as n from pg_roles where rolname in
        ('anon', 'authenticated', 'service_role', 'authenticator')`);
      expect(rows[0].n).toBe(4);
    });

    it("stops a visitor's statement after 3 s and a signed-in user's after 8 s, as hosted Supabase does", async () => {
      const timeoutFor = async (claims: Claims) =>
        (await as(db(), claims, (tx) => tx.query<{ timeout: string }>("select current_setting('statement_timeout') as timeout"))).rows[0]
          .timeout;
      expect(await timeoutFor(visitor)).toBe("3s");
      expect(await timeoutFor((await createFan(db(), "timed_fan")).claims)).toBe("8s");
      // PGlite runs no timers, so only PostgreSQL can stop the statement (docs/site.md says so).
      if (backend.name === "postgres") {
        expect((await errorOf(as(db(), visitor, (tx) => tx.query("select pg_sleep(3.5)")))).code).toBe("57014");
      }
    });

    it("reads the caller from the JWT claims like Supabase", async () => {
      const user = await createFan(db());
      const row = await as(db(), user.claims, async (tx) => {
        const { rows } = await tx.query<{ uid: string; role: string; email: string; jwt: { sub: string } }>(
          "select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() as jwt",
        );
        return rows[0];
      });
      expect(row).toMatchObject({ uid: user.id, role: "authenticated", email: user.email, jwt: { sub: user.id } });
    });

    it("splits storage paths like Supabase", async () => {
      const { rows } = await db().query(
        `select storage.foldername('u1/covers/a.png') as folders, storage.filename('u1/covers/a.png') as file,
                storage.extension('u1/covers/a.png') as ext`,
      );
      expect(rows[0]).toEqual({ folders: ["u1", "covers"], file: "a.png", ext: "png" });
    });
  });

  describe("storage and realtime", () => {
    it("creates the tracks and artwork buckets with their limits", async () => {
      const { rows } = await db().query<{ id: string; public: boolean; file_size_limit: number; allowed_mime_types: string[] }>(
        "select id, public, file_size_limit, allowed_mime_types from storage.buckets order by id",
      );
      expect(rows.map(({ id, public: isPublic, file_size_limit }) => ({ id, isPublic, file_size_limit }))).toEqual([
        { id: "artwork", isPublic: true, file_size_limit: 5242880 },
        { id: "tracks", isPublic: false, file_size_limit: 52428800 },
      ]);
      expect(rows[0].allowed_mime_types).toEqual(["image/jpeg", "image/png", "image/webp"]);
      expect(rows[1].allowed_mime_types).toEqual(expect.arrayContaining(["audio/mpeg", "audio/wav", "audio/aac", "audio/ogg"]));
    });

    it("publishes purchases, analytics events, comments and notifications to realtime", async () => {
      const { rows } = await db().query<{ tablename: string }>(
        `select tablename from pg_publication_tables where pubname = 'supabase_realtime' order by tablename`,
      );
      expect(rows.map((r) => r.tablename)).toEqual(["analytics_events", "comments", "notifications", "purchases"]);
    });
  });
});
