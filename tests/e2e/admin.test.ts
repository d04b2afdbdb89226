// The administrator in the browser. News Manager: add a news item and see the home page's banner show
// it, deactivate it and see it go, delete it after the confirmation, find each change in the audit log.
// Users: find a new user, send them a password reset (the mail is in the outbox), ban them through the
// dialog (their open page can no longer comment, their sign-in says suspended until when), lift the ban.
// Each with JavaScript and without. A fan meets 'Access Denied'. axe on each page.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import {
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  logIn,
  newPage,
  screenshot,
  signUpAsFan,
  supabaseUrl,
  signedInPage,
} from "./support/browser.ts";

const browser = await browserForThisFile();

/** The home page as a visitor sees it, in a context of its own. */
async function bannerShows(title: string, shown: boolean) {
  const { page, close } = await newPage(browser);
  await page.goto("/");
  const banner = page.getByText(title);
  if (shown) await banner.waitFor();
  else if ((await banner.count()) > 0) throw new Error(`the home page still shows "${title}"`);
  await close();
}

const item = (page: Page, title: string) => page.getByRole("list", { name: "News items" }).getByRole("listitem").filter({ hasText: title });

// What the server renders for these without JavaScript (the News Manager's forms, finding a user, a reset,
// the ban dialog and unbanning) is proved by the route tests (tests/routes/admin.test.ts).
describe("the News Manager with JavaScript", () => {
  test("the admin adds, deactivates and deletes a news item, and the home page follows", async () => {
    const title = `Label night ${Date.now().toString(36)}`;
    const { page, close } = await signedInPage(browser, "admin", { landing: "/admin/news" });
    await page.getByRole("heading", { level: 1, name: "News Manager" }).waitFor();
    await hydrated(page);
    await expectNoAxeViolations(page);

    await page.getByRole("button", { name: "Add news item" }).click();
    await page.getByText("Title is required").waitFor();
    await page.getByLabel("Title").first().fill(title);
    await page.getByLabel("Content").first().fill("Three new releases and a party at the record shop.");
    await page.getByRole("button", { name: "Add news item" }).click();
    await item(page, title).waitFor();
    // The Add form starts again empty, so a second press cannot add the item twice.
    assert.equal(await page.getByLabel("Title").first().inputValue(), "");
    assert.equal(await page.getByLabel("Content").first().inputValue(), "");
    await bannerShows(title, true);

    await item(page, title)
      .getByRole("button", { name: `Deactivate ${title}` })
      .click();
    await item(page, title).getByText("Inactive").waitFor();
    await bannerShows(title, false);

    await item(page, title)
      .getByRole("link", { name: `Delete ${title}` })
      .click();
    const confirm = page.getByRole("region", { name: `Delete “${title}”?` });
    await confirm.getByLabel("Yes, delete this news item for good.").check();
    await confirm.getByRole("button", { name: "Delete news item" }).click();
    await page.getByRole("region", { name: /^Delete/ }).waitFor({ state: "detached" });
    if ((await item(page, title).count()) > 0) throw new Error("the deleted item is still listed");

    await page.locator("summary", { hasText: "account menu" }).click();
    await page.getByRole("link", { name: "Admin", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
    await page.getByText(`admin@example.com deleted the news item “${title}”`).waitFor();
    await expectNoAxeViolations(page);
    await close();
  });
});

test("the admin finds a new user, sends a reset, bans and unbans them with JavaScript", async () => {
  // The user, signed in, on a track page with the comment form open.
  const fan = await newPage(browser);
  const email = await signUpAsFan(fan.page, `troublemaker${Date.now().toString(36)}`);
  const track = demoTrackPath("Greenhouse");
  await fan.page.goto(track);
  await hydrated(fan.page);

  const { page, close } = await signedInPage(browser, "admin", { landing: "/admin" });
  await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
  await page.getByRole("searchbox", { name: "Search by email" }).fill(email);
  await page.getByRole("button", { name: "Search" }).click();
  const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: email }) });
  await row.getByText("Active").waitFor();
  await hydrated(page);
  await expectNoAxeViolations(page);

  await row.getByRole("button", { name: `Reset password for ${email}` }).click();
  await page.getByRole("status").filter({ hasText: "Password reset email sent" }).waitFor();
  const outbox = await newPage(browser);
  await outbox.page.goto(`${supabaseUrl}/auth/v1/outbox`);
  await outbox.page.locator("article", { hasText: email }).getByRole("link", { name: "Choose a new password" }).waitFor();
  await outbox.close();

  await row.getByRole("link", { name: `Ban ${email}` }).click();
  const dialog = page.getByRole("dialog", { name: `Ban ${email}` });
  await dialog.waitFor();
  await expectNoAxeViolations(page);
  // A modal dialog: the focus starts inside, Escape cancels it.
  assert.equal(await dialog.evaluate((element) => element.matches(":modal") && element.contains(document.activeElement)), true);
  await page.keyboard.press("Escape");
  await dialog.waitFor({ state: "detached" });
  await row.getByRole("link", { name: `Ban ${email}` }).click();
  await dialog.waitFor();
  await screenshot(page, "admin-ban-dialog");
  await dialog.getByLabel("Days").fill("0");
  await dialog.getByLabel("Reason").fill("Spam in the comments");
  await dialog.getByRole("button", { name: "Ban user" }).click();
  await dialog.getByText("Ban for a whole number of days, from 1 to 36,500").waitFor();
  assert.equal(await dialog.getByLabel("Reason").inputValue(), "Spam in the comments");
  await dialog.getByLabel("Days").fill("7");
  await dialog.getByRole("button", { name: "Ban user" }).click();
  await dialog.waitFor({ state: "detached" });
  await page
    .getByRole("row")
    .filter({ hasText: email })
    .getByText(/^Banned until/)
    .waitFor();

  // The banned user's open page: their post is refused (they are signed out), and signing in says until when.
  await fan.page.getByLabel("Add a comment").fill("Posted after the ban");
  await fan.page.getByRole("button", { name: "Post comment" }).click();
  await fan.page.waitForURL((url) => url.pathname === "/login");
  await logIn(fan.page, email, "a-long-password");
  await fan.page
    .getByRole("alert")
    .filter({ hasText: /This account has been suspended until \w+ \d+, \d{4}\./ })
    .waitFor();
  await fan.close();

  await page.getByText(`admin@example.com banned ${email}`).waitFor();
  await page
    .getByRole("row")
    .filter({ hasText: email })
    .getByRole("button", { name: `Unban ${email}` })
    .click();
  await page.getByRole("row").filter({ hasText: email }).getByText("Active").waitFor();
  await close();
});

test("a fan is told 'Access Denied'", async () => {
  const { page, close } = await signedInPage(browser, "fan", { landing: "/admin" });
  await page.getByRole("heading", { level: 1, name: "Access Denied" }).waitFor();
  await page.getByText("You do not have permission to access this page").waitFor();
  await expectNoAxeViolations(page);
  await close();
});
