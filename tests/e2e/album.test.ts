// Releases and what one owns, in the browser: an album's page (its tracklist, Play All, Buy with the
// formats stated), a fan who bought an album and a single taking them home from Purchased and the album
// page, and an artist's download code made in the studio and redeemed by a fan; with JavaScript and
// without. axe on every page (with JavaScript: axe runs in the page).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { readZip } from "../support/zip.ts";
import {
  admin,
  browserForThisFile,
  demoAlbumPath,
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  newAccountPage,
  newPage,
  signedInPage,
  viewports,
} from "./support/browser.ts";

const browser = await browserForThisFile();
const headlights = demoAlbumPath("Headlights & Static");
const headlightsTracks = ["Open Highway", "Static on the Radio", "Gasoline Heart", "Porch Light"];
const trackId = (title: string) => demoTrackPath(title).replace("/track/", "");

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  describe(`an album ${mode}`, () => {
    test("a visitor reads its page, plays it whole (with JavaScript), and sees its price and formats in Buy", async () => {
      const { page, close } = await newPage(browser, { javaScriptEnabled });
      await page.goto(headlights);
      await page.getByRole("heading", { level: 1, name: "Headlights & Static" }).waitFor();
      const tracklist = page.getByRole("list", { name: "Tracks of Headlights & Static" });
      assert.deepEqual(await tracklist.getByRole("link").allTextContents(), headlightsTracks);
      await page.getByText("WAV as uploaded, MP3 160 kbps, FLAC").first().waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      if (javaScriptEnabled) {
        await hydrated(page);
        await page.getByRole("button", { name: "Play All" }).click();
        const bar = page.getByRole("region", { name: "Player", exact: true });
        await bar.getByRole("link", { name: "Open Highway" }).waitFor();
        await page.getByRole("button", { name: "Buy Now - $4.49" }).click();
      } else {
        await page.getByRole("link", { name: "Buy Now - $4.49" }).click();
      }
      const dialog = page.getByRole("dialog", { name: "Complete Purchase" });
      await dialog.getByText("Download: WAV as uploaded, MP3 160 kbps, FLAC").waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await close();
    });

    test("a fan who bought it and a single takes them home from Purchased, and the album page says You own this", async () => {
      const fan = await newAccountPage(browser, "fan", `owner${Date.now().toString(36)}`, { javaScriptEnabled });
      const bought = [...headlightsTracks, "Kites Over the Clyde"].map((title) => ({
        amount: 1.29,
        track_id: trackId(title),
        user_id: fan.userId,
      }));
      assert.equal((await admin.from("purchases").insert(bought)).error, null);
      const { page } = fan;
      await page.goto("/dashboard/fan/purchased");
      const releases = page.getByRole("list", { name: "Purchased releases" });
      await releases.getByRole("link", { name: "Headlights & Static", exact: true }).waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      const single = page.waitForEvent("download");
      await releases.getByRole("link", { name: "Download Kites Over the Clyde as uploaded" }).click();
      assert.equal((await single).suggestedFilename(), "The Paper Lanterns - Kites Over the Clyde.wav");

      const album = page.waitForEvent("download");
      await releases.getByRole("link", { name: "Download Headlights & Static as uploaded" }).click();
      const zip = await album;
      assert.equal(zip.suggestedFilename(), "Ember Road - Headlights & Static.zip");
      const files = readZip(new Uint8Array(readFileSync((await zip.path())!)));
      assert.deepEqual(
        files.map((file) => file.name),
        headlightsTracks.map((title, index) => `Ember Road - Headlights & Static/0${index + 1} ${title}.wav`),
      );
      assert.ok(files.every((file) => file.crcMatches && file.bytes.length > 1000));

      // A made format not made yet: the page says it is being prepared, and the download starts by itself
      // once it is made. FLAC, which nothing makes ahead (a paid order's MP3s are made as it is paid, and the
      // checkout tests, which may run earlier on the same marketplace, buy both), of the single in one run and
      // the album in the other.
      const made = javaScriptEnabled
        ? { name: "Kites Over the Clyde", file: "The Paper Lanterns - Kites Over the Clyde.flac" }
        : { name: "Headlights & Static", file: "Ember Road - Headlights & Static.zip" };
      await page.goto("/dashboard/fan/purchased");
      const madeDownload = page.waitForEvent("download", { timeout: 60_000 });
      await releases.getByRole("link", { name: `Download ${made.name} as FLAC` }).click();
      await page.getByRole("heading", { level: 1, name: /Preparing your download|Your download is ready/ }).waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      assert.equal((await madeDownload).suggestedFilename(), made.file);
      await page.getByRole("heading", { level: 1, name: "Your download is ready" }).waitFor();

      await page.goto(headlights);
      await page.getByText("You own this").waitFor();
      await page
        .getByRole("group", { name: "Download Headlights & Static" })
        .getByRole("link", { name: "Download Headlights & Static as uploaded" })
        .waitFor();
      assert.equal(await page.getByRole("link", { name: /Buy Now/ }).count(), 0);
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await fan.close();
    });

    test("an artist makes download codes for an album in the studio, and a new fan redeems one and finds the album theirs", async () => {
      const artist = await signedInPage(browser, "artist", { javaScriptEnabled, landing: "/dashboard/artist/tracks" });
      await artist.page.getByRole("link", { name: "Download Codes" }).click();
      await artist.page.getByRole("heading", { level: 1, name: "Download Codes" }).waitFor();
      await artist.page.getByRole("link", { name: "Codes for Small Town Satellites" }).click();
      await artist.page.getByRole("heading", { level: 1, name: "Codes for Small Town Satellites" }).waitFor();
      await artist.page.getByLabel("How many codes").fill("3");
      await artist.page.getByRole("button", { name: "Make codes" }).click();
      await artist.page.getByRole("status").getByText("Made 3 new codes.").waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(artist.page);
      const code = (await artist.page
        .getByRole("list", { name: "Codes for Small Town Satellites" })
        .locator("code")
        .first()
        .textContent())!;
      assert.match(code, /^[23456789A-HJKMNP-Z]{4}-[23456789A-HJKMNP-Z]{4}-[23456789A-HJKMNP-Z]{4}$/);
      await artist.page.getByRole("link", { name: "Export CSV" }).waitFor();
      await artist.close();

      const fan = await newAccountPage(browser, "fan", `redeemer${Date.now().toString(36)}`, { javaScriptEnabled });
      await fan.page.goto("/dashboard/fan/purchased");
      await fan.page.getByRole("link", { name: "Redeem a Code" }).click();
      await fan.page.getByRole("heading", { level: 1, name: "Redeem a Code" }).waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(fan.page);
      await fan.page.getByLabel("Download code").fill(code.toLowerCase());
      await fan.page.getByRole("button", { name: "Redeem" }).click();
      await fan.page.getByRole("heading", { name: "Small Town Satellites is now yours" }).waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(fan.page);
      await fan.page.getByRole("link", { name: "Go to Purchased" }).click();
      await fan.page
        .getByRole("list", { name: "Purchased releases" })
        .getByRole("link", { name: "Small Town Satellites", exact: true })
        .waitFor();
      await fan.close();
    });
  });
}

