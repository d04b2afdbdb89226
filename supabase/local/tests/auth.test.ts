// The local stack's Auth (GoTrue subset), driven by the real supabase-js and @supabase/ssr clients: what
// they send, what they read back, and the rules the product relies on (profiles made at sign-up, token
// rotation, bans, password recovery, safe redirects, rate limits).
import { createServerClient } from "@supabase/ssr";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAllowedRedirect } from "../auth/redirects.ts";
import { localDefaults, projectRecoveryTemplate } from "../config.ts";
import type { LocalStack } from "../server.ts";
import { startTestStack } from "../testing.ts";

let local: LocalStack;

// The tests stand in for a trusted proxy: their X-Forwarded-For is believed with this secret.
const forwardedSecret = "test-proxy-secret";

beforeAll(async () => {
  local = await startTestStack({ seed: false, forwardedSecret });
});

afterAll(async () => {
  await local?.close();
});

const auth = { persistSession: false, autoRefreshToken: false };
const password = "correct horse battery";
let serial = 0;

// Each client comes from its own address, so the /token rate limit of one test never spills into another.
function client(): SupabaseClient {
  return createClient(local.url, local.anonKey, { auth, global: { headers: proxied() } });
}

/** Headers of a request the trusted proxy forwards for a new address. */
function proxied(): Record<string, string> {
  return { "x-forwarded-for": nextAddress(), "x-forwarded-secret": forwardedSecret };
}

function adminClient(): SupabaseClient {
  return createClient(local.url, local.serviceRoleKey, { auth });
}

function nextAddress(): string {
  serial += 1;
  return `10.0.${Math.floor(serial / 250)}.${(serial % 250) + 1}`;
}

function uniqueEmail(name: string): string {
  serial += 1;
  return `${name}-${serial}@example.test`;
}

const artistMetadata = { role: "artist", artist_name: "The Testers", paypal_email: "pay@example.test", genres: ["Rock"] };
const fanMetadata = { role: "fan", username: "listener", favorite_genres: ["Jazz"] };

async function signedUp(metadata: Record<string, unknown> = fanMetadata) {
  const supabase = client();
  const email = uniqueEmail("user");
  const { data, error } = await supabase.auth.signUp({ email, password, options: { data: metadata } });
  expect(error).toBeNull();
  return { supabase, email, user: data.user!, session: data.session! };
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1], "base64url").toString("utf8"));
}

/** @supabase/ssr as the Worker uses it: a new server client per request, sharing only a cookie jar. */
function cookieJarClients() {
  const jar = new Map<string, string>();
  return () =>
    createServerClient(local.url, local.anonKey, {
      global: { headers: proxied() },
      cookies: {
        getAll: () => [...jar].map(([name, value]) => ({ name, value })),
        setAll: (cookies) => {
          for (const { name, value, options } of cookies) {
            if (options?.maxAge === 0 || value === "") jar.delete(name);
            else jar.set(name, value);
          }
        },
      },
    });
}

function lastMailTo(email: string) {
  const mail = local.stack.outbox.messages.findLast((m) => m.to === email);
  expect(mail?.link).toBeTruthy();
  return mail!;
}

async function follow(link: string): Promise<URL> {
  const response = await fetch(link, { redirect: "manual" });
  expect(response.status).toBe(303);
  return new URL(response.headers.get("location")!);
}

