// Administration as a browser without JavaScript uses it: the guard (a visitor logs in; a fan, an artist
// and a user whose user_metadata claims admin get 'Access Denied' with 403), the News Manager (add, edit,
// deactivate, delete after a confirmation, each refusal next to its field) with the home page's banner
// following at once, the users (search, password reset, ban with its dialog, unban) through the Edge
// Functions, and the audit log that records each change and that nobody can rewrite.
import { describe, expect, it } from "vitest";
import { Visitor, inputValue, mailLink, newFan, serviceClient, signedIn, text, trackId } from "./support.ts";

const admin = () => signedIn("admin@example.com", "admin-demo-pass");

/** The anonymous home page as a visitor gets it (from this location's cache when there is a copy). */
const homeText = async () => text((await new Visitor().get("/")).html);

async function newsId(title: string) {
  const { data } = await serviceClient.from("news_items").select("id").eq("title", title).single();
  return data!.id as string;
}

describe("the admin guard", () => {
  it("sends a visitor to log in, and answers everyone but an administrator 'Access Denied' with 403", async () => {
    for (const path of ["/admin", "/admin/news"]) {
      const visitor = await new Visitor().get(path);
      expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
    const email = `claims-admin-${Date.now().toString(36)}@example.com`;
    const created = await serviceClient.auth.admin.createUser({
      email,
      password: "a-long-password",
      email_confirm: true,
      user_metadata: { role: "admin", username: "notreallyadmin" },
    });
    expect(created.error).toBeNull();
    const pretender = await signedIn(email, "a-long-password");
    for (const visitor of [
      await signedIn("fan@example.com", "fan-demo-pass"),
      await signedIn("artist@example.com", "artist-demo-pass"),
      pretender,
    ]) {
      for (const path of ["/admin", "/admin/news"]) {
        const { response, html } = await visitor.get(path);
        expect(response.status).toBe(403);
        expect(text(html)).toContain("Access Denied");
        expect(text(html)).toContain("You do not have permission to access this page");
      }
      expect(
        (await visitor.post("/admin/news", { intent: "add", title: "Sneaky", content: "Not allowed", type: "info", active: "on" })).response
          .status,
      ).toBe(403);
    }
    expect((await serviceClient.from("news_items").select("id").eq("title", "Sneaky")).data).toEqual([]);
  });
});

describe("the News Manager", () => {
  it("adds an item (active and 'info' by default), and the home page's banner shows it at once", async () => {
    const title = `Fresh pressings ${Date.now().toString(36)}`;
    await homeText(); // a cached copy of the home page, made before the change
    const as = await admin();
    const page = await as.get("/admin/news");
    expect(page.response.status).toBe(200);
    expect(page.html).toMatch(/<h1[^>]*>News Manager<\/h1>/);
    expect(page.html).toMatch(/<input[^>]*name="active"[^>]*checked/);

    const added = await as.post("/admin/news", { intent: "add", title, content: "New vinyl from three artists this week.", active: "on" });
    expect(added.response.status).toBe(303);
    const { data } = await serviceClient.from("news_items").select("type, active").eq("title", title).single();
    expect(data).toEqual({ type: "info", active: true });
    expect(await homeText()).toContain(title);
  });

  it("refuses an item without a title or content, next to the field, keeping what was typed", async () => {
    const as = await admin();
    const { response, html } = await as.post("/admin/news", { intent: "add", title: "  ", content: "Typed, kept", type: "update" });
    expect(response.status).toBe(400);
    expect(text(html)).toContain("Title is required");
    expect(html).toContain("Typed, kept");
    const noContent = await as.post("/admin/news", { intent: "add", title: "Only a title", content: "" });
    expect(text(noContent.html)).toContain("Content is required");
    expect(inputValue(noContent.html, "title")).toBe("Only a title");
  });

  it("edits, deactivates and deletes (after a confirmation), the home page following each, and logs each change", async () => {
    const title = `Tour news ${Date.now().toString(36)}`;
    const as = await admin();
    await as.post("/admin/news", { intent: "add", title, content: "Dates coming soon.", type: "announcement", active: "on" });
    const id = await newsId(title);

    const form = await as.get(`/admin/news?edit=${id}`);
    // The item's own form, filled in, beside the add form.
    expect(form.html).toMatch(new RegExp(`<input[^>]*name="title"[^>]*value="${title}"`));
    const renamed = `${title} (updated)`;
    expect(
      (
        await as.post(`/admin/news?edit=${id}`, {
          intent: "edit",
          id,
          title: renamed,
          content: "Dates are out.",
          type: "announcement",
          active: "on",
        })
      ).response.status,
    ).toBe(303);
    expect(await homeText()).toContain(renamed);

    expect((await as.post("/admin/news", { intent: "toggle", id, active: "false" })).response.status).toBe(303);
    expect(await homeText()).not.toContain(renamed);
    expect((await as.post("/admin/news", { intent: "toggle", id, active: "true" })).response.status).toBe(303);
    expect(await homeText()).toContain(renamed);

    const unconfirmed = await as.post(`/admin/news?delete=${id}`, { intent: "delete", id });
    expect(unconfirmed.response.status).toBe(400);
    expect(text(unconfirmed.html)).toContain("Tick the box to confirm you want to delete this news item");
    expect(await newsId(renamed)).toBe(id);
    expect((await as.post(`/admin/news?delete=${id}`, { intent: "delete", id, confirm: "on" })).response.status).toBe(303);
    expect((await serviceClient.from("news_items").select("id").eq("id", id)).data).toEqual([]);
    expect(await homeText()).not.toContain(renamed);

    const log = text((await as.get("/admin")).html);
    expect(log).toMatch(/<h1|Admin Dashboard/);
    for (const line of [
      `admin@example.com deleted the news item “${renamed}”`,
      `admin@example.com activated the news item “${renamed}”`,
      `admin@example.com deactivated the news item “${renamed}”`,
      `admin@example.com edited the news item “${renamed}”`,
      `admin@example.com added the news item “${title}”`,
    ]) {
      expect(log).toContain(line);
    }
    // Newest first.
    expect(log.indexOf("deleted the news item")).toBeLessThan(log.indexOf(`added the news item “${title}”`));
  });

  it("keeps the audit log out of reach: only administrators read it, and nobody rewrites it, not even the service role", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get("/admin")).response.status).toBe(403);
    const { data: entries } = await serviceClient.from("audit_log").select("id");
    expect(entries).toBeNull();
    const forged = await serviceClient.from("audit_log").insert({ action: "news.add", summary: "Forged" });
    expect(forged.error?.code).toBe("42501");
    const erased = await serviceClient.from("audit_log").delete().neq("summary", "");
    expect(erased.error?.code).toBe("42501");
  });
});

