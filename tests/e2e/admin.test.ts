// The administrator's News Manager in the browser: add a news item and see the home page's banner show
// it, deactivate it and see it go, delete it after the confirmation, find each change in the audit log;
// with JavaScript and without. A fan meets 'Access Denied'. axe on each page.
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { expectNoAxeViolations, hydrated, launchBrowser, logIn, newPage } from "./support/browser.ts";

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

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

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  describe(`the News Manager ${mode}`, () => {
    test("the admin adds, deactivates and deletes a news item, and the home page follows", async () => {
      const title = `Label night ${javaScriptEnabled ? "JS" : "plain"} ${Date.now().toString(36)}`;
      const { page, close } = await newPage(browser, { javaScriptEnabled });
      await page.goto("/login?redirectTo=/admin/news");
      await logIn(page, "admin@example.com", "admin-demo-pass");
      await page.waitForURL("**/admin/news");
      await page.getByRole("heading", { level: 1, name: "News Manager" }).waitFor();
      if (javaScriptEnabled) {
        await hydrated(page);
        await expectNoAxeViolations(page);
      }

      await page.getByRole("button", { name: "Add news item" }).click();
      await page.getByText("Title is required").waitFor();
      await page.getByLabel("Title").first().fill(title);
      await page.getByLabel("Content").first().fill("Three new releases and a party at the record shop.");
      await page.getByRole("button", { name: "Add news item" }).click();
      await item(page, title).waitFor();
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
      if (javaScriptEnabled) await expectNoAxeViolations(page);
      await close();
    });
  });
}

test("a fan is told 'Access Denied'", async () => {
  const { page, close } = await newPage(browser);
  await page.goto("/login?redirectTo=/admin");
  await logIn(page, "fan@example.com", "fan-demo-pass");
  await page.getByRole("heading", { level: 1, name: "Access Denied" }).waitFor();
  await page.getByText("You do not have permission to access this page").waitFor();
  await expectNoAxeViolations(page);
  await close();
});