describe("sign-up", () => {
  it("creates an artist with their profile and answers with a session carrying GoTrue’s claims", async () => {
    const { user, session, email } = await signedUp(artistMetadata);
    expect(user.email).toBe(email);
    expect(user.user_metadata).toMatchObject(artistMetadata);
    expect(user.app_metadata).toEqual({ provider: "email", providers: ["email"] });
    const { rows } = await local.stack.db.query("select artist_name, genres from public.artist_profiles where id = $1", [user.id]);
    expect(rows).toEqual([{ artist_name: "The Testers", genres: ["Rock"] }]);

    const claims = claimsOf(session.access_token);
    expect(claims).toMatchObject({
      sub: user.id,
      aud: "authenticated",
      role: "authenticated",
      iss: `${local.url}/auth/v1`,
      email,
      phone: "",
      aal: "aal1",
      is_anonymous: false,
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { role: "artist" },
    });
    expect(claims.exp).toBe((claims.iat as number) + 3600);
    expect(claims.amr).toEqual([{ method: "password", timestamp: expect.any(Number) }]);
    expect(typeof claims.session_id).toBe("string");
    expect(session.expires_in).toBe(3600);
  });

  it("creates a fan with their profile", async () => {
    const { user } = await signedUp(fanMetadata);
    const { rows } = await local.stack.db.query("select username, favorite_genres from public.fan_profiles where id = $1", [user.id]);
    expect(rows).toEqual([{ username: "listener", favorite_genres: ["Jazz"] }]);
  });

  it("refuses metadata the profile trigger rejects, leaving no user behind", async () => {
    const email = uniqueEmail("bad");
    const { data, error } = await client().auth.signUp({
      email,
      password,
      options: { data: { ...artistMetadata, paypal_email: "not an email" } },
    });
    expect(data.session).toBeNull();
    expect(error).toMatchObject({ status: 500, message: "Database error saving new user" });
    const { rows } = await local.stack.db.query("select 1 from auth.users where email = $1", [email]);
    expect(rows).toEqual([]);
  });

  it("answers 422 user_already_exists for a taken email, whatever its case", async () => {
    const { email } = await signedUp();
    const { error } = await client().auth.signUp({ email: email.toUpperCase(), password, options: { data: fanMetadata } });
    expect(error).toMatchObject({ status: 422, code: "user_already_exists", message: "User already registered" });
  });

  it("refuses a password shorter than 8 characters as a weak password", async () => {
    const { error } = await client().auth.signUp({ email: uniqueEmail("weak"), password: "short", options: { data: fanMetadata } });
    expect(error?.name).toBe("AuthWeakPasswordError");
    expect(error).toMatchObject({ status: 422, code: "weak_password", reasons: ["length"] });
  });
});

describe("sign-in and sessions", () => {
  it("refuses a wrong password with 400 invalid_credentials", async () => {
    const { email } = await signedUp();
    const { error } = await client().auth.signInWithPassword({ email, password: "not the password" });
    expect(error).toMatchObject({ status: 400, code: "invalid_credentials", message: "Invalid login credentials" });
  });

  it("rotates refresh tokens, forgives a lost answer and revokes the session when a spent token comes back", async () => {
    const { supabase, session } = await signedUp();
    const first = session.refresh_token;
    const refresh = (refresh_token: string) => supabase.auth.refreshSession({ refresh_token });

    const second = (await refresh(first)).data.session!.refresh_token;
    expect(second).not.toBe(first);
    // the client never stored `second`: using `first` again hands back the same live token
    expect((await refresh(first)).data.session!.refresh_token).toBe(second);

    const third = (await refresh(second)).data.session!.refresh_token;
    // `first` is now two generations old; once the reuse window has passed it can only be a stolen copy
    await local.stack.db.query(`update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`, [first]);
    const stolen = await refresh(first);
    expect(stolen.error).toMatchObject({ status: 400, code: "refresh_token_already_used" });

    const { rows } = await local.stack.db.query<{ revoked: boolean }>("select revoked from auth.refresh_tokens where token = $1", [third]);
    expect(rows).toEqual([{ revoked: true }]);
    await local.stack.db.query(`update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`, [third]);
    expect((await refresh(third)).error).toMatchObject({ status: 400, code: "refresh_token_already_used" });
  });

  it("signs out: the refresh token is gone and the access token’s session no longer exists", async () => {
    const { supabase, session } = await signedUp();
    expect((await supabase.auth.signOut()).error).toBeNull();

    const refreshed = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toMatchObject({ status: 400, code: "refresh_token_not_found" });

    const { error } = await client().auth.getUser(session.access_token);
    expect(error?.name).toBe("AuthSessionMissingError");
  });

  it("treats a user whose session was ended elsewhere as signed out", async () => {
    const { supabase, email, user } = await signedUp();
    expect((await supabase.auth.getUser()).data.user?.id).toBe(user.id);

    const elsewhere = client();
    await elsewhere.auth.signInWithPassword({ email, password });
    await elsewhere.auth.signOut({ scope: "global" });

    const { data, error } = await supabase.auth.getUser();
    expect(data.user).toBeNull();
    expect(error?.name).toBe("AuthSessionMissingError");
  });

  it("updates the user’s metadata and password, ending their other sessions", async () => {
    const { supabase, email } = await signedUp();
    const other = client();
    const otherSession = (await other.auth.signInWithPassword({ email, password })).data.session!;

    const { data, error } = await supabase.auth.updateUser({
      password: "a brand new password",
      current_password: password,
      data: { username: "renamed" },
    });
    expect(error).toBeNull();
    expect(data.user?.user_metadata.username).toBe("renamed");
    expect((await supabase.auth.getUser()).error).toBeNull();
    expect((await client().auth.getUser(otherSession.access_token)).error?.name).toBe("AuthSessionMissingError");

    const same = await supabase.auth.updateUser({ password: "a brand new password", current_password: "a brand new password" });
    expect(same.error).toMatchObject({ status: 422, code: "same_password" });
    expect((await client().auth.signInWithPassword({ email, password: "a brand new password" })).error).toBeNull();
  });
});

