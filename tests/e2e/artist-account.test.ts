// The artist's own screens beyond publishing: analytics whose figures follow the period in the address,
// Edit Profile (details, a show, a picture) landing on the public page, and the account settings, with
// JavaScript and, for the forms, without.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  currentPath,
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  setProfilePicture,
  signedInPage,
  newAccountPage,
} from "./support/browser.ts";

const browser = await browserForThisFile();

const nextYear = `${new Date().getUTCFullYear() + 1}-07-04`;

test("the demo artist's analytics change with the period chosen", async () => {
  const { page, close } = await signedInPage(browser, "artist");
  await page.getByRole("link", { name: /^Analytics/ }).click();
  await page.getByRole("heading", { level: 1, name: "Analytics" }).waitFor();
  await hydrated(page);
  const period = page.getByRole("navigation", { name: "Period" });
  assert.equal(await period.getByRole("link", { name: "Last 30 days" }).getAttribute("aria-current"), "page");
  const totals = page.getByRole("list", { name: "Totals" });
  const streams = () => totals.getByRole("listitem").filter({ hasText: "Streams" }).locator("p").nth(1).innerText();
  const monthStreams = await streams();
  await page.getByRole("img", { name: "Plays per day" }).waitFor();
  await expectNoAxeViolations(page);

  await period.getByRole("link", { name: "Last year" }).click();
  await page.waitForURL("**/dashboard/artist/analytics?period=1y");
  await page.getByRole("img", { name: "Plays per week" }).waitFor();
  assert.notEqual(await streams(), monthStreams, "a year holds more plays than the last 30 days");
  // The figures behind the chart are there as a table too.
  await page.getByText("The figures per week, as a table").click();
  await page.getByRole("table", { name: /Revenue, plays and downloads per week/ }).waitFor();
  await page
    .getByRole("table")
    .filter({ hasText: "Country" })
    .getByRole("rowheader", { name: /United States/ })
    .waitFor();
  await close();
});

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  describe(`Edit Profile ${mode}`, () => {
    test("an artist fills in their profile, a show and a picture, and lands on their public page", async () => {
      const name = `Profile ${javaScriptEnabled ? "JS" : "Plain"} ${Date.now().toString(36)}`;
      const { page, close } = await newAccountPage(browser, "artist", name, { javaScriptEnabled });
      await page.getByRole("link", { name: /^Edit Profile/ }).click();
      await page.getByRole("heading", { level: 1, name: "Edit Profile" }).waitFor();
      if (javaScriptEnabled) {
        await hydrated(page);
        await expectNoAxeViolations(page);
      }

      await setProfilePicture(page, javaScriptEnabled);

      await page.getByLabel("Short description").fill("Songs for the long way home");
      await page.getByRole("button", { name: "Add show" }).click();
      await page.getByLabel("Venue of show 1").waitFor();
      // What was typed before Add show is still there.
      assert.equal(await page.getByLabel("Short description").inputValue(), "Songs for the long way home");
      await page.getByLabel("Date of show 1").fill(nextYear);
      await page.getByLabel("Venue of show 1").fill("The Lantern Rooms");
      await page.getByLabel("City of show 1").fill("Glasgow");
      await page.getByLabel("Website").fill("ftp://not-the-web.example");
      await page.getByRole("button", { name: "Save profile" }).click();
      await page.getByText("Website must be a web address starting with http:// or https://").waitFor();
      await page.getByLabel("Website").fill("https://lantern-rooms.example");
      await page.getByRole("button", { name: "Save profile" }).click();

      await page.waitForURL(/\/artist\/[0-9a-f-]{36}$/);
      await page.getByRole("heading", { level: 1, name }).waitFor();
      for (const shown of ["Songs for the long way home", "The Lantern Rooms", "lantern-rooms.example"]) {
        await page.getByText(shown).first().waitFor();
      }
      const src = await page.getByRole("img", { name }).first().getAttribute("src");
      assert.match(src ?? "", /\/storage\/v1\/object\/public\/artwork\//);
      await close();
    });
  });
}

test("the account settings say what is wrong next to the field, and sign out everywhere", async () => {
  const { page, close } = await newAccountPage(browser, "artist", `Settings ${Date.now().toString(36)}`);
  await hydrated(page);
  await page.locator("summary", { hasText: "account menu" }).click();
  await page.getByRole("link", { name: "Account settings" }).click();
  await page.getByRole("heading", { level: 1, name: "Artist Profile Settings" }).waitFor();
  await hydrated(page);
  await expectNoAxeViolations(page);

  await page.getByLabel("Current password").fill("not-my-password");
  await page.getByLabel("New password", { exact: true }).fill("a-newer-password");
  await page.getByLabel("Confirm new password").fill("a-newer-password");
  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByText("Your current password is not right").waitFor();
  assert.equal(await page.getByLabel("Current password").getAttribute("aria-invalid"), "true");

  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.waitForURL("**/login");
  await page.goto("/dashboard/artist/settings");
  await page.waitForURL("**/login?redirectTo=*");
  assert.equal(currentPath(page), `/login?redirectTo=${encodeURIComponent("/dashboard/artist/settings")}`);
  await close();
});
