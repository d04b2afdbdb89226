// Fans hear of new music, without JavaScript: a release out today is announced by the announcement job
// (here through its operator route, `POST /announcements`, the job the media Worker's Cron Trigger runs) to
// its artist's followers and newsletter signups, once however often and however many at once the job
// runs; never a withdrawn or upcoming one. The bell counts it, /notifications shows it and marks it read.
// Every release mail carries List-Unsubscribe with its one-click POST (RFC 8058), which works without a
// cookie; a forged link, or one altered to name another address, changes nothing. The artist's newsletter
// signups come back as CSV; email settings are the user's to choose; recommendations say why.
import { beforeAll, describe, expect, it } from "vitest";
import {
  Visitor,
  appUrl,
  confirmationLinkTo,
  mailsTo,
  marketplaceHeaders,
  newArtist,
  newFan,
  recordSales,
  serviceClient,
  text,
} from "./support.ts";

const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

const runJob = (secret?: string) => fetch(new URL("/announcements", appUrl), { method: "POST", headers: marketplaceHeaders(secret) });

async function publish(artistId: string, title: string, releaseDate = today) {
  const track = await serviceClient
    .from("tracks")
    .insert({ artist_id: artistId, title, genre: "Folk", price: 2, description: "New music", release_date: releaseDate })
    .select("id, release_id")
    .single();
  expect(track.error).toBeNull();
  return track.data!;
}

type Mail = Awaited<ReturnType<typeof mailsTo>>[number] & { headers?: Record<string, string> };

/** The release mail to `email`, once the queue delivered it. */
async function releaseMailTo(email: string, title: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = ((await mailsTo(email)) as Mail[]).find((mail) => mail.text?.includes(title));
        return found !== undefined;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}

let artist: Awaited<ReturnType<typeof newArtist>>;
let fan: Awaited<ReturnType<typeof newFan>>;
const username = `bellfan${Date.now().toString(36)}`;
const letters = `letters-${Date.now().toString(36)}@example.com`;
let released: { id: string; release_id: string };

beforeAll(async () => {
  artist = await newArtist("Bellwether");
  fan = await newFan(username);
  const follow = await fan.visitor.post(`/artist/${artist.id}/follow`, { intent: "follow", redirectTo: `/artist/${artist.id}` });
  expect(follow.response.status).toBe(303);
  released = await publish(artist.id, "Out Today");
  const withdrawn = await publish(artist.id, "Withdrawn Before Its Day");
  await serviceClient.from("releases").delete().eq("id", withdrawn.release_id);
  await publish(artist.id, "Out Tomorrow", tomorrow);
});

describe("the newsletter form on an artist's page", () => {
  it("keeps what was typed and says what is wrong", async () => {
    const bad = await new Visitor().post(`/artist/${artist.id}`, { intent: "newsletter", email: "not-an-address" });
    expect(bad.response.status).toBe(400);
    expect(text(bad.html)).toContain("Please enter a valid email address");
    expect(bad.html).toContain('value="not-an-address"');
  });

  it("takes a visitor's address once its inbox confirms (newsletters.test.ts proves confirming)", async () => {
    const signup = await new Visitor().post(`/artist/${artist.id}`, { intent: "newsletter", email: letters });
    expect(signup.response.status).toBe(200);
    expect(text(signup.html)).toContain("Check your inbox to confirm your subscription.");
    const confirmed = await new Visitor().post(await confirmationLinkTo(letters, "Bellwether"), {});
    expect(text(confirmed.html)).toContain("You’re subscribed to Bellwether’s news.");
  });
});

describe("announcing a release", () => {
  it("is the marketplace's job alone", async () => {
    expect((await runJob("not-the-secret")).status).toBe(401);
  });

  it("tells followers and signups once, however often and however many at once the job runs", async () => {
    const runs = await Promise.all([runJob(), runJob(), runJob()]);
    expect(runs.map((run) => run.status)).toEqual([200, 200, 200]);
    expect((await runJob()).status).toBe(200);
    const mail = await releaseMailTo(fan.email, "Out Today");
    expect(mail.subject).toBe("New from Bellwether: Out Today");
    await releaseMailTo(letters, "Out Today");
    const { data: notices } = await serviceClient.from("notifications").select("release_id").eq("user_id", fan.id).eq("kind", "release");
    expect(notices).toEqual([{ release_id: released.release_id }]);
    const mails = ((await mailsTo(fan.email)) as Mail[]).filter((sent) => /Bellwether/.test(sent.text ?? ""));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).not.toContain("Withdrawn Before Its Day");
    expect(mails[0]!.text).not.toContain("Out Tomorrow");
  });

  it("puts it in the bell and on the notifications page, which marks it read", async () => {
    expect((await fan.visitor.get("/discover")).html).toContain('aria-label="Notifications, 1 unread"');
    const page = await fan.visitor.get("/notifications");
    expect(page.response.status).toBe(200);
    expect(text(page.html)).toMatch(/Bellwether released Out Today \(single\)\. New/);
    expect(text((await fan.visitor.get("/notifications")).html)).not.toMatch(/Out Today \(single\)\. New/);
    expect((await fan.visitor.get("/discover")).html).toContain('aria-label="Notifications"');
  });

  it("tells the artist of a new follower and a sale", async () => {
    await recordSales([{ track_id: released.id, amount: 2, user_id: fan.id, created_at: new Date().toISOString() }]);
    const page = text((await artist.visitor.get("/notifications")).html);
    expect(page).toContain(`${username} followed you.`);
    expect(page).toMatch(/You sold Out Today ?: your share is \$1\.76\./);
  });

  it("sends a visitor to sign in", async () => {
    const page = await new Visitor().get("/notifications");
    expect(page.response.status).toBe(302);
    expect(page.response.headers.get("Location")).toContain("/login?redirectTo=%2Fnotifications");
  });
});