describe("changing the password and the email", () => {
  const settingsPage = "http://localhost:3000/dashboard/artist/settings";

  it("asks for the current password before setting a new one, outside a recovery session", async () => {
    const { supabase, email } = await signedUp();
    const missing = await supabase.auth.updateUser({ password: "another long password" });
    expect(missing.error).toMatchObject({ status: 400, code: "current_password_required" });
    const wrong = await supabase.auth.updateUser({ password: "another long password", current_password: "not my password" });
    expect(wrong.error).toMatchObject({ status: 400, code: "current_password_invalid" });
    expect((await client().auth.signInWithPassword({ email, password })).error).toBeNull();

    const right = await supabase.auth.updateUser({ password: "another long password", current_password: password });
    expect(right.error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: "another long password" })).error).toBeNull();
  });

  it("changes the email once both addresses confirm, keeping the old one until then", async () => {
    const { supabase, email } = await signedUp();
    const next = uniqueEmail("moved");
    const { data, error } = await supabase.auth.updateUser({ email: next }, { emailRedirectTo: settingsPage });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: next });

    const toOld = lastMailTo(email);
    const toNew = lastMailTo(next);
    expect(toOld.subject).toBe("Confirm Email Change");
    expect(toNew.subject).toBe("Confirm Email Change");

    const first = await follow(toOld.link!);
    expect(`${first.origin}${first.pathname}`).toBe(settingsPage);
    expect(new URLSearchParams(first.hash.slice(1)).get("message")).toBe(
      "Confirmation link accepted. Please proceed to confirm link sent to the other email",
    );
    expect((await supabase.auth.getUser()).data.user).toMatchObject({ email, new_email: next });

    const second = await follow(toNew.link!);
    expect(new URLSearchParams(second.hash.slice(1)).get("access_token")).toBeTruthy();
    const { data: changed } = await supabase.auth.getUser();
    expect(changed.user?.email).toBe(next);
    expect(changed.user?.new_email).toBeUndefined();
    expect((await client().auth.signInWithPassword({ email: next, password })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password })).error?.code).toBe("invalid_credentials");

    // Each link works once.
    expect(new URLSearchParams((await follow(toNew.link!)).hash.slice(1)).get("error_code")).toBe("otp_expired");
  });

  it("refuses an address another account has", async () => {
    const { supabase } = await signedUp();
    const { email: taken } = await signedUp();
    const { error } = await supabase.auth.updateUser({ email: taken });
    expect(error).toMatchObject({ status: 422, code: "email_exists" });
  });

  it("finishes an email change through @supabase/ssr’s PKCE flow with the verifier kept in cookies", async () => {
    const { email } = await signedUp();
    const serverClient = cookieJarClients();
    expect((await serverClient().auth.signInWithPassword({ email, password })).error).toBeNull();
    const next = uniqueEmail("pkce-moved");
    expect((await serverClient().auth.updateUser({ email: next }, { emailRedirectTo: settingsPage })).error).toBeNull();
    expect(new URL(lastMailTo(next).link!).searchParams.get("token")).toMatch(/^pkce_/);

    await follow(lastMailTo(email).link!);
    const landing = await follow(lastMailTo(next).link!);
    const code = landing.searchParams.get("code")!;
    expect(code).toBeTruthy();
    const exchanged = await serverClient().auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(next);
  });
});

