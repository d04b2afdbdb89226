// The embedded players in Chromium, as a reader of another site meets them: a page served on another
// port frames the track embed, its audio plays in the frame and the play is reported with that site; a
// WordPress post frames an album's player exactly as WordPress cleans and sandboxes it, and it plays,
// seeks, moves on, counts one play and opens Buy through WordPress's protocol, its play icon drawn; a
// sandbox with no such host (or WordPress without its host script) shows the address to copy; two
// players on one page name one listener; the compact strip fits a 320 px column; axe finds nothing
// inside the embed; and the track page's Share menu copies the link and the embed code.
import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import jpeg from "jpeg-js";
import type { Locator } from "playwright-core";
import {
  baseUrl,
  demoAlbumPath,
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  newPage,
  viewports,
  visitorPlays,
} from "./support/browser.ts";
import { servedByWordPress, wordPressPost } from "./support/wordpress.ts";

let otherSite: Server;
let otherSiteUrl: string;
const otherSiteHost = "blog.example.com";
const trackPath = demoTrackPath("Bicycle Bell");
const trackId = trackPath.split("/").pop()!;
// The other site answers at a public-looking name (only real public host names are recorded as where an
// embed plays), which this browser resolves to this machine.
const browser = await browserForThisFile({ hostRules: [otherSiteHost] });

before(async () => {
  // Someone else's page: a blog post that embeds the track, at whatever width it is given.
  otherSite = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (servedByWordPress(url, response)) return;
    // A WordPress post embedding the Crate page `?page=`.
    if (url.pathname === "/wordpress") {
      wordPressPost(new URL(url.searchParams.get("page")!, baseUrl).href, {
        hostScript: url.searchParams.has("without-host-script") ? false : url.searchParams.has("late-host-script") ? "late" : true,
      }).then(
        (post) => {
          response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
          response.end(post);
        },
        (error: unknown) => {
          response.writeHead(500);
          response.end(String(error));
        },
      );
      return;
    }
    // A page framing the track's player in a sandbox of scripts alone, with no host that opens its links.
    if (url.pathname === "/sandboxed") {
      const compact = url.searchParams.get("size") === "compact";
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end(
        `<!doctype html><html lang="en"><head><title>A forum post</title></head><body><main><h1>Listen</h1>` +
          `<iframe sandbox="allow-scripts" src="${baseUrl}/embed/track/${trackId}${compact ? "?size=compact" : ""}" ` +
          `width="480" height="${compact ? 120 : 164}" title="Crate player"></iframe></main></body></html>`,
      );
      return;
    }
    const size = url.searchParams.get("size") === "compact" ? "?size=compact" : "";
    const height = size ? 120 : 164;
    const frame =
      `<iframe src="${baseUrl}/embed/track/${trackId}${size}" ` +
      `style="border:0;width:100%" height="${height}" title="Crate player" allow="autoplay"></iframe>`;
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(
      `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width"><title>A blog post</title></head>` +
        `<body style="margin:0"><main><h1>A song I love</h1>${url.searchParams.has("twice") ? frame + frame : frame}</main></body></html>`,
    );
  });
  await new Promise<void>((resolve) => otherSite.listen(0, "127.0.0.1", resolve));
  otherSiteUrl = `http://${otherSiteHost}:${(otherSite.address() as AddressInfo).port}/`;
});
after(() => {
  otherSite?.close();
});

test("another site's page frames the track embed, and the audio plays in the frame", async () => {
  const { page, close } = await newPage(browser);
  await page.goto(otherSiteUrl);
  const frame = page.frameLocator("iframe");
  // After 5 s heard, the play is reported with the site it was heard on.
  const reported = page.waitForResponse((response) => /\/track\/[^/]+\/play\?/.test(response.url()));
  await frame.getByRole("button", { name: "Play Bicycle Bell" }).click();
  await frame.getByRole("button", { name: "Pause Bicycle Bell" }).waitFor();
  const embed = page.frames().find((candidate) => candidate.url().includes("/embed/track/"))!;
  await embed.waitForFunction(() => {
    const audio = document.querySelector("audio")!;
    return !audio.paused && audio.currentTime > 0.5;
  });
  // The waveform follows the position, and the keyboard seeks it.
  const slider = frame.getByRole("slider", { name: "Seek" });
  assert.notEqual(await slider.getAttribute("aria-valuenow"), null);
  await slider.focus();
  const before = await embed.evaluate(() => document.querySelector("audio")!.currentTime);
  await page.keyboard.press("ArrowRight");
  await embed.waitForFunction((from) => document.querySelector("audio")!.currentTime >= from + 4, before);
  // Links lead out to Crate in a new tab.
  assert.equal(await frame.getByRole("link", { name: /^Buy / }).getAttribute("target"), "_blank");
  const report = await reported;
  assert.equal(report.status(), 204);
  // The site comes back in the pass the embed's page was given: read from its request, signed by the server.
  const pass = new URL(report.url()).searchParams.get("embed") ?? "";
  assert.equal(Buffer.from(pass.split(".")[0]!, "base64url").toString(), new URL(otherSiteUrl).origin);
  await frame.getByRole("button", { name: "Pause Bicycle Bell" }).click();
  await close();
});