describe("on a phone and by keyboard", () => {
  test("the album page fits 390 px for every role, and keyboard focus never hides behind the player bar", async () => {
    for (const open of [
      () => newPage(browser, { viewport: viewports.phone }),
      () => signedInPage(browser, "fan", { viewport: viewports.phone }),
    ]) {
      const { page, close } = await open();
      await page.goto(headlights);
      await page.getByRole("heading", { level: 1, name: "Headlights & Static" }).waitFor();
      assert.ok(
        (await page.evaluate(() => document.documentElement.scrollWidth)) <= viewports.phone.width,
        "the album page scrolls sideways on a phone",
      );
      await close();
    }
    const { page, close } = await newPage(browser, { viewport: viewports.phone });
    await page.goto(headlights);
    await hydrated(page);
    await page.getByRole("button", { name: "Play All" }).click();
    const bar = page.getByRole("region", { name: "Player" });
    await bar.waitFor();
    await bar.getByRole("button", { name: "Pause" }).click();
    // Every control a Tab lands on in the page is above the bar, not under it (WCAG 2.4.11).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    const barTop = (await bar.boundingBox())!.y;
    for (let step = 0; step < 40; step += 1) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => {
        const element = document.activeElement!;
        const box = element.getBoundingClientRect();
        // Between the page's last control and its first, the focus is on the page itself.
        const inPage = element !== document.body && !element.closest("[data-player-bar]");
        return { inPage, bottom: box.bottom, name: element.textContent?.trim().slice(0, 40) };
      });
      if (focused.inPage) assert.ok(focused.bottom <= barTop + 1, `"${focused.name}" is focused under the player bar`);
    }
    await close();
  });

  test("a track's menu near the bottom of the window opens upward, whole on screen", async () => {
    const { page, close } = await newPage(browser, { viewport: { width: 1440, height: 700 } });
    await page.goto(headlights);
    await hydrated(page);
    const summary = page.getByLabel("More options for Porch Light");
    // The last row at the window's bottom edge.
    await summary.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight + 8));
    await summary.click();
    const menu = page.locator("details[open] > :not(summary)").first();
    await menu.waitFor();
    const box = (await menu.boundingBox())!;
    assert.ok(box.y >= 0 && box.y + box.height <= 700, `the menu runs past the window (${box.y}, ${box.height})`);
    await close();

    // A fan's menu grows once open (their playlists are drawn then): where it opens is judged again, so one
    // whose first items fit below its button, and whose playlists would not, ends upward, whole.
    const fan = await signedInPage(browser, "fan", { viewport: { width: 1440, height: 700 }, landing: headlights });
    await hydrated(fan.page);
    const fanSummary = fan.page.getByLabel("More options for Porch Light");
    await fanSummary.evaluate((element) => window.scrollBy(0, element.getBoundingClientRect().bottom - window.innerHeight + 150));
    await fanSummary.click();
    await fan.page.getByRole("link", { name: "New playlist..." }).waitFor();
    const grown = (await fan.page.locator("details[open] > :not(summary)").first().boundingBox())!;
    assert.ok(grown.y >= 0 && grown.y + grown.height <= 700, `the fan's menu runs past the window (${grown.y}, ${grown.height})`);
    await fan.close();
  });
});