describe("admin", () => {
  it("lists users a page at a time with the headers listUsers reads", async () => {
    for (let i = 0; i < 3; i++) await signedUp();
    const { rows } = await local.stack.db.query<{ total: number }>("select count(*)::int as total from auth.users");
    const total = rows[0].total;
    const perPage = Math.ceil(total / 2);

    const first = await adminClient().auth.admin.listUsers({ page: 1, perPage });
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ total, nextPage: 2, lastPage: 2, aud: "authenticated" });
    expect(first.data.users).toHaveLength(perPage);

    const second = await adminClient().auth.admin.listUsers({ page: 2, perPage });
    expect(second.data).toMatchObject({ total, nextPage: null, lastPage: 2 });
    const ids = [...first.data.users, ...second.data.users].map((u) => u.id);
    expect(new Set(ids).size).toBe(total);
  });

  it("searches users by a part of their email with GoTrue's filter, counted and paged as the filter reads", async () => {
    const { email } = await signedUp();
    await signedUp();
    const search = async (filter: string) => {
      const response = await fetch(`${local.url}/auth/v1/admin/users?${new URLSearchParams({ filter, per_page: "10" })}`, {
        headers: { apikey: local.serviceRoleKey, authorization: `Bearer ${local.serviceRoleKey}` },
      });
      const body = (await response.json()) as { users: { email: string }[] };
      return { total: response.headers.get("x-total-count"), emails: body.users.map((u) => u.email), link: response.headers.get("link") };
    };
    const found = await search(email.slice(0, email.indexOf("@")));
    expect(found).toMatchObject({ total: "1", emails: [email] });
    expect(found.link).toContain("filter=");
    // % and _ are letters here, not patterns
    expect(await search("%")).toMatchObject({ total: "0", emails: [] });
  });

  it("refuses the admin API to anyone but the service role", async () => {
    const { supabase } = await signedUp();
    const { error } = await supabase.auth.admin.listUsers();
    expect(error).toMatchObject({ status: 403, code: "not_admin", message: "User not allowed" });
  });

  it("bans a user: no sign-in, no refresh, no user endpoint, until the ban is lifted", async () => {
    const email = uniqueEmail("banned");
    const created = await adminClient().auth.admin.createUser({ email, password, email_confirm: true, user_metadata: fanMetadata });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    const { session } = (await client().auth.signInWithPassword({ email, password })).data;

    const banned = await adminClient().auth.admin.updateUserById(id, { ban_duration: "720h" });
    expect(banned.error).toBeNull();
    expect(Date.parse(banned.data.user!.banned_until!)).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const signIn = await client().auth.signInWithPassword({ email, password });
    expect(signIn.error).toMatchObject({ status: 400, code: "user_banned" });
    const refresh = await client().auth.refreshSession({ refresh_token: session!.refresh_token });
    expect(refresh.error).toMatchObject({ status: 400, code: "user_banned" });
    const user = await client().auth.getUser(session!.access_token);
    expect(user.error).toMatchObject({ status: 403, code: "user_banned" });

    const lifted = await adminClient().auth.admin.updateUserById(id, { ban_duration: "none" });
    expect(lifted.data.user?.banned_until).toBeUndefined();
    expect((await client().auth.signInWithPassword({ email, password })).error).toBeNull();
  });

  it("deletes a user with their sessions", async () => {
    const { user, session } = await signedUp();
    expect((await adminClient().auth.admin.deleteUser(user.id)).error).toBeNull();
    expect((await adminClient().auth.admin.getUserById(user.id)).error).toMatchObject({ status: 404, code: "user_not_found" });
    const refreshed = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
  });

  it("refuses what the product never calls as not supported by the local stack", async () => {
    const settings = await fetch(`${local.url}/auth/v1/settings`, {
      headers: { apikey: local.anonKey, "x-supabase-api-version": "2024-01-01" },
    });
    expect(await settings.json()).toMatchObject({ code: "not_found", message: "GET /settings is not supported by the local stack" });
  });

  it("updates app metadata, merging keys", async () => {
    const { user } = await signedUp();
    const { data, error } = await adminClient().auth.admin.updateUserById(user.id, { app_metadata: { role: "admin" } });
    expect(error).toBeNull();
    expect(data.user?.app_metadata).toEqual({ provider: "email", providers: ["email"], role: "admin" });
  });
});