/** How many of the play button's middle pixels are dark: the icon drawn on it (the button itself is pink). */
async function iconPixels(button: Locator): Promise<number> {
  const { width, height, data } = jpeg.decode(await button.screenshot({ type: "jpeg", quality: 100 }), { useTArray: true });
  let dark = 0;
  for (let y = Math.floor(height / 4); y < (height * 3) / 4; y++) {
    for (let x = Math.floor(width / 4); x < (width * 3) / 4; x++) {
      const at = (y * width + x) * 4;
      if (data[at]! + data[at + 1]! + data[at + 2]! < 3 * 80) dark++;
    }
  }
  return dark;
}

const headlights = demoAlbumPath("Headlights & Static");
const openHighway = demoTrackPath("Open Highway").split("/").pop()!;

test("a WordPress post plays an album's player as WordPress frames it: plays, seeks, moves on, counts one play, opens Buy", async () => {
  const { page, close } = await newPage(browser);
  const playsBefore = await visitorPlays(openHighway);
  await page.goto(`${otherSiteUrl}wordpress?${new URLSearchParams({ page: headlights })}`);
  // The frame exactly as WordPress leaves it: sandboxed to scripts, its secret in its address, and none
  // of the style, allow or loading the embed code asked for.
  const iframe = page.locator("iframe.wp-embedded-content");
  assert.equal(await iframe.getAttribute("sandbox"), "allow-scripts");
  assert.equal(await iframe.getAttribute("security"), "restricted");
  assert.match((await iframe.getAttribute("src"))!, /\/embed\/album\/[^#]+#\?secret=[a-z0-9]+$/);
  for (const stripped of ["style", "allow", "loading"]) assert.equal(await iframe.getAttribute(stripped), null, stripped);
  assert.equal(await iframe.getAttribute("frameborder"), "0");
  const frame = page.frameLocator("iframe.wp-embedded-content");
  const play = frame.getByRole("button", { name: "Play Open Highway" });
  await play.waitFor();
  // The play icon is drawn, not only named: its pixels are there, as they are where it is taken away.
  assert.ok((await iconPixels(play)) > 20, "the play icon is not drawn in WordPress's frame");
  const embed = page.frames().find((candidate) => candidate.url().includes("/embed/album/"))!;
  await embed.evaluate(() => document.querySelector("[data-play] svg")!.remove());
  assert.equal(await iconPixels(play), 0);
  await page.reload();

  // Plays: after 5 s heard the play is reported, from a frame whose origin is null, and counts once.
  const reported = page.waitForResponse((response) => response.url().includes(`/track/${openHighway}/play?`));
  await frame.getByRole("button", { name: "Play Open Highway" }).click();
  await frame.getByRole("button", { name: "Pause Open Highway" }).waitFor();
  const framed = page.frames().find((candidate) => candidate.url().includes("/embed/album/"))!;
  assert.equal(await framed.evaluate(() => window.origin), "null");
  await framed.waitForFunction(() => {
    const audio = document.querySelector("audio")!;
    return !audio.paused && audio.currentTime > 0.5;
  });
  // Seeks, by keyboard.
  const slider = frame.getByRole("slider", { name: "Seek" });
  await slider.focus();
  const from = await framed.evaluate(() => document.querySelector("audio")!.currentTime);
  await page.keyboard.press("ArrowRight");
  await framed.waitForFunction((at) => document.querySelector("audio")!.currentTime >= at + 4, from);
  const report = await reported;
  assert.equal(report.status(), 204);
  assert.equal((await report.request().allHeaders())["origin"], "null");
  assert.equal(await visitorPlays(openHighway), playsBefore + 1);

  // Moves to the next track at the end of this one.
  await slider.focus();
  await page.keyboard.press("End");
  await frame.getByRole("button", { name: "Pause Static on the Radio" }).waitFor();
  await framed.waitForFunction(() => {
    const audio = document.querySelector("audio")!;
    return !audio.paused && audio.currentTime > 0.3;
  });
  assert.equal(await visitorPlays(openHighway), playsBefore + 1, "a play was counted twice");
  await frame.getByRole("button", { name: "Pause Static on the Radio" }).click();

  // Buy goes out through WordPress's protocol: the whole page goes to Crate, to buy the album whole.
  const buy = frame.getByRole("link", { name: /^Buy the album / });
  const href = (await buy.getAttribute("href"))!;
  assert.match(href, /\/album\/[^/?]+\?buy=1$/);
  await buy.click();
  await page.waitForURL(href);
  await close();
});

test("WordPress hosts the player as its own embeds: the fallback link gives way, the frame takes the player's height, links open in the page, with a host script that loads late too", async () => {
  const { page, close } = await newPage(browser);
  for (const post of [
    `wordpress?${new URLSearchParams({ page: headlights })}`,
    `wordpress?${new URLSearchParams({ page: headlights, "late-host-script": "" })}`,
  ]) {
    await page.goto(`${otherSiteUrl}${post}`);
    const iframe = page.locator("iframe.wp-embedded-content");
    const frame = page.frameLocator("iframe.wp-embedded-content");
    // The album's player names the album.
    await frame.getByRole("link", { name: "Headlights & Static", exact: true }).waitFor();
    const embed = page.frames().find((candidate) => candidate.url().includes("/embed/album/"))!;
    const needed = Number(await embed.evaluate(() => document.documentElement.dataset.height));
    await page.waitForFunction((height) => document.querySelector("iframe")!.getAttribute("height") === String(height), needed);
    assert.equal(await iframe.getAttribute("style"), null, post);
    assert.equal(await page.locator("blockquote.wp-embedded-content").isVisible(), false, post);
    // A title opens its page in the reader's window, at once (not the address to copy).
    const title = frame.locator("[data-title]");
    const href = (await title.getAttribute("href"))!;
    await title.click();
    await page.waitForURL(href);
  }
  await close();
});

test("every kind of player plays in WordPress's frame, and the compact strip in a bare sandbox", async () => {
  const { page, close } = await newPage(browser);
  const posts = {
    track: `wordpress?${new URLSearchParams({ page: trackPath })}`,
    artist: `wordpress?${new URLSearchParams({ page: "/artist/a1000000-0000-4000-8000-000000000012" })}`,
    playlist: `wordpress?${new URLSearchParams({ page: "/playlist/b1000000-0000-4000-8000-000000000001" })}`,
    compact: "sandboxed?size=compact",
  };
  for (const [kind, post] of Object.entries(posts)) {
    await page.goto(`${otherSiteUrl}${post}`);
    const frame = page.frameLocator("iframe");
    await frame
      .getByRole("button", { name: /^Play / })
      .first()
      .click();
    await frame.getByRole("button", { name: /^Pause / }).waitFor();
    const embed = page.frames().find((candidate) => candidate.url().includes("/embed/"))!;
    assert.equal(await embed.evaluate(() => window.origin), "null", kind);
    await embed.waitForFunction(() => {
      const audio = document.querySelector("audio")!;
      return !audio.paused && audio.currentTime > 0.3;
    });
    await frame.getByRole("button", { name: /^Pause / }).click();
  }
  await close();
});

test("a sandbox with no host to open links shows the address to copy, and gives the focus back", async () => {
  const { context, page, close } = await newPage(browser, {
    // Chromium says so when the sandbox refuses the new tab: the refusal the player answers.
    allowedErrors: [/Blocked opening .* sandboxed frame whose 'allow-popups' permission is not set/],
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // A WordPress site whose plugin removed WordPress's host script shows what WordPress shows for its own
  // embeds then: the link to the page, the frame hidden.
  await page.goto(`${otherSiteUrl}wordpress?${new URLSearchParams({ page: trackPath, "without-host-script": "" })}`);
  await page.locator("blockquote.wp-embedded-content").getByRole("link").waitFor();
  assert.equal(await page.locator("iframe").isVisible(), false);
  // A bare sandbox.
  for (const post of ["sandboxed"]) {
    await page.goto(`${otherSiteUrl}${post}`);
    const frame = page.frameLocator("iframe");
    const buy = frame.getByRole("link", { name: /^Buy / });
    const href = (await buy.getAttribute("href"))!;
    await buy.click();
    const address = frame.getByRole("dialog", { name: "Copy this address to open it" });
    await address.waitFor();
    const field = address.getByRole("textbox", { name: "Copy this address to open it" });
    assert.equal(await field.inputValue(), href, post);
    assert.ok(await field.evaluate((input) => document.activeElement === input), post);
    await address.getByRole("button", { name: "Copy" }).click();
    await address.getByRole("button", { name: "Copied" }).waitFor();
    await page.keyboard.press("Escape");
    await address.waitFor({ state: "hidden" });
    assert.ok(await buy.evaluate((link) => document.activeElement === link), `${post}: the focus did not go back to Buy`);
    assert.equal(page.url(), `${otherSiteUrl}${post}`);
    // The clipboard holds it (read from a page of a secure origin, in front: the blog is plain http).
    const reader = await context.newPage();
    await reader.goto("/about");
    assert.equal(await reader.evaluate(() => navigator.clipboard.readText()), href, post);
    await reader.close();
  }
  await close();
});

test("two players on one page are one listener", async () => {
  const { page, close } = await newPage(browser);
  const listeners: string[] = [];
  page.on("request", (request) => {
    if (/\/track\/[^/]+\/source\?/.test(request.url())) listeners.push(new URL(request.url()).searchParams.get("listener") ?? "");
  });
  await page.goto(`${otherSiteUrl}?twice`);
  for (const frame of [page.frameLocator("iframe").first(), page.frameLocator("iframe").last()]) {
    await frame.getByRole("button", { name: "Play Bicycle Bell" }).click();
    await frame.getByRole("button", { name: "Pause Bicycle Bell" }).click();
    await frame.getByRole("button", { name: "Play Bicycle Bell" }).waitFor();
  }
  assert.equal(listeners.length, 2);
  assert.equal(listeners[0], listeners[1], "each player named its own listener");
  await close();
});

test("the compact embed works in a 320 px column, and axe finds nothing inside the embed, its address to copy included", async () => {
  const { page, close } = await newPage(browser, { viewport: { width: 320, height: 640 } });
  await page.goto(`${otherSiteUrl}?size=compact`);
  const frame = page.frameLocator("iframe");
  const play = frame.getByRole("button", { name: "Play Bicycle Bell" });
  await play.waitFor();
  const embed = page.frames().find((candidate) => candidate.url().includes("/embed/track/"))!;
  const fits = await embed.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  assert.ok(fits, "the compact embed scrolls sideways at 320 px");
  assert.ok(await play.isVisible());
  assert.ok(await frame.getByRole("link", { name: "Bicycle Bell", exact: true }).isVisible());
  await page.goto(`/embed/track/${trackId}?size=compact&theme=light`);
  await expectNoAxeViolations(page);
  await page.goto(`/embed/playlist/b1000000-0000-4000-8000-000000000001`);
  await expectNoAxeViolations(page);
  // The address to copy, as a sandbox shows it (here, where links open a tab, it is shown by hand).
  await page.evaluate(() => {
    document.querySelector<HTMLInputElement>("[data-address-field]")!.value = location.href;
    document.querySelector<HTMLElement>("[data-address]")!.hidden = false;
  });
  await expectNoAxeViolations(page);
  await close();
});

test("Share copies the track's link and its embed code, and says so", async () => {
  const { context, page, close } = await newPage(browser);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto(trackPath);
  await hydrated(page);
  // Chromium on Linux has no share sheet: Share opens the menu.
  await page.getByText("Share", { exact: true }).click();
  await page.getByRole("button", { name: "Copy link" }).click();
  await page.getByRole("status").filter({ hasText: "Link copied" }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), new URL(trackPath, page.url()).toString());
  await page.getByRole("button", { name: "Copy embed code", exact: true }).click();
  await page.getByRole("status").filter({ hasText: "Embed code copied" }).waitFor();
  assert.match(await page.evaluate(() => navigator.clipboard.readText()), new RegExp(`^<iframe src="[^"]+/embed/track/${trackId}"`));
  await page.keyboard.press("Escape");
  await expectNoAxeViolations(page);
  await close();
});

// A menu is never cut by its container and never leaves the screen: each of its controls is the topmost
// element at its own centre, and the page does not scroll sideways, on a phone and a desktop, with
// JavaScript and without.
for (const [width, viewport] of Object.entries(viewports)) {
  for (const javaScriptEnabled of [true, false]) {
    test(`the Share menu is whole and on screen on ${width} ${javaScriptEnabled ? "with" : "without"} JavaScript`, async () => {
      const { page, close } = await newPage(browser, { viewport, javaScriptEnabled });
      for (const path of [trackPath, "/artist/a1000000-0000-4000-8000-000000000012", "/playlist/b1000000-0000-4000-8000-000000000001"]) {
        await page.goto(path);
        if (javaScriptEnabled) await hydrated(page);
        const share = page.locator("summary", { hasText: "Share" }).first();
        await share.scrollIntoViewIfNeeded();
        await share.click();
        const panel = page.locator("details[open] > summary + div").first();
        await panel.waitFor();
        const controls = panel.locator("input, textarea, button");
        for (let index = 0; index < (await controls.count()); index++) {
          const control = controls.nth(index);
          await control.scrollIntoViewIfNeeded();
          const topmost = await control.evaluate((element) => {
            const box = element.getBoundingClientRect();
            const atCentre = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return atCentre === element || element.contains(atCentre);
          });
          assert.ok(topmost, `${path}: a control of the Share menu is covered or cut at ${viewport.width} px`);
        }
        const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(sideways <= 0, `${path} scrolls ${sideways} px sideways with the Share menu open at ${viewport.width} px`);
      }
      await close();
    });
  }
}
