// Mail paced to the provider's rate: a burst of 429s from the mail stand-in (Resend's rate limit, held by
// the stand-in: stand-ins/tests/mail.test.ts) delays a mail until the provider takes sends again, and the
// mail still goes, once. A release's mail is spread over time, so mail queued after it goes before the
// release's last. A mail the queue gave up waits on the Admin Dashboard's "Mail not sent", counted
// in its heading, and "Send again" (a plain form post) sends it. (Who may list, send again and mark given
// up is proved in mail_dead_letter.test.sql.)
import { inject, describe, expect, it } from "vitest";
import { Visitor, appUrl, mailsTo, marketplaceBackend, marketplaceHeaders, newArtist, serviceClient, signedIn, text } from "./support.ts";

const mail = inject("mail");

/** Keeps the stand-in's rate limit used up for `ms`, as other senders of the same team would: how many sends it took. */
async function burst(ms: number): Promise<number> {
  const until = Date.now() + ms;
  let taken = 0;
  const sender = async () => {
    while (Date.now() < until) {
      const response = await fetch(`${mail.url}/emails`, {
        method: "POST",
        headers: { Authorization: `Bearer ${mail.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ from: "Burst <burst@example.com>", to: ["burst@example.com"], subject: "Burst", text: "Burst" }),
      });
      await response.body?.cancel();
      if (response.ok) taken += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  await Promise.all([sender(), sender(), sender(), sender()]);
  return taken;
}

describe("mail at the provider's rate limit", () => {
  it("a 429 burst delays mail without dropping it", async () => {
    const artist = await newArtist("Burst Lantern");
    const address = `burst-lantern-${Date.now().toString(36)}@example.com`;
    const bursting = burst(4000);
    // A newsletter signup's confirmation, queued while the burst holds every place the provider has.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signup = await new Visitor().post(`/artist/${artist.id}`, { intent: "newsletter", email: address });
    expect(signup.response.status).toBe(200);
    expect(await bursting).toBeGreaterThan(0);

    // The Worker's send was refused for the rate limit, and waited rather than being given up.
    const limited = (await (await fetch(`${mail.url}/_limited`)).json()) as string[];
    expect(limited).toContain(address);
    await expect.poll(async () => (await mailsTo(address)).length, { timeout: 15_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await mailsTo(address)).toHaveLength(1);
  });
});

describe("the Admin Dashboard's mail not sent", () => {
  it("lists a mail the queue gave up, counted in its heading, and sends it again", async () => {
    const artist = await newArtist("Dead Letter Lantern");
    const address = `dead-letter-${Date.now().toString(36)}@example.com`;
    // A signup's confirmation written but never queued, then given up as the queue's dead letter does.
    const signup = await marketplaceBackend.rpc("newsletter_signup", { artist_id: artist.id, email: address });
    expect(signup.error).toBeNull();
    expect((await marketplaceBackend.rpc("mail_given_up", { mail_id: String(signup.data) })).error).toBeNull();

    const admin = await signedIn("admin@example.com", "admin-demo-pass");
    const heading = (html: string) => text(/<h2 id="mail-not-sent-heading"[^>]*>([\s\S]*?)<\/h2>/.exec(html)?.[1] ?? "").trim();
    const listed = await admin.get("/admin");
    expect(heading(listed.html)).toMatch(/^Mail not sent [1-9]\d*$/);
    const before = Number(heading(listed.html).split(" ").at(-1));
    expect(text(listed.html)).toContain(`Newsletter confirmation ${address}`);

    const again = await admin.post("/admin", { intent: "send-mail-again", mailId: String(signup.data) });
    expect(again.response.status).toBe(200);
    expect(text(again.html)).toContain("The mail is on its way again");
    expect(text(again.html)).not.toContain(`Newsletter confirmation ${address}`);
    expect(heading(again.html)).toBe(`Mail not sent ${before - 1}`);
    expect(text(again.html)).toContain(`sent again the newsletter signup mail to ${address}`);
    await expect.poll(async () => (await mailsTo(address)).length, { timeout: 15_000 }).toBe(1);

    // Twice is once: it is no longer waiting.
    const twice = await admin.post("/admin", { intent: "send-mail-again", mailId: String(signup.data) });
    expect(twice.response.status).toBe(409);
    expect(text(twice.html)).toContain("This mail was sent already or is no longer waiting");
  });
});

describe("a release's mail", () => {
  it("is spread over time, so mail queued after it goes first", async () => {
    const artist = await newArtist("Spread Lantern");
    const stamp = Date.now().toString(36);
    const followers = Array.from({ length: 30 }, (_, n) => `spread-${stamp}-${n}@example.com`);
    for (const [n, email] of followers.entries()) {
      const fan = await serviceClient.auth.admin.createUser({
        email,
        password: "a-long-password",
        email_confirm: true,
        user_metadata: { role: "fan", username: `spread${stamp}${n}` },
      });
      expect(fan.error).toBeNull();
      expect((await serviceClient.from("followers").insert({ artist_id: artist.id, fan_id: fan.data.user!.id })).error).toBeNull();
    }
    const single = await serviceClient
      .from("tracks")
      .insert({
        artist_id: artist.id,
        title: "Spread Single",
        genre: "Folk",
        price: 2,
        description: "New",
        release_date: new Date().toISOString().slice(0, 10),
      })
      .select("id")
      .single();
    expect(single.error).toBeNull();
    const job = await fetch(new URL("/announcements", appUrl), { method: "POST", headers: marketplaceHeaders() });
    expect(job.status).toBe(200);
    await job.text();

    // A newsletter confirmation queued after the release's 30 mails (spread at 5 a second here: half the
    // tests' 10) arrives while the release's are still going out.
    const address = `spread-signup-${stamp}@example.com`;
    expect((await new Visitor().post(`/artist/${artist.id}`, { intent: "newsletter", email: address })).response.status).toBe(200);
    await expect.poll(async () => (await mailsTo(address)).length, { timeout: 15_000 }).toBe(1);
    const released = async () => {
      const { data } = await fetch(`${mail.url}/emails`, { headers: { Authorization: `Bearer ${mail.apiKey}` } }).then(
        (response) => response.json() as Promise<{ data: { to: string[] }[] }>,
      );
      return data.filter((message) => followers.includes(message.to[0]!)).length;
    };
    expect(await released()).toBeLessThan(followers.length);
    await expect.poll(released, { timeout: 15_000 }).toBe(followers.length);
    // Gone again, so the catalogue's order (most followed first) is the demo's for the suites after this one.
    expect((await serviceClient.auth.admin.deleteUser(artist.id)).error).toBeNull();
  });
});
