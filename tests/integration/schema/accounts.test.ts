import { describe, expect, it } from "vitest";
import { createUser, type Claims } from "@crate/local-supabase/testing";
import { createAdmin, createArtist, createFan } from "../schema-fixtures.ts";
import { as, describeOnTestDatabase, errorOf, visitor } from "./harness.ts";

// The database's own rules for accounts (02_accounts.sql): profiles made with the user, roles from the
// profile rows, checked in SQL as each role on embedded PGlite, and on PostgreSQL when npm run test:postgres
// names one.

describeOnTestDatabase("accounts", (db) => {
  describe("profiles created with the user", () => {
    it("creates an artist profile and payout settings from the sign-up metadata", async () => {
      const user = await createUser(db(), {
        role: "artist",
        artist_name: "  Night Owls ",
        paypal_email: "owls@example.test",
        bio: "Synths",
        genres: ["Electronic", "Pop"],
      });
      const profile = await db().query("select artist_name, bio, genres, follower_count from artist_profiles where id = $1", [user.id]);
      expect(profile.rows).toEqual([{ artist_name: "Night Owls", bio: "Synths", genres: ["Electronic", "Pop"], follower_count: 0 }]);
      const payout = await db().query("select paypal_email, payment_settings from artist_payout_settings where artist_id = $1", [user.id]);
      expect(payout.rows).toEqual([
        {
          paypal_email: "owls@example.test",
          payment_settings: { minimum_price: 1, default_currency: "USD", auto_withdraw: false, withdraw_threshold: 50 },
        },
      ]);
    });

    it("creates a fan profile and payout settings from the sign-up metadata", async () => {
      const user = await createUser(db(), { role: "fan", username: "lena", favorite_genres: ["Jazz", "R&B"] });
      const profile = await db().query("select username, favorite_genres from fan_profiles where id = $1", [user.id]);
      expect(profile.rows).toEqual([{ username: "lena", favorite_genres: ["Jazz", "R&B"] }]);
      const payout = await db().query("select payment_settings from fan_payout_settings where fan_id = $1", [user.id]);
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
      const error = await errorOf(db().query("insert into auth.users (email, raw_user_meta_data) values ($1, $2)", [email, metadata]));
      expect(error.message).toContain(message);
      const { rows } = await db().query("select 1 from auth.users where email = $1", [email]);
      expect(rows).toEqual([]);
    });

    it("gives users without a role (administrators) no profile", async () => {
      const admin = await createAdmin(db());
      const { rows } = await db().query(
        "select (select count(*) from artist_profiles where id = $1)::int + (select count(*) from fan_profiles where id = $1)::int as n",
        [admin.id],
      );
      expect(rows[0]).toEqual({ n: 0 });
    });
  });

  describe("account roles", () => {
    it("come from the profile rows, never from metadata the user can edit, with the profile's name", async () => {
      const artist = await createArtist(db(), "Real Artist");
      const fan = await createFan(db(), "plain_fan_role");
      const admin = await createAdmin(db());
      const accountOf = async (claims: Claims) =>
        (await as(db(), claims, (tx) => tx.query<{ account: unknown }>("select account() as account"))).rows[0].account;
      expect(await accountOf(artist.claims)).toEqual({ role: "artist", name: "Real Artist" });
      expect(await accountOf(fan.claims)).toEqual({ role: "fan", name: "plain_fan_role" });
      expect(await accountOf(admin.claims)).toBeNull();
      await db().query(`update auth.users set raw_user_meta_data = raw_user_meta_data || '{"role": "artist"}' where id = $1`, [fan.id]);
      expect(await accountOf({ ...fan.claims, user_metadata: { role: "artist" } })).toEqual({ role: "fan", name: "plain_fan_role" });
      // a rename shows at once (sign-up metadata keeps the old name)
      await db().query("update fan_profiles set username = 'renamed_fan_role' where id = $1", [fan.id]);
      expect(await accountOf(fan.claims)).toEqual({ role: "fan", name: "renamed_fan_role" });
      expect((await errorOf(as(db(), visitor, (tx) => tx.query("select account()")))).code).toBe("42501");
    });
  });
});