describe("password recovery", () => {
  const resetPage = "http://localhost:3000/reset-password";

  // GoTrue's default email (a link to /verify) here; the project's template in its own block below.
  beforeAll(() => {
    local.stack.config.recoveryTemplate = undefined;
  });
  afterAll(() => {
    local.stack.config.recoveryTemplate = projectRecoveryTemplate;
  });

  it("mails a link that signs the user in (implicit flow) so they can set a new password, once", async () => {
    const { email } = await signedUp();
    const { data, error } = await client().auth.resetPasswordForEmail(email, { redirectTo: resetPage });
    expect(error).toBeNull();
    expect(data).toEqual({});
    const mail = lastMailTo(email);
    expect(mail.subject).toBe("Reset Your Password");

    const landing = await follow(mail.link!);
    expect(`${landing.origin}${landing.pathname}`).toBe(resetPage);
    const fragment = new URLSearchParams(landing.hash.slice(1));
    expect(fragment.get("type")).toBe("recovery");

    const recovering = client();
    const set = await recovering.auth.setSession({
      access_token: fragment.get("access_token")!,
      refresh_token: fragment.get("refresh_token")!,
    });
    expect(set.error).toBeNull();
    expect((await recovering.auth.updateUser({ password: "recovered password" })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: "recovered password" })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password })).error?.code).toBe("invalid_credentials");

    const again = await follow(mail.link!);
    expect(new URLSearchParams(again.hash.slice(1)).get("error_code")).toBe("otp_expired");
  });

  it("works through @supabase/ssr’s PKCE flow with the verifier kept in cookies", async () => {
    const { email } = await signedUp();
    const serverClient = cookieJarClients();

    expect((await serverClient().auth.resetPasswordForEmail(email, { redirectTo: resetPage })).error).toBeNull();
    const mail = lastMailTo(email);
    expect(new URL(mail.link!).searchParams.get("token")).toMatch(/^pkce_/);

    const landing = await follow(mail.link!);
    expect(`${landing.origin}${landing.pathname}`).toBe(resetPage);
    const code = landing.searchParams.get("code")!;
    expect(code).toBeTruthy();

    const exchanged = await serverClient().auth.exchangeCodeForSession(code);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(email);
    expect((await serverClient().auth.updateUser({ password: "pkce recovered password" })).error).toBeNull();
    expect((await client().auth.signInWithPassword({ email, password: "pkce recovered password" })).error).toBeNull();
  });

  it("refuses an auth code with the wrong verifier", async () => {
    const { email } = await signedUp();
    const challenge = Buffer.alloc(32, 7).toString("base64url").padEnd(43, "a");
    await fetch(`${local.url}/auth/v1/recover`, {
      method: "POST",
      headers: { apikey: local.anonKey, "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ email, code_challenge: challenge, code_challenge_method: "s256" }),
    });
    const code = (await follow(lastMailTo(email).link!)).searchParams.get("code");
    const response = await fetch(`${local.url}/auth/v1/token?grant_type=pkce`, {
      method: "POST",
      headers: { apikey: local.anonKey, "content-type": "application/json", "x-supabase-api-version": "2024-01-01" },
      body: JSON.stringify({ auth_code: code, code_verifier: "not-the-verifier-that-made-the-challenge-at-all" }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "bad_code_verifier" });
  });

  it("answers {} for an unknown email and mails nothing", async () => {
    const before = local.stack.outbox.messages.length;
    const { data, error } = await client().auth.resetPasswordForEmail("nobody-here@example.test", { redirectTo: resetPage });
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(local.stack.outbox.messages.length).toBe(before);
  });

  it("sends the link back to the site URL when redirect_to points to another origin", async () => {
    const { email } = await signedUp();
    await client().auth.resetPasswordForEmail(email, { redirectTo: "https://evil.example/steal" });
    const link = new URL(lastMailTo(email).link!);
    expect(link.searchParams.get("redirect_to")).toBe(localDefaults.siteUrl);
    expect((await follow(link.toString())).origin).toBe(localDefaults.siteUrl);
  });

  it("shows the outbox to the developer", async () => {
    const { email } = await signedUp();
    await client().auth.resetPasswordForEmail(email);
    const page = await (await fetch(`${local.url}/auth/v1/outbox`)).text();
    expect(page).toContain(email);
  });
});

