// A new fan's own space in the browser: follow an artist and find them under Following, play a track and
// find it in Recently Played, like and unlike a track and see Liked Songs follow, and edit the profile
// with a picture, an emoji and a genre; with JavaScript, and the forms without it; add an album to the
// wishlist and find it on their page beside a collection, and see a track's supporters. axe on every page.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  admin,
  demoAlbumPath,
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  setProfilePicture,
  newAccountPage,
} from "./support/browser.ts";

const browser = await browserForThisFile();

const maraVale = "/artist/a1000000-0000-4000-8000-000000000002";

test("a new fan follows an artist, plays a track, likes one, and finds each in their space", async () => {
  const { page, close } = await newAccountPage(browser, "fan", `listener${Date.now().toString(36)}`);
  await page.getByRole("heading", { level: 1, name: "Your Music" }).waitFor();
  await hydrated(page);
  await page.getByText("Your library is empty").waitFor();
  await expectNoAxeViolations(page);

  await page.goto(maraVale);
  await hydrated(page);
  await page.getByRole("button", { name: "Follow Mara Vale" }).click();
  await page
    .getByRole("button", { name: /^Following Mara Vale/ })
    .and(page.locator(":enabled"))
    .waitFor();
  await page.goto("/dashboard/fan");
  await page.getByRole("link", { name: /Following 1/ }).click();
  await page.getByRole("heading", { level: 1, name: "Following" }).waitFor();
  await page.getByRole("list", { name: "Artists you follow" }).getByRole("link", { name: "Mara Vale" }).waitFor();
  await expectNoAxeViolations(page);

  // Play: the player reports it after 5 seconds of playback (or at the end of a shorter track).
  await page.goto(demoTrackPath("Bicycle Bell"));
  await hydrated(page);
  await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("button[aria-label='Play Bicycle Bell']")?.disabled);
  const recorded = page.waitForResponse((response) => /\/track\/[^/]+\/play(?:\?|$)/.test(response.url()) && response.status() === 204);
  await page.getByRole("button", { name: "Play Bicycle Bell" }).click();
  await recorded;
  await page.getByRole("button", { name: "Pause Bicycle Bell" }).click();

  // Like, from the same page: a toggle button whose pressed state follows.
  const like = page.getByRole("button", { name: "Like Bicycle Bell" });
  assert.equal(await like.getAttribute("aria-pressed"), "false");
  await like.click();
  await page.waitForFunction(
    () => document.querySelector("button[aria-label='Like Bicycle Bell']")?.getAttribute("aria-pressed") === "true",
  );
  await page.reload();
  assert.equal(await page.getByRole("button", { name: "Like Bicycle Bell" }).getAttribute("aria-pressed"), "true");

  await page.getByRole("link", { name: "Recently Played" }).first().click();
  await page.getByRole("heading", { level: 1, name: "Recently Played" }).waitFor();
  await page.getByRole("list", { name: "Recently played tracks" }).getByRole("link", { name: "Bicycle Bell" }).waitFor();
  await expectNoAxeViolations(page);

  await page.getByRole("link", { name: "Liked Songs" }).first().click();
  await page.getByRole("heading", { level: 1, name: "Liked Songs" }).waitFor();
  await page.getByRole("list", { name: "Liked songs" }).getByRole("link", { name: "Bicycle Bell" }).click();
  await hydrated(page);
  await page.getByRole("button", { name: "Like Bicycle Bell" }).click();
  await page.waitForFunction(
    () => document.querySelector("button[aria-label='Like Bicycle Bell']")?.getAttribute("aria-pressed") === "false",
  );
  await page.goto("/liked");
  await page.getByText("No liked songs yet").waitFor();
  await close();
});

