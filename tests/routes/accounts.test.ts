// The account actions as a browser without JavaScript uses them: plain form posts to the route actions,
// against the local backend with the demo data.
import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { localDefaults } from "@crate/local-supabase";
import { Visitor, inputValue, mailLink, newFan, serviceClient, sessionCookie, signedIn, supabaseUrl, text } from "./support.ts";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

const artistForm = (email: string) => ({
  email,
  password: "a-long-password",
  confirmPassword: "a-long-password",
  artistName: `Test Artist ${unique()}`,
  paypalEmail: "payouts@example.com",
  bio: "Loops and tape hiss",
  genres: ["Electronic", "Indie"],
  terms: "on",
});

const fanForm = (email: string) => ({
  email,
  username: `fan_${unique()}`,
  password: "a-long-password",
  confirmPassword: "a-long-password",
  favoriteGenres: ["Jazz"],
  terms: "on",
});

describe("signing up", () => {
  it("creates an artist account with its profile and lands on the artist dashboard, signed in", async () => {
    const visitor = new Visitor();
    const form = artistForm(`artist-${unique()}@example.com`);
    const { response } = await visitor.post("/register/artist", form);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard/artist");
    expect(sessionCookie(visitor)).toBeTruthy();

    const { data } = await serviceClient
      .from("artist_profiles")
      .select("artist_name, bio, genres")
      .eq("artist_name", form.artistName)
      .single();
    expect(data).toEqual({ artist_name: form.artistName, bio: "Loops and tape hiss", genres: ["Electronic", "Indie"] });

    const dashboard = await visitor.get("/dashboard/artist");
    expect(dashboard.response.status).toBe(200);
    // A first visit: welcome, not welcome back.
    expect(text(dashboard.html)).toContain(`Welcome, ${form.artistName}`);
    expect(dashboard.response.headers.get("cache-control")).toBe("private, no-store");
  });

  it("creates a fan account and lands on the fan dashboard", async () => {
    const visitor = new Visitor();
    const form = fanForm(`fan-${unique()}@example.com`);
    const { response } = await visitor.post("/register/fan", form);
    expect(response.headers.get("location")).toBe("/dashboard/fan");
    const { data } = await serviceClient.from("fan_profiles").select("username, favorite_genres").eq("username", form.username).single();
    expect(data).toEqual({ username: form.username, favorite_genres: ["Jazz"] });
    expect(text((await visitor.get("/dashboard/fan")).html)).toContain(`Signed in as ${form.username}`);
  });

  it("refuses a taken email with the spec's message, keeping what was typed except passwords", async () => {
    const visitor = new Visitor();
    const form = { ...artistForm("artist@example.com"), artistName: "Someone Else" };
    const { response, html } = await visitor.post("/register/artist", form);
    expect(response.status).toBe(400);
    expect(text(html)).toContain("An account with this email already exists. Please log in instead.");
    expect(inputValue(html, "email")).toBe("artist@example.com");
    expect(inputValue(html, "artistName")).toBe("Someone Else");
    expect(inputValue(html, "password")).toBeUndefined();
    expect(html).toMatch(/<input[^>]*checked=""[^>]*value="Electronic"/);
    expect(sessionCookie(visitor)).toBeUndefined();
  });

  it.each([
    ["a short password", { password: "short", confirmPassword: "short" }, "Password must be at least 8 characters"],
    ["mismatched passwords", { confirmPassword: "another-password" }, "Passwords do not match"],
    ["unticked terms", { terms: [] as string[] }, "You must agree to the Terms of Use and Privacy Policy"],
    ["a PayPal email that is not an email", { paypalEmail: "paypal-me" }, "PayPal email must be a valid email address"],
    ["no artist name", { artistName: "" }, "Artist name is required"],
  ])("shows the message next to the field for %s, and creates nothing", async (_case, change, message) => {
    const email = `nobody-${unique()}@example.com`;
    const { response, html } = await new Visitor().post("/register/artist", { ...artistForm(email), ...change });
    expect(response.status).toBe(400);
    expect(text(html)).toContain(message);
    expect(html).toMatch(/aria-invalid="true"/);
    const { data } = await serviceClient.auth.admin.listUsers({ perPage: 1000 });
    expect(data.users.some((user) => user.email === email)).toBe(false);
  });
});

