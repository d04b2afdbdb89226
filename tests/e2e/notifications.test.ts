// Fans hear of new music, with and without JavaScript: a fan follows an artist; the artist's release out
// today is announced by the job the media Worker's Cron Trigger runs (here through its operator route);
// the fan's bell counts it (with JavaScript, live, without a reload), the notifications page shows it and
// marks it read, the dashboard recommends it saying why, and the release mail in the outbox unsubscribes
// the fan from the artist in one click, without signing in. axe finds nothing on the notifications page
// and the unsubscribe page (with JavaScript, which axe runs in).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  admin,
  baseUrl,
  browserForThisFile,
  expectNoAxeViolations,
  hydrated,
  marketplaceHeaders,
  newAccountPage,
  newPage,
} from "./support/browser.ts";

const browser = await browserForThisFile();
const today = new Date().toISOString().slice(0, 10);

/** What the media Worker's Cron Trigger runs every hour: the announcement job, through its operator route. */
async function scheduledAnnouncements() {
  const response = await fetch(new URL("/announcements", baseUrl), {
    method: "POST",
    headers: marketplaceHeaders,
  });
  assert.equal(response.status, 200, "the announcement job runs");
}

for (const javaScriptEnabled of [true, false]) {
  describe(`hearing of new music ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test("a release reaches the follower's bell, notifications, recommendations and inbox, and the mail unsubscribes", async () => {
      const name = `Bell Ringer ${javaScriptEnabled ? "Live" : "Plain"}`;
      const artist = await newAccountPage(browser, "artist", name);
      const fan = await newAccountPage(browser, "fan", `ringfan${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`, {
        javaScriptEnabled,
      });
      const { page } = fan;
      await page.goto(`/artist/${artist.userId}`);
      await page.getByRole("button", { name: `Follow ${name}` }).click();
      await page.getByRole("button", { name: `Following ${name}. Unfollow` }).waitFor();

      await page.goto("/discover");
      if (javaScriptEnabled) {
        await hydrated(page);
        await page.locator("a[data-live]").waitFor({ state: "attached" });
      }
      const track = await admin
        .from("tracks")
        .insert({ artist_id: artist.userId, title: "Out Now", genre: "Folk", price: 2, description: "A new single", release_date: today })
        .select("id")
        .single();
      assert.equal(track.error, null);
      await scheduledAnnouncements();
      // With JavaScript the bell hears it live; without, the next page shows it.
      if (!javaScriptEnabled) await page.reload();
      await page.getByRole("link", { name: "Notifications, 1 unread" }).click();
      await page.getByRole("heading", { level: 1, name: "Notifications" }).waitFor();
      await page
        .getByRole("listitem")
        .filter({ hasText: `${name} released Out Now (single).` })
        .getByText("New")
        .waitFor();
      await page.getByRole("link", { name: "Notifications", exact: true }).waitFor();
      // (axe runs in the page's JavaScript)
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      await page.goto("/dashboard/fan");
      await page.getByRole("list", { name: "Recommended releases" }).getByText(`Because you follow ${name}`).waitFor();

      // The mail, in the mail stand-in's outbox; its unsubscribe link opened in a browser that is not signed in.
      const outbox = await newPage(browser, { javaScriptEnabled });
      const mail = outbox.page.locator("article", { hasText: fan.email }).filter({ hasText: `New from ${name}: Out Now` });
      for (let look = 0; (await mail.count()) === 0; look++) {
        assert.ok(look < 500, "the release mail reaches the outbox");
        await outbox.page.goto(process.env.E2E_MAIL_URL!);
      }
      const unsubscribe = await mail
        .locator("iframe")
        .contentFrame()
        .getByRole("link", { name: `Unsubscribe from ${name}` })
        .getAttribute("href");
      await outbox.page.goto(unsubscribe!);
      await outbox.page.getByText(`Stop ${name}’s release emails to ${fan.email}?`).waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(outbox.page);
      await outbox.page.getByRole("button", { name: "Unsubscribe" }).click();
      await outbox.page
        .getByRole("status")
        .filter({ hasText: `Unsubscribed. ${fan.email} will no longer get ${name}’s release emails.` })
        .waitFor();
      await outbox.page.getByRole("button", { name: "Subscribe again" }).waitFor();

      await outbox.close();
      await fan.close();
      await artist.close();
    });
  });
}
