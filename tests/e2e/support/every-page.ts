// Every page, as each role sees it: nothing scrolls sideways on a phone (390 px), and axe finds nothing
// on a phone or a desktop (WCAG 2.2 A/AA and axe's best practices). The demo data fills each page. One
// file per role (tests/e2e/every-page-as-*.test.ts), so the browser suite's workers share the walk.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import type { RouteUse } from "../../../app/route-uses.ts";
import { demoAddressOf, demoPagesWhere } from "../../../scripts/lib/demo-data.ts";
import { axeFindings, hydrated, browserForThisFile, newPage, signedInPage, viewports } from "./browser.ts";

/** The demo fan's private playlist: their own, beside the public one every visitor walks. */
const demoPrivatePlaylist = "/playlist/b1000000-0000-4000-8000-000000000002";

export type Role = "visitor" | "fan" | "artist" | "admin";
/** Who walks the pages each audience of app/route-uses.ts opens (any signed-in user: the demo fan; the marketplace's own commands are no page). */
const walkerOf: Record<Exclude<RouteUse["for"], "marketplace">, Role> = {
  everyone: "visitor",
  visitors: "visitor",
  users: "fan",
  fans: "fan",
  artists: "artist",
  admins: "admin",
};

/** Beyond each role's own pages: the variants of a page, and public pages as a signed-in user sees them. */
const alsoWalked: Record<Role, string[]> = {
  visitor: ["/playlists"],
  fan: [demoPrivatePlaylist, demoAddressOf("/track/:id"), demoAddressOf("/artist/:id")],
  artist: ["/dashboard/artist/upload?type=album", "/recent", demoAddressOf("/track/:id")],
  admin: ["/"],
};

const pagesOf = (role: Role) => [...demoPagesWhere((use) => use.for !== "marketplace" && walkerOf[use.for] === role), ...alsoWalked[role]];

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

/** Walks every page `role` opens, at a phone's width and a desktop's, in this file's browser. */
export async function walkEveryPage(role: Role) {
  const browser = await browserForThisFile();
  const pages = pagesOf(role);
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