describe("signing in", () => {
  it("sends an artist to the artist dashboard and a fan to the fan dashboard", async () => {
    const artist = await new Visitor().post("/login", { email: "artist@example.com", password: "artist-demo-pass" });
    expect(artist.response.headers.get("location")).toBe("/dashboard/artist");
    const fan = await new Visitor().post("/login", { email: "fan@example.com", password: "fan-demo-pass" });
    expect(fan.response.headers.get("location")).toBe("/dashboard/fan");
  });

  it("sends an administrator home", async () => {
    const { response } = await new Visitor().post("/login", { email: "admin@example.com", password: "admin-demo-pass" });
    expect(response.headers.get("location")).toBe("/");
  });

  it("honours an on-site redirectTo whatever the role", async () => {
    const { response } = await new Visitor().post("/login?redirectTo=%2Fdashboard%2Ffan", {
      email: "artist@example.com",
      password: "artist-demo-pass",
      redirectTo: "/about?tab=1",
    });
    expect(response.headers.get("location")).toBe("/about?tab=1");
  });

  it.each(["https://evil.example/", "//evil.example", "/\\evil.example"])("ignores the external redirectTo %s", async (redirectTo) => {
    const { response } = await new Visitor().post("/login", { email: "fan@example.com", password: "fan-demo-pass", redirectTo });
    expect(response.headers.get("location")).toBe("/dashboard/fan");
  });

  // Each passes a check of the raw string but normalises to `//evil.example`.
  const normalisedAway = ["/..//evil.example", "/.//evil.example", "/%2e%2e//evil.example", "/a/..//evil.example"];

  it.each(normalisedAway)("ignores %s after signing in, whatever the form posts", async (redirectTo) => {
    const { response } = await new Visitor().post("/login", { email: "fan@example.com", password: "fan-demo-pass", redirectTo });
    expect(response.headers.get("location")).toBe("/dashboard/fan");
  });

  it.each(normalisedAway)("ignores %s when a signed-in user opens the login page", async (redirectTo) => {
    const visitor = new Visitor();
    await visitor.post("/login", { email: "fan@example.com", password: "fan-demo-pass" });
    const { response } = await visitor.get(`/login?${new URLSearchParams({ redirectTo })}`);
    expect(response.headers.get("location")).toBe("/dashboard/fan");
  });

  it.each(normalisedAway)("ignores %s when the form is sent with JavaScript (login.data)", async (redirectTo) => {
    const { response, html } = await new Visitor().post("/login.data", { email: "fan@example.com", password: "fan-demo-pass", redirectTo });
    expect(response.headers.get("location")).toBeNull();
    expect(html).not.toContain("evil.example");
    expect(html).toContain("/dashboard/fan");
  });

  it("says 'Invalid email or password' for a wrong password and keeps the email", async () => {
    const visitor = new Visitor();
    const { response, html } = await visitor.post("/login", { email: "fan@example.com", password: "not-the-password" });
    expect(response.status).toBe(400);
    expect(text(html)).toContain("Invalid email or password");
    expect(inputValue(html, "email")).toBe("fan@example.com");
    expect(sessionCookie(visitor)).toBeUndefined();
  });

  it("keeps the session for the browser session only, unless Remember me is ticked", async () => {
    const { response: brief } = await new Visitor().post("/login", { email: "fan@example.com", password: "fan-demo-pass" });
    const briefCookie = brief.headers.getSetCookie().find((cookie) => /^sb-.*-auth-token/.test(cookie))!;
    expect(briefCookie).toMatch(/HttpOnly/);
    expect(briefCookie).toMatch(/SameSite=Lax/);
    expect(briefCookie).not.toMatch(/Max-Age|Expires/i);

    const { response: kept } = await new Visitor().post("/login", { email: "fan@example.com", password: "fan-demo-pass", remember: "on" });
    const keptCookie = kept.headers.getSetCookie().find((cookie) => /^sb-.*-auth-token/.test(cookie))!;
    expect(keptCookie).toMatch(/Max-Age=34560000/);
  });

  it("refuses a banned account, saying until when", async () => {
    const email = `banned-${unique()}@example.com`;
    const visitor = new Visitor();
    await visitor.post("/register/fan", fanForm(email));
    const { data } = await serviceClient.auth.admin.listUsers({ perPage: 1000 });
    const user = data.users.find((candidate) => candidate.email === email)!;
    await serviceClient.auth.admin.updateUserById(user.id, { ban_duration: "720h" });

    const { response, html } = await new Visitor().post("/login", { email, password: "a-long-password" });
    expect(response.status).toBe(400);
    const until = new Date(Date.now() + 30 * 86_400_000).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
    expect(text(html)).toContain(`This account has been suspended until ${until}.`);

    // The session it already had no longer works either: it is treated as signed out.
    const dashboard = await visitor.get("/dashboard/fan");
    expect(dashboard.response.status).toBe(302);
    expect(sessionCookie(visitor)).toBeUndefined();
  });

  it("locks an account after 10 failed sign-ins, whatever address they come from, and says only to wait", async () => {
    const fan = await newFan(`guessed_${unique()}`);
    let last = { response: new Response(), html: "" };
    for (let attempt = 0; attempt < 12 && last.response.status !== 429; attempt++) {
      // each guess as another visitor, from another address
      last = await new Visitor().post("/login", { email: fan.email, password: `guess-${attempt}` });
    }
    expect(last.response.status).toBe(429);
    expect(text(last.html)).toContain("Too many attempts. Please wait a few minutes and try again.");
    expect((await new Visitor().post("/login", { email: fan.email, password: fan.password })).response.status).toBe(429);
  });
});

