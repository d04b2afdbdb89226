// Pre-ordering, with and without JavaScript: the demo artist's Tidewater is on pre-order; its album page
// says when it is out and offers only its instant track to play, a fan buys it through Buy Now and the
// Stripe stand-in, and the page then says it is pre-ordered. Its artist saves its pre-order from a track's
// edit page. axe finds nothing on the album page, the edit page and the page after buying.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import {
  admin,
  browserForThisFile,
  demoAlbumPath,
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  newAccountPage,
  payWithCard,
  signedInPage,
  viewports,
} from "./support/browser.ts";

const browser = await browserForThisFile();
const albumPath = demoAlbumPath("Tidewater");

/** Its day, as the pages write it (the app's one date formatter, for en-US). */
async function outOn(): Promise<string> {
  const { data, error } = await admin.from("tracks").select("release_date").eq("title", "Ferry Timetable").single();
  assert.equal(error, null);
  return new Date(`${data!.release_date}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
}

async function openBuyNow(page: Page, label: RegExp, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    await hydrated(page);
    await page.getByRole("button", { name: label }).click();
  } else {
    await page.getByRole("link", { name: label }).click();
  }
}

for (const javaScriptEnabled of [true, false]) {
  describe(`pre-ordering ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test("a fan pre-orders an album: told when it is out, only the instant track plays, and it is theirs once paid", async () => {
      const { page, close } = await newAccountPage(
        browser,
        "fan",
        `earlybird${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`,
        {
          javaScriptEnabled,
          viewport: javaScriptEnabled ? viewports.desktop : viewports.phone,
        },
      );
      const day = await outOn();
      await page.goto(albumPath);
      await page.getByText(`Pre-order · out ${day}`).waitFor();
      const tracks = page.getByRole("list", { name: "Tracks of Tidewater" });
      await tracks.getByText("Instant download").waitFor();
      await tracks.getByText(`Out ${day}`).waitFor();
      if (javaScriptEnabled) {
        await hydrated(page);
        // Only the instant track has a play button.
        assert.equal(await tracks.getByRole("button", { name: /^Play/ }).count(), 1);
        await expectNoAxeViolations(page);
      }

      await openBuyNow(page, /^Buy Now - £2\.58$/, javaScriptEnabled);
      await page.getByRole("dialog", { name: "Complete Purchase" }).getByRole("button", { name: "Add to cart" }).click();
      await page.waitForURL((url) => url.pathname === "/cart");
      await page.getByLabel(/lose my 14-day right to withdraw/).check();
      await page.getByRole("button", { name: /^Pay £/ }).click();
      await payWithCard(page);
      await page.waitForURL((url) => url.pathname === "/checkout/done");
      await page.getByRole("heading", { level: 1, name: "Thank you!" }).waitFor();

      await page.goto(albumPath);
      await page.getByText(`Pre-ordered: the rest is yours on ${day}`).waitFor();
      assert.equal(await page.getByRole(javaScriptEnabled ? "button" : "link", { name: /^Buy Now/ }).count(), 0);
      if (javaScriptEnabled) {
        await hydrated(page);
        await expectNoAxeViolations(page);
      }
      await close();
    });

    test("its artist saves its pre-order from a track's edit page", async () => {
      const { page, close } = await signedInPage(browser, "artist", {
        javaScriptEnabled,
        viewport: javaScriptEnabled ? viewports.desktop : viewports.phone,
      });
      const trackId = demoTrackPath("Low Tide Lanterns").split("/").pop()!;
      await page.goto(`/dashboard/artist/tracks/${trackId}`);
      await page.getByRole("heading", { name: "Pre-order", exact: true }).waitFor();
      const instant = (title: string) => page.getByRole("checkbox", { name: title, exact: true });
      assert.equal(await instant("Low Tide Lanterns").isChecked(), true);
      assert.equal(await instant("Ferry Timetable").isChecked(), false);
      if (javaScriptEnabled) {
        await hydrated(page);
        await expectNoAxeViolations(page);
      }
      // Saved as it is: the same day (nobody is told), the opener still instant.
      await page.getByRole("button", { name: "Save pre-order" }).click();
      await page.waitForURL((url) => url.pathname === `/dashboard/artist/tracks/${trackId}`);
      await page.getByRole("button", { name: "Withdraw pre-order" }).waitFor();
      const { data } = await admin.from("releases").select("preorder").eq("title", "Tidewater").single();
      assert.equal(data!.preorder, true);
      await close();
    });
  });
}