describe("the users", () => {
  it("lists the registered users newest first, with role, dates and status, in two round trips", async () => {
    const fan = await newFan(`listed_${Date.now().toString(36)}`);
    const { response, html } = await (await admin()).get("/admin");
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(/\b2 round trips\b/);
    const page = text(html);
    for (const heading of ["Email", "Role", "Created", "Last sign-in", "Status"]) expect(html).toContain(`>${heading}</th>`);
    // The newest are on the first page (the other suites sign up users too, so the demo's may be further on).
    expect(page).toContain(`${fan.email} fan`);
    expect(html).toContain(`aria-label="Ban ${fan.email}"`);
    expect(text((await (await admin()).get("/admin?q=admin%40example.com")).html)).toContain("admin@example.com admin");
    expect(text((await (await admin()).get("/admin?q=artist%40example.com")).html)).toContain("artist@example.com artist");
  });

  it("searches by a part of the email, whatever its case, and says when nothing matches", async () => {
    const as = await admin();
    const page = text((await as.get("/admin?q=ARTIST%40example")).html);
    // The users list alone: the sales below it name their buyers.
    const found = page.slice(page.indexOf("Users Search by email"), page.indexOf("Sales Every artist"));
    expect(found).toContain("1 user matching “ARTIST@example”");
    expect(found).toContain("artist@example.com");
    expect(found).not.toContain("fan@example.com");
    expect(text((await as.get("/admin?q=nobody-at-all")).html)).toContain("No users match “nobody-at-all”");
  });

  it("sends a password reset: 'Password reset email sent', the link in the outbox, the audit log", async () => {
    const fan = await newFan(`reset_${Date.now().toString(36)}`);
    const as = await admin();
    const { response, html } = await as.post("/admin", { intent: "reset", userId: fan.id });
    expect(response.status).toBe(200);
    expect(html).toMatch(/role="status"[^>]*>Password reset email sent</);
    expect(new URL(await mailLink(fan.email)).pathname).toBe("/reset-password");
    expect(text((await as.get("/admin")).html)).toContain(`admin@example.com sent a password reset to ${fan.email}`);
  });

  it("bans through a dialog (30 days by default), refusing less than a whole day next to the field with the reason kept", async () => {
    const fan = await newFan(`banned_${Date.now().toString(36)}`);
    const as = await admin();
    const dialog = await as.get(`/admin?ban=${fan.id}`);
    expect(dialog.html).toMatch(/<dialog[^>]*open/);
    expect(text(dialog.html)).toContain(`Ban ${fan.email}`);
    expect(inputValue(dialog.html, "days")).toBe("30");

    for (const days of ["0", "-1", "2.5", "many", ""]) {
      const refused = await as.post(`/admin?ban=${fan.id}`, { intent: "ban", userId: fan.id, days, reason: "Spam links" });
      expect(refused.response.status).toBe(400);
      expect(text(refused.html)).toContain("Ban for a whole number of days, from 1 to 36,500");
      expect(refused.html).toContain("Spam links");
      expect(refused.html).toMatch(/<dialog[^>]*open/);
    }
    expect((await serviceClient.auth.admin.getUserById(fan.id)).data.user?.banned_until ?? null).toBeNull();

    const fanPage = `/fan/${fan.id}`;
    expect((await new Visitor().get(fanPage)).response.status).toBe(200);

    const banned = await as.post(`/admin?ban=${fan.id}`, { intent: "ban", userId: fan.id, days: "3", reason: "Spam links" });
    expect(banned.response.status).toBe(303);
    expect(banned.response.headers.get("location")).toBe("/admin");
    const until = (await serviceClient.auth.admin.getUserById(fan.id)).data.user?.banned_until;
    expect(Date.parse(until!) - Date.now()).toBeGreaterThan(2.99 * 86_400_000);

    // their public page goes with the ban (from the cache and from the database's public reads)
    expect((await new Visitor().get(fanPage)).response.status).toBe(404);
    expect((await signedIn("artist@example.com", "artist-demo-pass").then((artist) => artist.get(fanPage))).response.status).toBe(404);

    // their open session can no longer comment, and signing in says until when
    const path = `/track/${trackId("Greenhouse")}`;
    await fan.visitor.post(path, { intent: "comment", content: "Posted while banned" });
    const { count } = await serviceClient
      .from("comments")
      .select("id", { count: "exact", head: true })
      .eq("content", "Posted while banned");
    expect(count).toBe(0);
    const signIn = await new Visitor().post("/login", { email: fan.email, password: fan.password });
    expect(signIn.response.status).toBe(400);
    const day = new Date(until!).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
    expect(text(signIn.html)).toContain(`This account has been suspended until ${day}.`);

    const page = text((await as.get(`/admin?q=${encodeURIComponent(fan.email)}`)).html);
    expect(page).toContain(`Banned until ${day}`);
    expect(page).toContain(`admin@example.com banned ${fan.email} Reason: Spam links`);

    expect((await as.post("/admin", { intent: "unban", userId: fan.id })).response.status).toBe(303);
    expect((await new Visitor().post("/login", { email: fan.email, password: fan.password })).response.status).toBe(302);
    expect(text((await as.get("/admin")).html)).toContain(`admin@example.com lifted the ban on ${fan.email}`);
    expect((await new Visitor().get(fanPage)).response.status).toBe(200);
  });

  it("refuses banning oneself, with the reason kept", async () => {
    const as = await admin();
    const { data } = await serviceClient.auth.admin.listUsers({ perPage: 1000 });
    const self = data.users.find((user) => user.email === "admin@example.com")!;
    // The ban dialog's form keeps the list's search, so the dialog shows again with its message.
    const refused = await as.post(`/admin?q=admin%40example.com&ban=${self.id}`, {
      intent: "ban",
      userId: self.id,
      days: "30",
      reason: "Testing",
    });
    expect(text(refused.html)).toContain("You cannot ban yourself");
    expect(refused.html).toContain("Testing");
  });

  it("answers a fan, an artist and a visitor who post a ban, an unban or a reset without doing it", async () => {
    const target = await newFan(`target_${Date.now().toString(36)}`);
    for (const visitor of [await signedIn("fan@example.com", "fan-demo-pass"), await signedIn("artist@example.com", "artist-demo-pass")]) {
      for (const intent of ["ban", "reset", "unban"]) {
        expect((await visitor.post("/admin", { intent, userId: target.id, days: "30" })).response.status).toBe(403);
      }
    }
    expect((await new Visitor().post("/admin", { intent: "ban", userId: target.id, days: "30" })).response.status).toBe(302);
    expect((await serviceClient.auth.admin.getUserById(target.id)).data.user?.banned_until ?? null).toBeNull();
    await expect(mailLink(target.email)).rejects.toThrow();
  });
});