describe("unsubscribing", () => {
  let oneClick: string;

  it("every release mail carries List-Unsubscribe, one-click (RFC 8058), and the same link in its text", async () => {
    const mail = await releaseMailTo(letters, "Out Today");
    expect(mail.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    oneClick = /^<(.+)>$/.exec(mail.headers?.["List-Unsubscribe"] ?? "")![1]!;
    expect(oneClick).toMatch(new RegExp(`^${appUrl}/unsubscribe/`));
    expect(mail.text).toContain(`Unsubscribe from Bellwether: ${oneClick}`);
  });

  const signups = async () => {
    const csv = await artist.visitor.download("/dashboard/artist/newsletter.csv");
    expect(csv.response.status).toBe(200);
    return new TextDecoder().decode(csv.bytes);
  };

  it("a forged link, or one altered to name another address, changes nothing", async () => {
    const [address, artistPart, signature] = new URL(oneClick).pathname.split("/").at(-1)!.split(".");
    const forged = `/unsubscribe/${address}.${artistPart}.${signature!.slice(0, -2)}AA`;
    const otherAddress = `/unsubscribe/${Buffer.from(fan.email).toString("base64url")}.${artistPart}.${signature}`;
    for (const path of [forged, otherAddress]) {
      expect((await new Visitor().get(path)).response.status).toBe(404);
      const posted = await new Visitor().request(path, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      });
      expect(posted.response.status).toBe(404);
    }
    expect(await signups()).toContain(`${letters},`);
    expect(await signups()).toMatch(new RegExp(`${letters},[^,]+,yes`));
  });

  it("the link shows what it stops and a button, without signing in, and is never cached", async () => {
    const page = await new Visitor().get(new URL(oneClick).pathname);
    expect(page.response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(text(page.html)).toContain(`Stop Bellwether’s release emails to ${letters}?`);
  });

  it("the one-click POST stops the mail at once, without a cookie", async () => {
    const response = await fetch(oneClick, {
      method: "POST",
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    expect(await signups()).toMatch(new RegExp(`${letters},[^,]+,no`));
  });

  it("the link, once used, says so and offers to subscribe again", async () => {
    const visitor = new Visitor();
    const page = await visitor.get(new URL(oneClick).pathname);
    expect(page.response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(text(page.html)).toContain(`This link was used already: ${letters} is unsubscribed from Bellwether’s release emails.`);
    const again = await visitor.post(new URL(oneClick).pathname, { intent: "subscribe" });
    expect(text(again.html)).toContain(`Subscribed again. ${letters} will get Bellwether’s release emails.`);
    expect(await signups()).toMatch(new RegExp(`${letters},[^,]+,yes`));
  });

  it("the signups' CSV is the artist's alone", async () => {
    expect((await fan.visitor.get("/dashboard/artist/newsletter.csv")).response.status).toBe(403);
    expect((await new Visitor().get("/dashboard/artist/newsletter.csv")).response.status).toBe(302);
  });
});

describe("email settings", () => {
  it("are the user's to choose, with a message for a choice that is not one", async () => {
    const bad = await fan.visitor.post("/dashboard/fan/settings", { intent: "emails", releaseEmails: "on", releaseDigest: "daily" });
    expect(bad.response.status).toBe(400);
    expect(text(bad.html)).toContain("Choose when release emails come");
    const saved = await fan.visitor.post("/dashboard/fan/settings", { intent: "emails", releaseDigest: "weekly" });
    expect(text(saved.html)).toContain("Email settings saved.");
    const { data } = await serviceClient.from("email_settings").select("release_emails, release_digest").eq("user_id", fan.id).single();
    expect(data).toEqual({ release_emails: false, release_digest: "weekly" });
  });
});

describe("recommendations", () => {
  it("offer what the fan's fellow buyers bought, saying why, and never what the fan owns", async () => {
    const other = await publish(artist.id, "Bought Together");
    // Three buyers besides the fan (with fewer, "also bought" would be one fan's other purchases): one bought
    // the other release too.
    const [buyer, second, third] = await Promise.all(
      ["cobuyer", "secondbuyer", "thirdbuyer"].map((name) => newFan(`${name}${Date.now().toString(36)}`)),
    );
    const now = new Date().toISOString();
    await recordSales([
      { track_id: released.id, amount: 2, user_id: buyer!.id, created_at: now },
      { track_id: other.id, amount: 2, user_id: buyer!.id, created_at: now },
      { track_id: released.id, amount: 2, user_id: second!.id, created_at: now },
      { track_id: released.id, amount: 2, user_id: third!.id, created_at: now },
    ]);
    const dashboard = text((await fan.visitor.get("/dashboard/fan")).html);
    expect(dashboard).toContain("Bought Together Bellwether Fans who bought Out Today bought this");
    expect(dashboard).not.toMatch(/Out Today Bellwether (Fans who|Because)/);
    const trackPage = text((await new Visitor().get(`/track/${released.id}`)).html);
    expect(trackPage).toMatch(/Fans who bought this also bought .*Bought Together/);
  });
});
