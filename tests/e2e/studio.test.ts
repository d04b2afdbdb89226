import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { tinyPng } from "../support/media.ts";
import { admin, currentPath, expectNoAxeViolations, hydrated, browserForThisFile, signedInPage, streamFailed } from "./support/browser.ts";
const paperLanterns = "a1000000-0000-4000-8000-000000000012";

const browser = await browserForThisFile();

/** A track of the demo artist's own for one test to change, so the demo catalogue stays as it is. */
async function ownTrack(title: string) {
  const { data, error } = await admin
    .from("tracks")
    .insert({ artist_id: paperLanterns, title, genre: "Indie", price: 1.5, description: "For the studio browser test" })
    .select("id")
    .single();
  assert.equal(error, null);
  return data!.id;
}

// With JavaScript: the studio's screens as people use them in a browser. What the server renders for
// them without JavaScript (the filters, the edit and delete forms, the Media Manager's plain upload,
// Store Settings' rows, Back, Retry) is proved by the route tests (tests/routes/studio.test.ts,
// upload.test.ts, store.test.ts), which read the same HTML.
describe("artist studio with JavaScript", () => {
  test("the artist filters Your Tracks, edits a track, then deletes it", async () => {
    const title = `Studio ${Date.now().toString(36)}`;
    const id = await ownTrack(title);
    const { page, close } = await signedInPage(browser, "artist", { javaScriptEnabled: true });
    await page.goto("/dashboard/artist/tracks");
    await page.getByRole("heading", { level: 1, name: "Your Tracks" }).waitFor();
    await hydrated(page);
    await expectNoAxeViolations(page);

    await page.getByRole("navigation", { name: "Filter tracks" }).getByRole("link", { name: "Albums" }).click();
    await page.waitForURL("**/dashboard/artist/tracks?filter=album");
    // With JavaScript the address changes before the filtered list arrives: wait for the single to go.
    await page.getByRole("link", { name: title, exact: true }).waitFor({ state: "detached" });
    await page.getByRole("link", { name: "Bicycle Bell", exact: true }).waitFor();
    await page.getByRole("link", { name: "All", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks" && url.search === "");

    await page.getByRole("link", { name: `Edit ${title}` }).click();
    await page.getByRole("heading", { level: 1, name: `Edit ${title}` }).waitFor();
    await hydrated(page);
    await expectNoAxeViolations(page);
    await page.getByLabel("Price (GBP)").fill("0.10");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("Price must be at least 0.99").waitFor();
    assert.equal(await page.getByLabel("Price (GBP)").inputValue(), "0.10");
    await page.getByLabel("Title").fill(`${title} (Live)`);
    await page.getByLabel("Price (GBP)").fill("2.00");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks");
    await page.getByRole("link", { name: `${title} (Live)`, exact: true }).waitFor();

    await page.getByRole("link", { name: `Edit ${title} (Live)` }).click();
    await page.getByRole("button", { name: "Delete track" }).click();
    await page.getByText("Tick the box to confirm you want to delete this track").waitFor();
    await page.getByLabel("I understand that deleting this track cannot be undone.").check();
    await page.getByRole("button", { name: "Delete track" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks");
    await page.getByRole("heading", { level: 1, name: "Your Tracks" }).waitFor();
    assert.equal(await page.getByRole("link", { name: `${title} (Live)`, exact: true }).count(), 0);
    assert.deepEqual((await admin.from("tracks").select("id").eq("id", id)).data, []);
    await close();
  });

  test("the artist uploads an image in the Media Manager, finds it in list view and removes it", async () => {
    const { page, close } = await signedInPage(browser, "artist", { javaScriptEnabled: true });
    await page.goto("/dashboard/artist/media");
    await page.getByRole("heading", { level: 1, name: "Media Manager" }).waitFor();
    await hydrated(page);
    await expectNoAxeViolations(page);
    await page.getByLabel("Upload an image").setInputFiles({ name: "poster.png", mimeType: "image/png", buffer: Buffer.from(tinyPng) });
    // The image uploads as soon as it is chosen, with its bar.
    await page.getByRole("progressbar", { name: "Upload of poster.png" }).waitFor();
    await page.getByText("Complete").waitFor();
    await page.getByRole("navigation", { name: "View" }).getByRole("link", { name: "List" }).click();
    await page.waitForURL("**/dashboard/artist/media?view=list");
    const remove = page.getByRole("link", { name: /^Remove \d+-[0-9a-f]{8}\.png$/ }).first();
    const name = (await remove.getAttribute("aria-label"))!.replace("Remove ", "");
    await page.getByLabel("Search your files").fill(name);
    await page.getByRole("button", { name: "Search" }).click();
    // The file shows before the search too: wait for the search's own address, or Remove would race it.
    await page.waitForURL((url) => url.searchParams.get("q") === name);
    await page.getByText(name, { exact: true }).waitFor();
    await page.getByRole("link", { name: `Remove ${name}` }).click();
    await page.getByRole("heading", { name: `Remove ${name}?` }).waitFor();
    await expectNoAxeViolations(page);
    await page.getByLabel("Yes, remove this file for good.").check();
    await page.getByRole("button", { name: "Remove file" }).click();
    await page.getByText("No files match your search").waitFor();
    await close();
  });

  test("the artist adds a pricing tier and a discount code, saves, and removes them again", async () => {
    const { data: before } = await admin
      .from("store_settings")
      .select("pricing_tiers, discounts, bundling")
      .eq("artist_id", paperLanterns)
      .single();
    const { page, close } = await signedInPage(browser, "artist", { javaScriptEnabled: true });
    try {
      await page.getByRole("link", { name: /Store Settings/ }).click();
      await page.getByRole("heading", { level: 1, name: "Store Settings" }).waitFor();
      await hydrated(page);
      await expectNoAxeViolations(page);
      // The demo store has three tiers and two codes.
      await page.getByRole("button", { name: "Add pricing tier" }).click();
      await page.getByLabel("Tier 4 name").fill("Patron");
      await page.getByLabel("Tier 4 price (GBP)").fill("9.99");
      await page.getByRole("button", { name: "Add discount code" }).click();
      await page.getByLabel("Discount 3 code").fill("lanterns20");
      await page.getByLabel("Discount 3 percentage").fill("30");
      await page.getByRole("button", { name: "Save store settings" }).click();
      // Codes are unique whatever their case: the new one clashes with LANTERNS20.
      await page.getByText("You already have a discount with this code").waitFor();
      assert.equal(await page.getByLabel("Tier 4 name").inputValue(), "Patron");
      await expectNoAxeViolations(page);
      await page.getByLabel("Discount 3 code").fill("PATRON30");
      await page.getByRole("button", { name: "Save store settings" }).click();
      await page.getByText("Store settings saved").waitFor();
      await page.reload();
      assert.equal(await page.getByLabel("Tier 4 name").inputValue(), "Patron");
      assert.equal(await page.getByLabel("Discount 3 code").inputValue(), "PATRON30");
      await page.getByRole("button", { name: "Remove tier 4" }).click();
      await page.getByText("Not saved yet: press Save store settings to keep your changes.").waitFor();
      assert.equal(await page.getByLabel("Tier 4 name").count(), 0);
      await page.getByRole("button", { name: "Save store settings" }).click();
      await page.getByText("Store settings saved").waitFor();
      const { data: after } = await admin.from("store_settings").select("pricing_tiers").eq("artist_id", paperLanterns).single();
      assert.equal(after?.pricing_tiers.length, 3);
    } finally {
      await admin.from("store_settings").update(before!).eq("artist_id", paperLanterns);
      await close();
    }
  });

  test("Back goes one step back (without JavaScript it leads to the dashboard: the route tests)", async () => {
    const { page, close } = await signedInPage(browser, "artist", { javaScriptEnabled: true });
    await page.goto("/about");
    await page.goto("/dashboard/artist/tracks");
    await hydrated(page);
    await page.getByRole("link", { name: "Edit Bicycle Bell" }).click();
    await page.getByRole("heading", { level: 1, name: "Edit Bicycle Bell" }).waitFor();
    await page.getByRole("link", { name: "Back" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks");
    assert.ok(currentPath(page).startsWith("/dashboard/artist"));
    await close();
  });

  test("a failed stream says why, and Retry makes it again until it is Ready", async () => {
    const title = `Stream ${Date.now().toString(36)}`;
    // A track of the artist's on a demo master, its stream failed as the dead-letter queue leaves it.
    const { data: demo } = await admin
      .from("tracks")
      .select("file_url")
      .eq("artist_id", paperLanterns)
      .not("file_url", "is", null)
      .limit(1)
      .single();
    const id = await ownTrack(title);
    await admin.from("tracks").update({ file_url: demo!.file_url }).eq("id", id);
    await streamFailed(id, "the stored files could not be reached");
    const { page, close } = await signedInPage(browser, "artist", { javaScriptEnabled: true });
    await page.goto("/dashboard/artist/tracks");
    const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: title, exact: true }) });
    await row.getByText("Stream: Failed: the stored files could not be reached").waitFor();
    await hydrated(page);
    await expectNoAxeViolations(page);
    await row.getByRole("button", { name: `Retry the stream of ${title}` }).click();
    await row.getByText(/^Stream: (Preparing the stream|Ready)$/).waitFor();
    // The queue makes it again: the list turns to Ready by itself.
    await row.getByText("Stream: Ready", { exact: true }).waitFor({ timeout: 60_000 });
    await close();
    // The row only: its master and stream are the demo track's.
    await admin.from("tracks").delete().eq("id", id);
  });
});

// Payment Settings both ways: without JavaScript the threshold still shows only while automatic
// withdrawals are ticked (CSS), which only a browser can show.
for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  describe(`payment settings ${mode}`, () => {
    test("the artist saves payment settings; the threshold shows only while automatic withdrawals are on", async () => {
      const { data: before } = await admin
        .from("artist_payout_settings")
        .select("paypal_email, payment_settings")
        .eq("artist_id", paperLanterns)
        .single();
      const { page, close } = await signedInPage(browser, "artist", { javaScriptEnabled });
      try {
        // The dashboard: its statistics row, library preview and Recent Activity.
        await page.getByRole("heading", { level: 2, name: "Recent Activity" }).waitFor();
        await page.getByRole("list", { name: "Statistics" }).getByText("Followers").waitFor();
        if (javaScriptEnabled) {
          await hydrated(page);
          await expectNoAxeViolations(page);
        }
        await page.getByRole("link", { name: /Payment Settings/ }).click();
        await page.getByRole("heading", { level: 1, name: "Payment Settings" }).waitFor();
        // The demo artist has automatic withdrawals on (its label names the artist's currency).
        const threshold = page.getByLabel(/^Withdrawal threshold \((GBP|EUR)\)$/);
        const automatic = page.getByLabel("Pay out automatically when my balance reaches the threshold");
        await threshold.waitFor();
        await automatic.uncheck();
        assert.equal(await threshold.isVisible(), false);
        await automatic.check();
        await threshold.waitFor();
        if (javaScriptEnabled) {
          await hydrated(page);
          await expectNoAxeViolations(page);
        }
        await threshold.fill("45");
        await page.getByLabel("Default minimum price").fill("1.75");
        await page.getByLabel("Currency").selectOption("EUR");
        await page.getByRole("button", { name: "Save payment settings" }).click();
        await page.getByText("Withdrawal threshold must be a whole number of at least $50, in steps of $10").waitFor();
        assert.equal(await page.getByLabel("Default minimum price").inputValue(), "1.75");
        await threshold.fill("200");
        await page.getByRole("button", { name: "Save payment settings" }).click();
        await page.getByText("Payment settings saved").waitFor();
        await page.reload();
        assert.equal(await page.getByLabel("Currency").inputValue(), "EUR");
        assert.equal(await page.getByLabel("Withdrawal threshold (EUR)").inputValue(), "200");
      } finally {
        await admin.from("artist_payout_settings").update(before!).eq("artist_id", paperLanterns);
        await close();
      }
    });
  });
}