test("a fan adds an album to their wishlist, finds it on their page, and sees a collection and a track's supporters", async () => {
  const { page, close, userId } = await newAccountPage(browser, "fan", `wisher${Date.now().toString(36)}`);
  await page.goto(demoAlbumPath("Headlights & Static"));
  await hydrated(page);
  await page.getByRole("button", { name: /^Add to wishlist/ }).click();
  // With JavaScript the button turns at once, and stays so when the page is read again.
  await page.getByRole("button", { name: /^Remove from wishlist/ }).waitFor();
  await expectNoAxeViolations(page);
  await page.reload();
  await page.getByRole("button", { name: /^Remove from wishlist/ }).waitFor();

  await page.goto(`/fan/${userId}`);
  await page.getByRole("list", { name: "Wishlist" }).getByRole("link", { name: "Headlights & Static" }).first().waitFor();
  await expectNoAxeViolations(page);

  // The demo fan's page: their collection, covers linking to each release.
  await page.goto("/fan/f0000000-0000-4000-8000-000000000001");
  const collection = page.getByRole("list", { name: "Collection" });
  await collection.getByRole("link").first().waitFor();
  await page.getByRole("list", { name: "Wishlist" }).getByRole("link").first().waitFor();
  await expectNoAxeViolations(page);

  // A track someone paid for names them among its supporters, linking to their page.
  const { data: sold } = await admin.from("order_lines").select("item_id").eq("kind", "track").is("refunded_at", null).limit(1).single();
  await page.goto(`/track/${sold!.item_id}`);
  await hydrated(page);
  await page.getByRole("heading", { level: 2, name: "Supported by" }).waitFor();
  const supporter = page.getByRole("list", { name: "Fans who support this" }).getByRole("link").first();
  assert.match((await supporter.getAttribute("href")) ?? "", /^\/fan\/[0-9a-f-]{36}$/);
  await expectNoAxeViolations(page);
  await supporter.click();
  await page.getByRole("heading", { level: 2, name: /^Collection/ }).waitFor();
  await close();
});

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  describe(`the fan's Edit Profile ${mode}`, () => {
    test("a fan sets a picture, writes a bio with an emoji, picks a genre, and sees it on their public page", async () => {
      const username = `profile${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`;
      const { page, close } = await newAccountPage(browser, "fan", username, { javaScriptEnabled });
      await page.getByRole("link", { name: "Edit Profile" }).click();
      await page.getByRole("heading", { level: 1, name: "Edit Profile" }).waitFor();

      if (javaScriptEnabled) await hydrated(page);
      await setProfilePicture(page, javaScriptEnabled);

      await page.getByLabel("Bio").fill("Late-night radio ");
      if (javaScriptEnabled) {
        await expectNoAxeViolations(page);
        // The picker loads when opened, takes the keyboard in its search box, and puts the emoji at the cursor.
        await page.getByRole("button", { name: "Add emoji" }).click();
        const picker = page.getByRole("dialog", { name: "Choose an emoji" });
        await picker.getByRole("combobox").waitFor();
        // Keyboard only: the search box has the focus; type, move to the first result, choose it. The word
        // goes in as one input (as a paste or a phone's keyboard would), so no search for a part of it lands
        // after the arrow and takes the choice back; the choice is waited for before Enter.
        await page.keyboard.insertText("headphone");
        await picker
          .getByRole("option", { name: /headphone/i })
          .first()
          .waitFor();
        await page.keyboard.press("ArrowDown");
        await picker.getByRole("option", { name: /headphone/i, selected: true }).waitFor();
        await page.keyboard.press("Enter");
        await picker.waitFor({ state: "hidden" });
        // The emoji as emojibase spells it (with its presentation selector), where the cursor was.
        assert.match(await page.getByLabel("Bio").inputValue(), /^Late-night radio 🎧\uFE0F?$/u);
        await expectNoAxeViolations(page);
        // Open again, then a press anywhere else closes it (it covered the genre chips until then).
        await page.getByRole("button", { name: "Add emoji" }).click();
        await picker.getByRole("combobox").waitFor();
        await page.getByRole("heading", { level: 1, name: "Edit Profile" }).click();
        await picker.waitFor({ state: "hidden" });
      } else {
        await page.getByLabel("Bio").fill("Late-night radio 🎧");
      }
      await page.getByText("Jazz", { exact: true }).click();
      await page.getByRole("button", { name: "Save profile" }).click();
      await page.waitForURL("**/dashboard/fan");

      await page.getByRole("link", { name: "Edit Profile" }).click();
      await page.getByRole("link", { name: "View your public page" }).click();
      await page.getByRole("heading", { level: 1, name: username }).waitFor();
      await page.getByText("Late-night radio 🎧").waitFor();
      await page.getByRole("main").getByText("Jazz", { exact: true }).waitFor();
      const src = await page.getByRole("img", { name: username }).first().getAttribute("src");
      assert.match(src ?? "", /\/storage\/v1\/object\/public\/artwork\//);
      await close();
    });
  });
}

test("when the emoji picker cannot load, the fan is told and the profile still saves", async () => {
  const { page, close } = await newAccountPage(browser, "fan", `offline${Date.now().toString(36)}`);
  await page.route(/emoji-picker.*\.js$/, (route) => route.abort());
  await page.getByRole("link", { name: "Edit Profile" }).click();
  await hydrated(page);
  await page.getByRole("button", { name: "Add emoji" }).click();
  await page.getByRole("alert").filter({ hasText: "The emoji picker could not load" }).waitFor();
  await page.keyboard.press("Escape");
  await page.getByLabel("Bio").fill("Typed by hand 🙂");
  await page.getByRole("button", { name: "Save profile" }).click();
  await page.waitForURL("**/dashboard/fan");
  await close();
});
