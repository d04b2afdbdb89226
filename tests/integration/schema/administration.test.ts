import { describe, expect, it } from "vitest";
import { createUser, type Claims } from "@crate/local-supabase/testing";
import { createAdmin, createFan } from "../schema-fixtures.ts";
import { as, asMarketplace, describeOnTestDatabase, errorOf, visitor } from "./harness.ts";

// The database's own rules for administration (08_administration.sql): who is an administrator, bans,
// sessions and the audit, checked in SQL as each role on embedded PGlite, and on PostgreSQL when npm run
// test:postgres names one.

describeOnTestDatabase("administration", (db) => {
  describe("administration", () => {
    it("knows admins from app_metadata only", async () => {
      const admin = await createAdmin(db());
      const pretender = await createUser(db(), { role: "admin" });
      const isAdmin = (claims: Claims) =>
        as(db(), claims, async (tx) => (await tx.query<{ is_admin: boolean }>("select is_admin()")).rows[0].is_admin);
      expect(await isAdmin(admin.claims)).toBe(true);
      expect(await isAdmin(pretender.claims)).toBe(false);
      expect(await isAdmin(visitor)).toBe(false);
    });

    it("stops knowing a banned admin as one, though their token still says admin", async () => {
      const admin = await createAdmin(db());
      await db().query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [admin.id]);
      const { rows } = await as(db(), admin.claims, (tx) => tx.query<{ is_admin: boolean }>("select is_admin()"));
      expect(rows[0].is_admin).toBe(false);
    });

    it("ends a banned user's sessions with the audit entry, for the service role only", async () => {
      const admin = await createAdmin(db());
      const fan = await createFan(db());
      const { rows: sessions } = await db().query<{ id: string }>("insert into auth.sessions (user_id) values ($1) returning id", [fan.id]);
      await db().query(`insert into auth.refresh_tokens (token, user_id, session_id) values ('rt-ban', $1, $2)`, [fan.id, sessions[0].id]);
      const record = `select record_user_administration($1, 'admin@example.test', 'user.ban', $2, 'fan@example.test', ' spam ')`;

      expect((await errorOf(as(db(), admin.claims, (tx) => tx.query(record, [admin.id, fan.id])))).code).toBe("42501");
      expect((await db().query("select 1 from auth.sessions where user_id = $1", [fan.id])).rows).toHaveLength(1);

      await as(db(), { role: "service_role" }, (tx) => tx.query(record, [admin.id, fan.id]));
      expect((await db().query("select 1 from auth.sessions where user_id = $1", [fan.id])).rows).toEqual([]);
      expect((await db().query("select 1 from auth.refresh_tokens where user_id = $1::text and not revoked", [fan.id])).rows).toEqual([]);
      const { rows } = await db().query("select actor_id, action, summary, reason from audit_log where target_id = $1", [fan.id]);
      expect(rows).toEqual([{ actor_id: admin.id, action: "user.ban", summary: "fan@example.test", reason: "spam" }]);

      const notAUserAction = `select record_user_administration($1, null, 'news.delete', $2, 'x', null)`;
      expect((await errorOf(as(db(), { role: "service_role" }, (tx) => tx.query(notAUserAction, [admin.id, fan.id])))).code).toBe("22023");
    });

    it("tells when a suspension ends, for banned accounts only, to the marketplace with the right password", async () => {
      const fan = await createFan(db());
      await db().query(
        "update auth.users set encrypted_password = extensions.crypt('the-password', extensions.gen_salt('bf')) where id = $1",
        [fan.id],
      );
      const until = async (email: string, password = "the-password") =>
        (
          await asMarketplace(db(), visitor, (tx) =>
            tx.query<{ until: string | null }>("select suspended_until($1, $2) as until", [email, password]),
          )
        ).rows[0].until;
      expect(await until(fan.email)).toBeNull();
      await db().query(`update auth.users set banned_until = now() + interval '3 days' where id = $1`, [fan.id]);
      expect(await until(` ${fan.email.toUpperCase()} `)).not.toBeNull();
      expect(await until(fan.email, "a-guess")).toBeNull();
      for (const claims of [visitor, fan.claims]) {
        const error = await errorOf(as(db(), claims, (tx) => tx.query("select suspended_until($1, 'the-password')", [fan.email])));
        expect(error.code).toBe("28000");
      }
      await db().query(`update auth.users set banned_until = now() - interval '1 second' where id = $1`, [fan.id]);
      expect(await until(fan.email)).toBeNull();
    });
  });
});