describe("password recovery with the project's email template", () => {
  const resetPage = "http://localhost:3000/reset-password";

  it("links straight to the reset page with a token_hash that verifyOtp takes once, whichever flow asked", async () => {
    for (const asker of [client(), cookieJarClients()()]) {
      const { email } = await signedUp();
      expect((await asker.auth.resetPasswordForEmail(email, { redirectTo: resetPage })).error).toBeNull();
      const mail = lastMailTo(email);
      const link = new URL(mail.link!);
      expect(`${link.origin}${link.pathname}`).toBe(resetPage);
      expect(link.searchParams.get("type")).toBe("recovery");
      expect(mail.html).toContain("Choose a new password");

      const tokenHash = link.searchParams.get("token_hash")!;
      const verified = await client().auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
      expect(verified.error).toBeNull();
      expect(verified.data.user?.email).toBe(email);
      const again = await client().auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
      expect(again.error).toMatchObject({ status: 403, code: "otp_expired" });
    }
  });

  it("refuses a token_hash that is not one it sent", async () => {
    const { error } = await client().auth.verifyOtp({ token_hash: "0".repeat(64), type: "recovery" });
    expect(error).toMatchObject({ status: 403, code: "otp_expired" });
  });
});

describe("redirect_to validation", () => {
  const config = { siteUrl: "http://localhost:3000", redirectAllowList: ["https://app.example.com/**", "https://*.example.org/cb"] };

  it.each([
    ["http://localhost:3000/reset-password", true],
    ["http://localhost:4000/anything", true],
    ["http://127.0.0.1:9999/", true],
    ["https://app.example.com/reset-password?x=1#frag", true],
    ["https://preview.example.org/cb", true],
    ["https://a.b.example.org/cb", false],
    ["https://evil.example/", false],
    ["http://localhost:3000@evil.example/", false],
    ["https://app.example.com.evil.example/", false],
    ["http://10.0.0.1/", false],
    ["javascript:alert(1)", false],
    ["\thttps://evil.example/", false],
    ["https:/\\evil.example/", false],
  ])("%s → %s", (target, allowed) => {
    expect(isAllowedRedirect(config, target)).toBe(allowed);
  });
});

