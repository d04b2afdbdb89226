import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import {
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  newPage,
  screenshot,
  viewports,
  currentPath,
  logIn,
} from "./support/browser.ts";

const browser = await browserForThisFile();

const demoArtist = "/artist/a1000000-0000-4000-8000-000000000012";
const emberRoad = "/artist/a1000000-0000-4000-8000-000000000001";
const demoFan = "/fan/f0000000-0000-4000-8000-000000000001";

/** The follower count the artist page's header shows. */
async function followerCount(page: Page): Promise<number> {
  const text = await page
    .getByRole("main")
    .getByText(/^[\d,]+ followers?$/)
    .first()
    .textContent();
  return Number(text!.replace(/\D/g, ""));
}

// What the server renders for these without JavaScript (follow and unfollow, Follow as a visitor, the
// newsletter's answer) is proved by the route tests (tests/routes/catalog.test.ts).
describe("catalog with JavaScript", () => {
  test("a fan browses home → genre → artist, follows (the count changes and stays), then unfollows", async () => {
    const { page, close } = await newPage(browser);
    // vinylvera (a demo fan) does not follow Ember Road.
    await page.goto("/login");
    await logIn(page, "vinylvera@example.com", "demo-pass");
    await page.waitForURL("**/dashboard/fan");

    await page.goto("/");
    await page.getByRole("region", { name: "Rock" }).getByRole("link", { name: "View all Rock artists" }).click();
    await page.waitForURL((url) => url.pathname === "/genres/Rock");
    await page.getByRole("heading", { level: 1, name: "Rock Artists" }).waitFor();
    await page.getByRole("link", { name: /Ember Road/ }).click();
    await page.waitForURL((url) => url.pathname === emberRoad);
    await page.getByRole("heading", { level: 1, name: "Ember Road" }).waitFor();

    const before = await followerCount(page);
    let release: () => void = () => {};
    // Hold the follow in flight: the button already says Following, is disabled, and the count moved.
    await hydrated(page);
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${emberRoad}.data*`, async (route) => {
      if (route.request().method() === "POST") await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Follow Ember Road" }).click();
    const following = page.getByRole("button", { name: /^Following Ember Road/ });
    await following.waitFor();
    await page.getByText(`${before + 1} followers`, { exact: true }).waitFor();
    assert.equal(await following.isDisabled(), true, "disabled while the follow is saved");
    release();
    await page.waitForFunction(() => !document.querySelector("button[aria-label^='Following Ember Road']")?.hasAttribute("disabled"));
    await page.unrouteAll();
    await page.reload();
    await page.getByRole("button", { name: /^Following Ember Road/ }).waitFor();
    assert.equal(await followerCount(page), before + 1, "the follow is stored");

    await page.getByRole("button", { name: /^Following Ember Road/ }).click();
    await page.getByRole("button", { name: "Follow Ember Road" }).waitFor();
    await page.getByText(`${before} followers`, { exact: true }).waitFor();
    // With JavaScript the count moves before the server has answered: reload only once it has.
    await page.getByRole("button", { name: "Follow Ember Road" }).and(page.locator(":enabled")).waitFor();
    await page.reload();
    assert.equal(await followerCount(page), before);
    await close();
  });

  test("a visitor who presses Follow logs in and comes back to the artist", async () => {
    const { page, close } = await newPage(browser);
    await page.goto(emberRoad);
    await hydrated(page);
    await page.getByRole("button", { name: "Follow Ember Road" }).click();
    await page.waitForURL("**/login?**");
    assert.equal(currentPath(page), `/login?redirectTo=${encodeURIComponent(emberRoad)}`);
    await logIn(page, "fan@example.com", "fan-demo-pass");
    await page.waitForURL((url) => url.pathname === emberRoad);
    await page.getByRole("button", { name: "Follow Ember Road" }).waitFor();
    await close();
  });

  test("the newsletter thanks the subscriber and checks the address", async () => {
    const { page, close } = await newPage(browser);
    await page.goto("/");
    await hydrated(page);
    const form = page.getByRole("region", { name: "Stay in the loop" });
    await form.getByLabel("Email address").fill("not-an-email");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await form.getByText("Please enter a valid email address").waitFor();
    assert.equal(await form.getByLabel("Email address").inputValue(), "not-an-email");
    await form.getByLabel("Email address").fill("listener@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await form.getByText("Thanks for subscribing! 🎵").waitFor();
    // Three seconds later the form is back, empty.
    await form.getByLabel("Email address").waitFor({ timeout: 5000 });
    assert.equal(await form.getByLabel("Email address").inputValue(), "");
    await close();
  });
});

describe("catalog", () => {
  test("the header search is a combobox: typed, browsed with arrow keys, opened with Enter", async () => {
    const { page, close } = await newPage(browser);
    await page.goto("/about");
    await hydrated(page);
    const search = page.getByRole("banner").getByRole("combobox", { name: "Search artists" });
    await search.focus();
    await page.keyboard.type("zzzz");
    await page.getByRole("status").filter({ hasText: "No results found" }).waitFor();
    await search.fill("");
    await page.keyboard.type("LAN");
    const option = page.getByRole("option", { name: /The Paper Lanterns/ });
    await option.waitFor();
    assert.equal(await search.getAttribute("aria-expanded"), "true");
    await screenshot(page, "desktop-header-search");
    await page.keyboard.press("ArrowDown");
    assert.equal(await search.getAttribute("aria-activedescendant"), await option.getAttribute("id"));
    assert.equal(await option.getAttribute("aria-selected"), "true");
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === demoArtist);
    await page.getByRole("heading", { level: 1, name: "The Paper Lanterns" }).waitFor();
    await close();
  });

  test("the news banner shows the newest item and jumps with its dots", async () => {
    const { page, close } = await newPage(browser);
    await page.goto("/");
    await hydrated(page);
    const news = page.getByRole("region", { name: "News" });
    await news.getByText("Featured artist: The Paper Lanterns").waitFor();
    await news.getByRole("button", { name: /Show news 3 of 3/ }).click();
    await news.getByText("Welcome to the marketplace").waitFor();
    await news.getByRole("button", { name: "Pause news rotation" }).click();
    await news.getByRole("button", { name: "Resume news rotation" }).waitFor();
    await close();
  });

  test("on a phone, each home row starts in line with its heading and scrolls sideways to its last card", async () => {
    const { page, close } = await newPage(browser, { viewport: viewports.phone });
    await page.goto("/");
    for (const name of ["New Artists", "Popular Artists", "Rock"]) {
      const section = page.getByRole("region", { name });
      await section.scrollIntoViewIfNeeded();
      const heading = await section.getByRole("heading", { level: 2, name }).boundingBox();
      const cards = section.getByRole("listitem");
      const first = await cards.first().boundingBox();
      assert.equal(first!.x, heading!.x, `${name}: the first card lines up with the heading`);
      await cards.last().scrollIntoViewIfNeeded();
      const last = await cards.last().boundingBox();
      assert.ok(last!.x + last!.width <= viewports.phone.width, `${name}: the last card scrolls fully into view`);
    }
    await close();
  });

  test("an unknown artist or fan is a 404 with the spec's message", async () => {
    const { page, close } = await newPage(browser);
    let response = await page.goto("/artist/00000000-0000-4000-8000-000000000000");
    assert.equal(response?.status(), 404);
    await page.getByRole("heading", { level: 1, name: "Artist not found" }).waitFor();
    response = await page.goto("/fan/not-an-id");
    assert.equal(response?.status(), 404);
    await page.getByRole("heading", { level: 1, name: "Fan not found" }).waitFor();
    await close();
  });

  for (const [device, viewport] of Object.entries(viewports)) {
    test(`axe finds no violations on the catalog pages (${device})`, async () => {
      const { page, close } = await newPage(browser, { viewport });
      const pages = {
        home: "/",
        discover: "/discover?genre=Pop",
        genres: "/genres",
        "genre-rnb": "/genres/R%26B",
        "genre-missing": "/genres/Polka",
        artists: "/artists",
        "artists-empty": "/artists?q=nobody+plays+this",
        artist: demoArtist,
        fan: demoFan,
        "artist-missing": "/artist/00000000-0000-4000-8000-000000000000",
      };
      for (const [name, target] of Object.entries(pages)) {
        await page.goto(target);
        await hydrated(page);
        await expectNoAxeViolations(page);
        await screenshot(page, `${device}-catalog-${name}`);
      }
      await close();
    });
  }
});