describe("guards", () => {
  it.each(["/dashboard/artist", "/dashboard/fan"])("sends a visitor from %s to login with the way back", async (path) => {
    const { response } = await new Visitor().get(`${path}?tab=stats`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`${path}?tab=stats`)}`);
  });

  it("sends a signed-in user from Forgot password to their account settings, where they change it", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const { response } = await fan.get("/forgot-password");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/dashboard/fan/settings");
  });

  it("answers 403 when a fan opens the artist dashboard, with the way to their own", async () => {
    const fan = new Visitor();
    await fan.post("/login", { email: "fan@example.com", password: "fan-demo-pass" });
    const { response, html } = await fan.get("/dashboard/artist");
    expect(response.status).toBe(403);
    expect(text(html)).toContain("This page is for artist accounts.");
    expect(text(html)).toContain("Access Denied");
    expect(text(html)).not.toContain("Reload page");
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/fan"[^>]*>Go to your dashboard<\/a>/);
  });

  it("answers 403 when an artist opens the fan dashboard, with the way to their own", async () => {
    const artist = new Visitor();
    await artist.post("/login", { email: "artist@example.com", password: "artist-demo-pass" });
    const { response, html } = await artist.get("/dashboard/fan");
    expect(response.status).toBe(403);
    expect(text(html)).toContain("This page is for fan accounts.");
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist"[^>]*>Go to your dashboard<\/a>/);
  });

  it("shows the signed-in menu with Dashboard and a Sign out form", async () => {
    const fan = new Visitor();
    await fan.post("/login", { email: "fan@example.com", password: "fan-demo-pass" });
    const { html } = await fan.get("/about");
    expect(html).toContain('href="/dashboard/fan"');
    expect(html).toMatch(/<form[^>]*action="\/logout"/);
    expect(text(html)).toContain("rileyspins");
    expect(html).not.toContain('href="/login"');
  });

  it("gives administrators the Admin link", async () => {
    const visitor = new Visitor();
    await visitor.post("/login", { email: "admin@example.com", password: "admin-demo-pass" });
    expect((await visitor.get("/about")).html).toContain('href="/admin"');
  });
});

describe("roles from data", () => {
  it("keeps a fan who sets user_metadata.role = artist on themselves out of the artist dashboard", async () => {
    const fan = await newFan(`climber_${unique()}`);
    const own = createClient(supabaseUrl, localDefaults.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    expect((await own.auth.signInWithPassword({ email: fan.email, password: fan.password })).error).toBeNull();
    expect((await own.auth.updateUser({ data: { role: "artist", artist_name: "Not Really" } })).error).toBeNull();

    for (const path of ["/dashboard/artist", "/dashboard/artist/upload", "/dashboard/artist/analytics"]) {
      expect((await fan.visitor.get(path)).response.status).toBe(403);
    }
    expect((await fan.visitor.get("/dashboard/fan")).response.status).toBe(200);
  });
});

describe("signing out", () => {
  it("is a POST that clears the session and goes home", async () => {
    const visitor = new Visitor();
    await visitor.post("/login", { email: "fan@example.com", password: "fan-demo-pass", remember: "on" });
    expect(sessionCookie(visitor)).toBeTruthy();
    const { response } = await visitor.post("/logout", {});
    expect(response.headers.get("location")).toBe("/");
    expect(sessionCookie(visitor)).toBeUndefined();
    expect(visitor.cookies.has("remember-me")).toBe(false);
    expect((await visitor.get("/dashboard/fan")).response.status).toBe(302);
  });

  it("clears stale cookies that no longer name a session", async () => {
    const visitor = new Visitor();
    visitor.cookies.set("sb-127-auth-token", "base64-eyJub3QiOiJhIHNlc3Npb24ifQ");
    const { response } = await visitor.get("/about");
    expect(response.status).toBe(200);
    expect(sessionCookie(visitor)).toBeUndefined();
  });
});

describe("password reset", () => {
  it("never reveals whether an email has an account", async () => {
    const known = await new Visitor().post("/forgot-password", { email: "fan@example.com" });
    const unknown = await new Visitor().post("/forgot-password", { email: `nobody-${unique()}@example.com` });
    expect(known.response.status).toBe(200);
    expect(unknown.response.status).toBe(200);
    const notice = "If an account exists for that email, we've sent a link to reset your password.";
    expect(text(known.html)).toContain(notice);
    expect(text(unknown.html)).toContain(notice);
  });

  it("refuses a reset page without a valid link", async () => {
    const { html } = await new Visitor().get("/reset-password?token_hash=not-a-real-token&type=recovery");
    expect(text(html)).toContain("This password reset link is invalid or has expired.");
  });

  it("sets no password for a session that did not start from a reset link", async () => {
    const fan = await newFan(`signedin_${unique()}`);
    const page = await fan.visitor.get("/reset-password");
    expect(text(page.html)).toContain("This password reset link is invalid or has expired.");
    const post = await fan.visitor.post("/reset-password", { password: "taken-over-pass", confirmPassword: "taken-over-pass" });
    expect(post.response.status).toBe(401);
    expect((await new Visitor().post("/login", { email: fan.email, password: "taken-over-pass" })).response.status).toBe(400);
  });

  it("lets the emailed link set a new password in another browser, once, without JavaScript", async () => {
    const fan = await newFan(`reset_${unique()}`);
    await new Visitor().post("/forgot-password", { email: fan.email });
    const link = new URL(await mailLink(fan.email));
    expect(link.pathname).toBe("/reset-password");

    const elsewhere = new Visitor();
    const landing = await elsewhere.get(`${link.pathname}${link.search}`);
    expect(landing.response.status).toBe(302);
    expect(landing.response.headers.get("location")).toBe("/reset-password");
    const saved = await elsewhere.post("/reset-password", { password: "reset-by-link", confirmPassword: "reset-by-link" });
    expect(saved.response.status).toBe(302);
    expect((await signedIn(fan.email, "reset-by-link")).cookies.size).toBeGreaterThan(0);

    const again = await new Visitor().get(`${link.pathname}${link.search}`);
    expect(text(again.html)).toContain("This password reset link is invalid or has expired.");
  });
});
