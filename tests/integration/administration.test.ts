// The administration Edge Functions (supabase/functions/admin-users, ban-user), run by Deno and called
// through the real supabase-js: an administrator lists and searches users, sends a password reset and
// bans and unbans; a fan, an artist, a visitor, a user whose user_metadata claims admin and a banned
// administrator's still-valid token are each refused. A ban ends the user's sessions and refresh tokens,
// their access token can no longer write, and the audit log records every action.
import { createClient, FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopFunctions, createUser, startTestStack } from "@crate/local-supabase/testing";
import type { LocalStack } from "@crate/local-supabase";
import { clientWith, createAdmin, createArtist, createFan, createTrack, signedInClient } from "./schema-fixtures.ts";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";

let local: LocalStack;
let admin: { id: string; client: SupabaseClient };
let refused: Record<string, SupabaseClient>;
const resetPage = "http://localhost:3000/reset-password";
const password = "a-long-password";
let serial = 0;
// The marketplace's Worker proves itself with the secret it registered: only it learns when a ban ends.
const workerSecret = "administration-test-worker-secret-0123456789";
const asWorker = () => clientWith(local, local.anonKey, { [marketplaceSecretHeader]: workerSecret });

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  await local.stack.db.query("select private.trust_marketplace_secret($1)", [workerSecret]);
  admin = await signedInClient(local, createAdmin(local.stack.db));
  const bannedAdmin = await signedInClient(local, createAdmin(local.stack.db));
  await local.stack.db.query(`update auth.users set banned_until = now() + interval '1 day' where id = $1`, [bannedAdmin.id]);
  refused = {
    visitor: clientWith(local, local.anonKey),
    fan: (await signedInClient(local, createFan(local.stack.db, "plain_fan"))).client,
    artist: (await signedInClient(local, createArtist(local.stack.db, "Plain Artist"))).client,
    "user_metadata admin": (await signedInClient(local, createUser(local.stack.db, { role: "admin" }))).client,
    "banned admin": bannedAdmin.client,
  };
});

afterAll(async () => {
  if (local) await stopFunctions(local.stack);
  await local?.close();
});

async function call(client: SupabaseClient, name: "admin-users" | "ban-user", body: Record<string, unknown>) {
  const { data, error } = await client.functions.invoke(name, { body });
  if (!error) return { status: 200, body: data };
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  return { status: response.status, body: await response.json() };
}

