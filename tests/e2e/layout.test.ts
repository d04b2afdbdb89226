import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import {
  baseUrl,
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  demoAlbumPath,
  newAccountPage,
  newPage,
  screenshot,
  viewports,
} from "./support/browser.ts";

const browser = await browserForThisFile();

/** The pages this build has, with the heading each shows (the home page's names its featured artist). */
const pages: { path: string; heading?: string }[] = [
  { path: "/" },
  { path: "/about", heading: "Music, straight from the people who make it" },
  { path: "/terms", heading: "Terms of Use" },
  { path: "/privacy", heading: "Privacy Policy" },
];

const headingFor = (path: string) => pages.find((page) => page.path === path)?.heading;

async function expectArrivedAt(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname === path);
  const heading = headingFor(path);
  if (heading) await page.getByRole("heading", { level: 1, name: heading }).waitFor();
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  describe(`desktop navigation ${mode}`, () => {
    test("every header, sidebar and footer link reaches its page", async () => {
      const { page, close } = await newPage(browser, { viewport: viewports.desktop, javaScriptEnabled });
      const regions = [
        { name: "Main", links: ["Home", "Discover", "Genres", "Artists", "About"] },
        { name: "Browse", links: ["Home", "Genres", "Artists", "Discover", "About"] },
        { name: "Your Library", links: ["Recently Played", "Liked Songs", "Your Playlists"] },
        { name: "Legal", links: ["Terms", "Privacy"] },
      ];
      const expectedPath: Record<string, string> = {
        Home: "/",
        Discover: "/discover",
        Genres: "/genres",
        Artists: "/artists",
        About: "/about",
        "Recently Played": "/recent",
        "Liked Songs": "/liked",
        "Your Playlists": "/playlists",
        Terms: "/terms",
        Privacy: "/privacy",
      };
      // The library is personal: a visitor is asked to log in, and would come back there.
      const personal = new Set(["/recent", "/liked", "/playlists"]);
      for (const region of regions) {
        for (const name of region.links) {
          await page.goto("/about");
          if (javaScriptEnabled) await hydrated(page);
          await page.getByRole("navigation", { name: region.name }).getByRole("link", { name, exact: true }).click();
          const path = expectedPath[name]!;
          if (personal.has(path)) {
            await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("redirectTo") === path);
          } else {
            await expectArrivedAt(page, path);
          }
        }
      }
      for (const [name, path] of [
        ["Log in", "/login"],
        ["Sign up", "/register"],
      ] as const) {
        await page.goto("/");
        await page.getByRole("banner").getByRole("link", { name, exact: true }).click();
        await page.waitForURL((url) => url.pathname === path);
      }
      await close();
    });

    test("New Playlist leads a visitor through signing in to the form that makes one", async () => {
      const { page, close } = await newPage(browser, { viewport: viewports.desktop, javaScriptEnabled });
      await page.goto("/");
      await page.getByRole("complementary").getByRole("link", { name: "New Playlist" }).click();
      await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("redirectTo")?.startsWith("/playlists") === true);
      await close();
    });
  });

  describe(`phone menu ${mode}`, () => {
    test("opens and navigates", async () => {
      const { page, close } = await newPage(browser, { viewport: viewports.phone, javaScriptEnabled });
      await page.goto("/");
      if (javaScriptEnabled) await hydrated(page);
      const menu = page.getByRole("navigation", { name: "Mobile" });
      assert.equal(await menu.isVisible(), false, "the menu starts closed");
      await page.getByText("Menu", { exact: true }).click();
      await menu.waitFor({ state: "visible" });
      for (const name of [
        "Home",
        "Discover",
        "Genres",
        "Artists",
        "About",
        "Recently Played",
        "Liked Songs",
        "Your Playlists",
        "Log in",
        "Sign up",
      ]) {
        assert.ok(await menu.getByRole("link", { name, exact: true }).isVisible(), `${name} is in the menu`);
      }
      await screenshot(page, `phone-menu-open${javaScriptEnabled ? "" : "-no-js"}`);
      await menu.getByRole("link", { name: "About", exact: true }).click();
      await expectArrivedAt(page, "/about");
      if (javaScriptEnabled) {
        await menu.waitFor({ state: "hidden" });
        // Escape closes it and gives focus back to the toggle.
        await page.getByText("Menu", { exact: true }).click();
        await menu.waitFor({ state: "visible" });
        await page.keyboard.press("Escape");
        await menu.waitFor({ state: "hidden" });
      }
      await close();
    });
  });
}

