// Every page, as each role sees it: nothing scrolls sideways on a phone (390 px), and axe finds nothing
// on a phone or a desktop (WCAG 2.2 A/AA and axe's best practices). The demo data fills each page.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { axeFindings, demoTrackPath, hydrated, launchBrowser, newPage, signedInPage, viewports } from "./support/browser.ts";

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

const demoArtist = "/artist/a1000000-0000-4000-8000-000000000012";
const demoFan = "/fan/f0000000-0000-4000-8000-000000000001";
/** The demo fan's public playlist, and their private one. */
const demoPlaylist = "/playlist/b1000000-0000-4000-8000-000000000001";
const demoPrivatePlaylist = "/playlist/b1000000-0000-4000-8000-000000000002";

const publicPages = [
  "/",
  "/about",
  "/terms",
  "/privacy",
  "/discover",
  "/genres",
  "/genres/Rock",
  "/artists",
  demoArtist,
  demoFan,
  demoTrackPath("Open Highway"),
  demoPlaylist,
  "/playlists",
  "/no-such-page",
];

const roles: { role: "visitor" | "fan" | "artist" | "admin"; pages: string[] }[] = [
  {
    role: "visitor",
    pages: [...publicPages, "/login", "/register", "/register/artist", "/register/fan", "/forgot-password"],
  },
  {
    role: "fan",
    pages: [
      "/dashboard/fan",
      "/dashboard/fan/purchased",
      "/dashboard/fan/following",
      "/dashboard/fan/recent",
      "/liked",
      "/playlists",
      demoPrivatePlaylist,
      "/dashboard/fan/payments",
      "/dashboard/fan/profile",
      "/dashboard/fan/settings",
      demoTrackPath("Open Highway"),
      demoArtist,
    ],
  },
  {
    role: "artist",
    pages: [
      "/dashboard/artist",
      "/dashboard/artist/tracks",
      "/dashboard/artist/library",
      "/dashboard/artist/upload",
      "/dashboard/artist/upload?type=album",
      "/dashboard/artist/media",
      "/dashboard/artist/payments",
      "/dashboard/artist/store",
      "/dashboard/artist/analytics",
      "/dashboard/artist/profile",
      "/dashboard/artist/settings",
      "/recent",
      demoTrackPath("Open Highway"),
    ],
  },
  { role: "admin", pages: ["/admin", "/admin/news", "/"] },
];

/** How far the page scrolls sideways, and the widest elements that make it. */
async function sidewaysOverflow(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const overflow = document.documentElement.scrollWidth - width;
    const culprits = [...document.querySelectorAll("body *")]
      .filter((element) => element.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].slice(0, 3).join(".")}`);
    return { overflow, culprits };
  });
}

for (const { role, pages } of roles) {
  describe(`every page as ${role === "admin" ? "an" : "a"} ${role}`, () => {
    for (const [device, viewport] of Object.entries(viewports)) {
      test(`${device}: ${device === "phone" ? "nothing scrolls sideways, and " : ""}axe finds nothing`, async () => {
        const { page, close } = role === "visitor" ? await newPage(browser, { viewport }) : await signedInPage(browser, role, { viewport });
        const overflowing: string[] = [];
        const findings: string[] = [];
        for (const path of pages) {
          await page.goto(path);
          await hydrated(page);
          if (device === "phone") {
            const { overflow, culprits } = await sidewaysOverflow(page);
            if (overflow > 0) overflowing.push(`${path}: ${overflow} px wider (${culprits.join(", ")})`);
          }
          findings.push(...(await axeFindings(page, { bestPractices: true })).map((finding) => `${path} ${finding}`));
        }
        assert.deepEqual(overflowing, [], "pages scroll sideways on a phone");
        assert.deepEqual(findings, [], "axe found violations");
        await close();
      });
    }
  });
}