/** A user who signed up and in with a password: a real session, with its refresh token. */
async function signedUpUser(name: string) {
  const email = `${name}-${++serial}-${Date.now()}@example.test`;
  const service = createClient(local.url, local.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const created = await service.auth.admin.createUser({
    email,
    password,
    email_confirm: true,
    user_metadata: { role: "fan", username: `${name}_${serial}`, favorite_genres: [] },
  });
  expect(created.error).toBeNull();
  const client = createClient(local.url, local.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  return { id: created.data.user!.id, email, client, session: data.session! };
}

const auditOf = async (userId: string) =>
  (
    await local.stack.db.query<{ action: string; actor_id: string; summary: string; reason: string | null }>(
      "select action, actor_id, summary, reason from public.audit_log where target_id = $1 order by created_at",
      [userId],
    )
  ).rows;

describe("admin-users", () => {
  it("lists users newest first, 50 a page, with role, dates and ban", async () => {
    const newest = await signedUpUser("newest");
    const { status, body } = await call(admin.client, "admin-users", { action: "list" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ page: 1, perPage: 50 });
    const { rows } = await local.stack.db.query<{ total: number }>("select count(*)::int as total from auth.users");
    expect(body.total).toBe(rows[0].total);
    expect(body.users[0]).toMatchObject({ id: newest.id, email: newest.email, role: "fan", banned_until: null });
    expect(body.users[0].last_sign_in_at).toEqual(expect.any(String));
    expect(body.users.find((user: { id: string }) => user.id === admin.id)).toMatchObject({ role: "admin" });
  });

  it("reads each role from the database, not from the metadata a user may edit", async () => {
    const fan = await signedUpUser("claims-artist");
    // The user's own metadata is theirs to write (auth.updateUser), so it names nothing.
    expect((await fan.client.auth.updateUser({ data: { role: "artist" } })).error).toBeNull();
    const { body } = await call(admin.client, "admin-users", { action: "list", search: fan.email });
    expect(body.users).toEqual([expect.objectContaining({ id: fan.id, role: "fan" })]);
  });

  it("pages through more than 50 users and searches by a part of the email, whatever its case", async () => {
    await local.stack.db.query(
      `insert into auth.users (email, raw_user_meta_data) select 'crowd' || n || '@paging.test', '{}' from generate_series(1, 55) n`,
    );
    const all = (await call(admin.client, "admin-users", { action: "list", search: "@PAGING.test" })).body;
    expect(all.total).toBe(55);
    expect(all.users).toHaveLength(50);
    const second = (await call(admin.client, "admin-users", { action: "list", search: "@paging.test", page: 2 })).body;
    expect(second.users).toHaveLength(5);
    const ids = new Set([...all.users, ...second.users].map((user: { id: string }) => user.id));
    expect(ids.size).toBe(55);

    const one = (await call(admin.client, "admin-users", { action: "list", search: "crowd17@" })).body;
    expect(one.users.map((user: { email: string }) => user.email)).toEqual(["crowd17@paging.test"]);
  });

  it("sends a password reset whose link goes to /reset-password, and records it", async () => {
    const user = await signedUpUser("forgetful");
    const { status, body } = await call(admin.client, "admin-users", {
      action: "send_password_reset",
      user_id: user.id,
      redirect_to: resetPage,
    });
    expect(status).toBe(200);
    expect(body).toEqual({ sent: true });
    const mail = local.stack.outbox.messages.findLast((message) => message.to === user.email);
    const link = new URL(mail!.link!);
    expect(`${link.origin}${link.pathname}`).toBe(resetPage);
    // the link works in the user's browser, which never saw the request: no PKCE verifier needed
    const verified = await createClient(local.url, local.anonKey, { auth: { persistSession: false } }).auth.verifyOtp({
      token_hash: link.searchParams.get("token_hash")!,
      type: "recovery",
    });
    expect(verified.error).toBeNull();
    expect(await auditOf(user.id)).toEqual([{ action: "user.password_reset", actor_id: admin.id, summary: user.email, reason: null }]);
  });

  it("answers 404 for an unknown user and 400 for a bad request", async () => {
    const unknown = await call(admin.client, "admin-users", {
      action: "send_password_reset",
      user_id: crypto.randomUUID(),
      redirect_to: resetPage,
    });
    expect(unknown).toEqual({ status: 404, body: { code: "user_not_found" } });
    for (const body of [{ action: "drop_tables" }, { action: "list", page: 0 }, { action: "send_password_reset", user_id: "x" }]) {
      expect((await call(admin.client, "admin-users", body)).status).toBe(400);
    }
  });

  it.each(["visitor", "fan", "artist", "user_metadata admin", "banned admin"])("refuses %s", async (who) => {
    const target = await signedUpUser("untouched");
    const before = local.stack.outbox.messages.length;
    const list = await call(refused[who], "admin-users", { action: "list" });
    expect(list.status).toBe(who === "visitor" || who === "banned admin" ? 401 : 403);
    expect(list.body.users).toBeUndefined();
    const reset = await call(refused[who], "admin-users", { action: "send_password_reset", user_id: target.id, redirect_to: resetPage });
    expect([401, 403]).toContain(reset.status);
    expect(local.stack.outbox.messages.length).toBe(before);
    expect(await auditOf(target.id)).toEqual([]);
  });
});

describe("ban-user", () => {
  it("bans for the days asked, ends sessions and refresh tokens, refuses writes and sign-in, and records the reason", async () => {
    const user = await signedUpUser("troll");
    const artist = await createArtist(local.stack.db, "Commented Artist");
    const track = await createTrack(local.stack.db, artist.id);
    const userClient = clientWith(local, user.session.access_token);
    expect((await userClient.from("comments").insert({ track_id: track, content: "before the ban" })).error).toBeNull();

    const { status, body } = await call(admin.client, "ban-user", { user_id: user.id, days: 7, reason: "Spam in comments" });
    expect(status).toBe(200);
    const days = (Date.parse(body.banned_until) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);

    const sessions = await local.stack.db.query("select 1 from auth.sessions where user_id = $1", [user.id]);
    expect(sessions.rows).toEqual([]);
    const live = await local.stack.db.query("select 1 from auth.refresh_tokens where user_id = $1 and not revoked", [user.id]);
    expect(live.rows).toEqual([]);
    const refreshed = await user.client.auth.refreshSession({ refresh_token: user.session.refresh_token });
    expect(refreshed.error).not.toBeNull();
    // the access token is still signed and unexpired: it may not write
    const comment = await userClient.from("comments").insert({ track_id: track, content: "after the ban" });
    expect(comment.error?.code).toBe("42501");
    const signIn = await user.client.auth.signInWithPassword({ email: user.email, password });
    expect(signIn.error?.code).toBe("user_banned");
    const suspended = await asWorker().rpc("suspended_until", { email: user.email.toUpperCase(), password });
    expect(suspended.data).toBe(body.banned_until.replace("Z", "+00:00"));
    // not without the password Auth accepted, and never for anyone but the Worker
    expect((await asWorker().rpc("suspended_until", { email: user.email, password: "not-the-password" })).data).toBeNull();
    for (const caller of [createClient(local.url, local.anonKey), userClient]) {
      const asked = await caller.rpc("suspended_until", { email: user.email, password });
      expect(asked.data).toBeNull();
      expect(asked.error?.code).toBe("28000");
    }

    expect(await auditOf(user.id)).toEqual([{ action: "user.ban", actor_id: admin.id, summary: user.email, reason: "Spam in comments" }]);
    const listed = (await call(admin.client, "admin-users", { action: "list", search: user.email })).body.users;
    expect(listed[0].banned_until).toBe(body.banned_until);
  });

  it("lifts a ban: the user signs in again, and it is recorded", async () => {
    const user = await signedUpUser("forgiven");
    await call(admin.client, "ban-user", { user_id: user.id, days: 30, reason: "" });
    const { status, body } = await call(admin.client, "ban-user", { user_id: user.id, unban: true });
    expect(status).toBe(200);
    expect(body).toEqual({ banned_until: null });
    expect((await user.client.auth.signInWithPassword({ email: user.email, password })).error).toBeNull();
    expect((await asWorker().rpc("suspended_until", { email: user.email, password })).data).toBeNull();
    expect((await auditOf(user.id)).map((entry) => [entry.action, entry.reason])).toEqual([
      ["user.ban", null],
      ["user.unban", null],
    ]);
  });

  it("refuses a ban of less than a whole day, a bad id, and banning oneself", async () => {
    const user = await signedUpUser("spared");
    for (const days of [0, -3, 1.5, "30", null]) {
      expect(await call(admin.client, "ban-user", { user_id: user.id, days, reason: "x" })).toEqual({
        status: 400,
        body: { code: "invalid_request" },
      });
    }
    expect((await call(admin.client, "ban-user", { user_id: "not-a-user", days: 3 })).status).toBe(400);
    expect(await call(admin.client, "ban-user", { user_id: crypto.randomUUID(), days: 3 })).toEqual({
      status: 404,
      body: { code: "user_not_found" },
    });
    expect(await call(admin.client, "ban-user", { user_id: admin.id, days: 3 })).toEqual({
      status: 400,
      body: { code: "cannot_ban_yourself" },
    });
    const { rows } = await local.stack.db.query("select 1 from auth.users where id = $1 and banned_until is not null", [user.id]);
    expect(rows).toEqual([]);
  });

  it.each(["visitor", "fan", "artist", "user_metadata admin", "banned admin"])("refuses %s", async (who) => {
    const target = await signedUpUser("target");
    const ban = await call(refused[who], "ban-user", { user_id: target.id, days: 30, reason: "hostile" });
    expect(ban.status).toBe(who === "visitor" || who === "banned admin" ? 401 : 403);
    const { rows } = await local.stack.db.query("select 1 from auth.users where id = $1 and banned_until is not null", [target.id]);
    expect(rows).toEqual([]);
    expect((await local.stack.db.query("select 1 from auth.sessions where user_id = $1", [target.id])).rows).toHaveLength(1);
  });
});

describe("record_user_administration", () => {
  it("is the service role's alone: an administrator cannot write the audit log or end sessions through the API", async () => {
    const target = await signedUpUser("bystander");
    const forged = await admin.client.rpc("record_user_administration", {
      actor_id: admin.id,
      actor_email: "someone@else.test",
      action: "user.ban",
      user_id: target.id,
      user_email: target.email,
    });
    expect(forged.error?.code).toBe("42501");
    expect(await auditOf(target.id)).toEqual([]);
    expect((await local.stack.db.query("select 1 from auth.sessions where user_id = $1", [target.id])).rows).toHaveLength(1);
  });
});