describe("rate limit", () => {
  it("answers 429 over_request_rate_limit once a client exceeds the /token limit, other clients unaffected", async () => {
    const { email } = await signedUp();
    const config = local.stack.config as typeof local.stack.config & { tokenRateLimit?: { perFiveMinutes: number } };
    config.tokenRateLimit = { perFiveMinutes: 3 };
    try {
      const supabase = client();
      for (let i = 0; i < 3; i++) {
        expect((await supabase.auth.signInWithPassword({ email, password: "wrong password" })).error?.status).toBe(400);
      }
      const limited = await supabase.auth.signInWithPassword({ email, password });
      expect(limited.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
      expect((await client().auth.signInWithPassword({ email, password })).error).toBeNull();
    } finally {
      delete config.tokenRateLimit;
    }
  });

  it("believes X-Forwarded-For only from the proxy with the secret: rotating it escapes nothing", async () => {
    const { email } = await signedUp();
    const config = local.stack.config;
    config.tokenRateLimit = { perFiveMinutes: 3 };
    try {
      const rotating = async (headers: Record<string, string>) =>
        (
          await createClient(local.url, local.anonKey, { auth, global: { headers } }).auth.signInWithPassword({
            email: `nobody-${serial}@example.test`,
            password: "guess",
          })
        ).error?.status;
      const statuses: (number | undefined)[] = [];
      for (let i = 0; i < 5; i++) statuses.push(await rotating({ "x-forwarded-for": `10.9.9.${i}`, "x-forwarded-secret": "wrong" }));
      expect(statuses.slice(3)).toEqual([429, 429]);
      // the proxy's own clients are told apart
      expect(await rotating(proxied())).toBe(400);
      expect((await client().auth.signInWithPassword({ email, password })).error).toBeNull();
    } finally {
      delete config.tokenRateLimit;
      // the requests above came from this machine's own address: let later tests start afresh
    }
  });

  it("locks an account after 10 failed sign-ins in 15 minutes, from any address, saying only 'rate limit'", async () => {
    const { email } = await signedUp();
    for (let i = 0; i < 10; i++) {
      expect((await client().auth.signInWithPassword({ email, password: `guess ${i}` })).error?.code).toBe("invalid_credentials");
    }
    const locked = await client().auth.signInWithPassword({ email, password });
    expect(locked.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    // an address with no account answers the same, so the lock reveals nothing
    const nobody = `no-account-${serial}@example.test`;
    for (let i = 0; i < 10; i++) await client().auth.signInWithPassword({ email: nobody, password: "guess" });
    expect((await client().auth.signInWithPassword({ email: nobody, password: "guess" })).error).toMatchObject({ status: 429 });
  });

  it("sends one reset email a minute to an address, however often it is asked, and limits sign-ups and resets per address", async () => {
    const { email } = await signedUp();
    const before = local.stack.outbox.messages.filter((message) => message.to === email).length;
    for (let i = 0; i < 20; i++) expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
    expect(local.stack.outbox.messages.filter((message) => message.to === email).length).toBe(before + 1);

    const config = local.stack.config;
    config.signUpRateLimit = { perFiveMinutes: 2 };
    config.recoveryRateLimit = { perHour: 2 };
    try {
      const headers = proxied();
      const fixed = createClient(local.url, local.anonKey, { auth, global: { headers } });
      const signUps: number[] = [];
      for (let i = 0; i < 3; i++) signUps.push((await fixed.auth.signUp({ email: uniqueEmail("flood"), password })).error?.status ?? 200);
      expect(signUps).toEqual([200, 200, 429]);
      const resets: number[] = [];
      for (let i = 0; i < 3; i++) resets.push((await fixed.auth.resetPasswordForEmail(uniqueEmail("bomb"))).error?.status ?? 200);
      expect(resets).toEqual([200, 200, 429]);
    } finally {
      delete config.signUpRateLimit;
      delete config.recoveryRateLimit;
    }
  });
});

describe("captcha protection (Turnstile)", () => {
  const secrets = { passes: "1x0000000000000000000000000000000AA", fails: "2x0000000000000000000000000000000AA" };
  // What Turnstile's test site keys give the page.
  const dummyToken = "XXXX.DUMMY.TOKEN.XXXX";

  async function withSecret(secret: string, run: () => Promise<void>) {
    local.stack.config.captchaSecret = secret;
    try {
      await run();
    } finally {
      delete local.stack.config.captchaSecret;
    }
  }

  it("asks sign-up, sign-in and recovery for a token once a secret is set, and takes the test keys' token", async () => {
    const { email } = await signedUp();
    await withSecret(secrets.passes, async () => {
      const supabase = client();
      const refused = [
        await supabase.auth.signUp({ email: uniqueEmail("robot"), password }),
        await supabase.auth.signInWithPassword({ email, password }),
        await supabase.auth.resetPasswordForEmail(email),
      ];
      for (const { error } of refused) expect(error).toMatchObject({ status: 400, code: "captcha_failed" });

      const options = { captchaToken: dummyToken };
      expect((await supabase.auth.signUp({ email: uniqueEmail("human"), password, options })).error).toBeNull();
      expect((await supabase.auth.signInWithPassword({ email, password, options })).error).toBeNull();
      expect((await supabase.auth.resetPasswordForEmail(email, options)).error).toBeNull();
    });
  });

  it("refuses every token with the secret that always fails, and asks nothing of a token refresh", async () => {
    const { email, session } = await signedUp();
    await withSecret(secrets.fails, async () => {
      const supabase = client();
      const { error } = await supabase.auth.signInWithPassword({ email, password, options: { captchaToken: dummyToken } });
      expect(error).toMatchObject({ status: 400, code: "captcha_failed" });
      expect((await supabase.auth.refreshSession({ refresh_token: session.refresh_token })).error).toBeNull();
    });
  });
});