describe("pages", () => {
  test("static pages show their facts", async () => {
    const { page, close } = await newPage(browser);
    await page.goto("/about");
    for (const fact of ["88% of digital sales", "92% of physical sales", "typically 4-6%"]) {
      await page.getByText(fact).first().waitFor();
    }
    await page.goto("/terms");
    for (const fact of [
      "at least 13 years old",
      "keep full ownership",
      "non-exclusive, worldwide, royalty-free licence",
      "Last updated January 15, 2024",
    ]) {
      await page.getByText(fact).first().waitFor();
    }
    await page.goto("/privacy");
    await page.getByText("Last updated January 15, 2024").waitFor();
    await close();
  });

  test("Chromium finds the site installable: its manifest reads without errors and meets the install criteria", async () => {
    // A profile of its own: Chrome installs nothing from an incognito window, which every other test's context is.
    const profile = mkdtempSync(join(tmpdir(), "crate-install-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync", "--disable-component-update"],
      baseURL: baseUrl,
    });
    try {
      const page = await context.newPage();
      await page.goto("/");
      await hydrated(page);
      const devtools = await context.newCDPSession(page);
      const manifest = (await devtools.send("Page.getAppManifest")) as { url: string; errors: unknown[] };
      assert.match(manifest.url, /\/site\.webmanifest$/);
      assert.deepEqual(manifest.errors, []);
      const { installabilityErrors } = (await devtools.send("Page.getInstallabilityErrors")) as { installabilityErrors: unknown[] };
      assert.deepEqual(installabilityErrors, []);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  test("an unknown URL shows the 404 page", async () => {
    const { page, close } = await newPage(browser);
    const response = await page.goto("/this-page-does-not-exist");
    assert.equal(response?.status(), 404);
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    await page.getByRole("link", { name: "Back to home" }).click();
    await expectArrivedAt(page, "/");
    await close();
  });

  test("keyboard users can skip to the content and see where focus is", async () => {
    const { page, close } = await newPage(browser);
    await page.goto("/about");
    await hydrated(page);
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to main content" });
    assert.ok(await skip.isVisible(), "the skip link appears on focus");
    const outline = await skip.evaluate((element) => getComputedStyle(element).outlineStyle);
    assert.notEqual(outline, "none", "focus is visible");
    await page.keyboard.press("Enter");
    assert.equal(new URL(page.url()).hash, "#main");
    await close();
  });

  test("a long account name leaves the header's avatar round, at 390 and 1440 px", async () => {
    for (const viewport of [viewports.phone, viewports.desktop]) {
      const fan = await newAccountPage(browser, "fan", `a-very-long-listener-name-${Date.now().toString(36)}-that-goes-on`, { viewport });
      const avatar = fan.page.locator("header summary span[aria-hidden=true]").first();
      if (await avatar.isVisible()) {
        const box = (await avatar.boundingBox())!;
        assert.equal(Math.round(box.width), Math.round(box.height), `the avatar is ${box.width} × ${box.height}`);
      }
      assert.ok(
        (await fan.page.evaluate(() => document.documentElement.scrollWidth)) <= viewport.width,
        "the header pushes the page sideways",
      );
      await fan.close();
    }
  });

  test("on a desktop the sidebar's column runs the whole length of a long page, and a short page fills the window", async () => {
    const { page, close } = await newPage(browser, { viewport: viewports.desktop });
    await page.goto("/terms");
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(pageHeight > viewports.desktop.height * 1.5, `the page is long (${pageHeight} px)`);
    const bottomOf = (role: "complementary" | "contentinfo") =>
      page.getByRole(role).evaluate((element) => Math.round(element.getBoundingClientRect().bottom + window.scrollY));
    assert.equal(await bottomOf("complementary"), await bottomOf("contentinfo"));
    // A short page fills the window: its sidebar and footer reach the bottom edge.
    await page.goto("/this-page-does-not-exist");
    assert.ok((await page.evaluate(() => document.documentElement.scrollHeight)) <= viewports.desktop.height, "the 404 page is short");
    assert.equal(await bottomOf("complementary"), viewports.desktop.height);
    assert.equal(await bottomOf("contentinfo"), viewports.desktop.height);
    // With the player bar: the sidebar still runs to the page's end (no band under it), and the footer ends above the bar.
    await page.goto(demoAlbumPath("Headlights & Static"));
    await hydrated(page);
    await page.getByRole("button", { name: "Play All" }).click();
    const bar = page.getByRole("region", { name: "Player" });
    await bar.waitFor();
    await bar.getByRole("button", { name: "Pause" }).click();
    await page.getByRole("navigation", { name: "Legal" }).getByRole("link", { name: "Terms" }).click();
    await page.getByRole("heading", { level: 1, name: "Terms of Use" }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const end = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.equal(await bottomOf("complementary"), end);
    const barTop = Math.round((await bar.boundingBox())!.y + (await page.evaluate(() => window.scrollY)));
    assert.ok((await bottomOf("contentinfo")) <= barTop, "the footer ends under the player bar");
    await close();
  });

  for (const [device, viewport] of Object.entries(viewports)) {
    test(`axe finds no WCAG 2.2 A/AA violations (${device})`, async () => {
      const { page, close } = await newPage(browser, { viewport });
      for (const { path } of [...pages, { path: "/no-such-page" }]) {
        await page.goto(path);
        await hydrated(page);
        await expectNoAxeViolations(page);
        await screenshot(page, `${device}${path === "/" ? "-home" : path.replaceAll("/", "-")}`);
      }
      await close();
    });
  }
});
