// Administration as a browser without JavaScript uses it: the guard (a visitor logs in; a fan, an artist
// and a user whose user_metadata claims admin get 'Access Denied' with 403), the News Manager (add, edit,
// deactivate, delete after a confirmation, each refusal next to its field) with the home page's banner
// following at once, and the audit log that records each change and that nobody can rewrite.
import { describe, expect, it } from "vitest";
import { Visitor, inputValue, serviceClient, signedIn, text } from "./support.ts";

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
