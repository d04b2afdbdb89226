// The track page in Chromium: the streaming waveform player, the purchase dialog, sharing and comments,
// with JavaScript on and off, against the local backend with the demo data (real audio, signed URLs).
import { createClient } from "@supabase/supabase-js";
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { localDefaults } from "@crate/local-supabase";
import {
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  newPage,
  screenshot,
  baseUrl,
  supabaseUrl,
  viewports,
  demoTrackPath,
  signedInPage,
  visitorPlays,
} from "./support/browser.ts";

const browser = await browserForThisFile();

const albumTrack = demoTrackPath("Bicycle Bell");

/** The player's media element: what the listener actually hears. */
const audioState = (page: Page) =>
  page.evaluate(() => {
    const audio = document.querySelector("audio")!;
    return { currentTime: audio.currentTime, paused: audio.paused, volume: audio.volume, src: audio.currentSrc };
  });

describe("the player", () => {
  test("a visitor plays a track (time advances), pauses it and changes the volume; the play is recorded", async () => {
    const { page, close } = await newPage(browser);
    const trackId = albumTrack.split("/")[2]!;
    const playsBefore = await visitorPlays(trackId);
    await page.goto(albumTrack);
    await hydrated(page);
    const play = page.getByRole("button", { name: "Play Bicycle Bell" });
    await play.waitFor();
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("button[aria-label='Play Bicycle Bell']")?.disabled);
    // The player applies its volume once its audio is ready, which may come a moment after Play is enabled.
    await page.waitForFunction(() => document.querySelector("audio")?.volume === 0.7);
    assert.equal((await audioState(page)).volume, 0.7);

    await play.click();
    await page.getByRole("button", { name: "Pause Bicycle Bell" }).waitFor();
    await page.waitForFunction(() => document.querySelector("audio")!.currentTime > 1.2);
    await page
      .getByTestId("elapsed")
      .filter({ hasText: /^0:0[1-9]$/ })
      .waitFor();
    // The track's stream (an MP3 made for it), never the master the artist uploaded.
    assert.match((await audioState(page)).src, /\/storage\/v1\/object\/sign\/tracks\/[^?]+\/renditions\/[^/?]+\.128k\.mp3\?/);

    await page.getByRole("button", { name: "Pause Bicycle Bell" }).click();
    await page.getByRole("button", { name: "Play Bicycle Bell" }).waitFor();
    // Paused is silent: the page's one audio element is paused, and no other media plays.
    assert.equal((await audioState(page)).paused, true);
    assert.equal(
      await page.evaluate(
        () => [...document.querySelectorAll("audio, video")].filter((media) => !(media as HTMLMediaElement).paused).length,
      ),
      0,
    );

    const volume = page.getByRole("region", { name: "Player: Bicycle Bell" }).getByRole("slider", { name: "Volume" });
    await volume.fill("0.25");
    assert.equal((await audioState(page)).volume, 0.25);
    await volume.press("ArrowRight");
    assert.equal((await audioState(page)).volume, 0.26);

    // A second of listening is not a play yet; resumed after the pause, the same listen counts once it
    // has been heard for 5 seconds, and only once.
    assert.equal(await visitorPlays(trackId), playsBefore);
    const recorded = page.waitForResponse((response) => /\/track\/[^/]+\/play(?:\?|$)/.test(response.url()) && response.status() === 204);
    await page.getByRole("button", { name: "Play Bicycle Bell" }).click();
    await recorded;
    await page.getByRole("button", { name: "Pause Bicycle Bell" }).click();
    assert.equal(await visitorPlays(trackId), playsBefore + 1);
    await close();
  });

  test("the keyboard plays and seeks", async () => {
    const { page, close } = await newPage(browser);
    await page.goto(albumTrack);
    await hydrated(page);
    const play = page.getByRole("button", { name: "Play Bicycle Bell" });
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("button[aria-label='Play Bicycle Bell']")?.disabled);
    await play.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Pause Bicycle Bell" }).waitFor();
    await page.waitForFunction(() => document.querySelector("audio")!.currentTime > 0.5);
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Play Bicycle Bell" }).waitFor();
    const seek = page.getByRole("region", { name: "Player: Bicycle Bell" }).getByRole("slider", { name: "Seek" });
    // The media's own length, once its metadata has arrived (the player may be ready before, from the
    // stored duration).
    await page.waitForFunction(() => document.querySelector("audio")!.duration > 0);
    const total = await page.evaluate(() => document.querySelector("audio")!.duration);
    assert.ok(total > 15, `duration ${total}`);
    await seek.focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const seekPosition = (text: string) =>
      page.waitForFunction(
        (expected) => document.querySelector("[aria-label='Seek']")?.getAttribute("aria-valuetext")?.startsWith(expected),
        text,
      );
    await seekPosition("0:10 of ");
    // The track playing is drawn by wavesurfer.js on the same audio element: a click on its waveform
    // seeks that element (the keys above went through the slider around it).
    const drawing = seek.locator(":scope > div");
    await page.waitForFunction(() =>
      [...document.querySelectorAll("section[aria-label='Player: Bicycle Bell'] [role=slider] div")].some((element) =>
        element.shadowRoot?.querySelector("canvas"),
      ),
    );
    const box = (await drawing.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
    await page.waitForFunction((length) => Math.abs(document.querySelector("audio")!.currentTime - length * 0.75) < 1.5, total);
    assert.equal(await page.evaluate(() => document.querySelectorAll("audio").length), 1, "no second sound");
    await seek.focus();
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await seekPosition("0:10 of ");
    // Half a second of listening and a seek to the end are no play. The player reports a play from its
    // listener for the end, which runs before one added now.
    await page.evaluate(() => {
      const reported = { plays: 0, ended: false };
      Object.assign(window, { reported });
      const send = window.fetch.bind(window);
      window.fetch = (input, init) => {
        if (/\/track\/[^/]+\/play(?:\?|$)/.test(String(input))) reported.plays += 1;
        return send(input, init);
      };
      document.querySelector("audio")!.addEventListener("ended", () => (reported.ended = true), { once: true });
    });
    await play.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Pause Bicycle Bell" }).waitFor();
    await seek.focus();
    await page.keyboard.press("End");
    const reported = await page.waitForFunction(() => {
      const { reported } = window as unknown as { reported: { plays: number; ended: boolean } };
      return reported.ended && reported;
    });
    assert.deepEqual(await reported.jsonValue(), { plays: 0, ended: true });
    // Keys in quick succession step from the seek under way: Home, End, then ← lands 5 s before the end.
    await page.keyboard.press("Home");
    await page.keyboard.press("End");
    await page.keyboard.press("ArrowLeft");
    const target = Math.floor(total - 5);
    await seekPosition(`0:${String(target).padStart(2, "0")} of `);
    // Playing goes on from there (a seek into audio not yet loaded is applied as it arrives).
    await play.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction((from) => document.querySelector("audio")!.currentTime > from, target);
    await close();
  });

  test("every released demo track can be played by a visitor", async () => {
    // Out by today (a pre-order's tracks are listed before their day, and only its instant ones play).
    const today = new Date().toISOString().slice(0, 10);
    const { data: tracks } = await createClient(supabaseUrl, localDefaults.anonKey)
      .from("tracks")
      .select("id, title")
      .lte("release_date", today);
    assert.ok(tracks && tracks.length > 40);
    const { page, close } = await newPage(browser, { javaScriptEnabled: false });
    for (const track of tracks) {
      await page.goto(`/track/${track.id}`);
      await page.getByRole("heading", { level: 1, name: track.title }).waitFor();
      // Without JavaScript the browser's own player gets the track's audio address, which redirects to a
      // URL signed for this visitor.
      const src = await page
        .locator("noscript")
        .first()
        .evaluate((noscript) => /src="([^"]+)"/.exec(noscript.innerHTML)?.[1]?.replaceAll("&amp;", "&"));
      assert.equal(src, `/track/${track.id}/audio`, track.title);
      // …which is the track's stream: an MP3 (its first frame's sync), never the WAV master.
      const response = await fetch(new URL(src!, baseUrl), { headers: { Range: "bytes=0-11" } });
      assert.equal(response.status, 206, track.title);
      assert.match(response.url, /\/renditions\/[^/?]+\.128k\.mp3\?/, track.title);
      const [first, second] = new Uint8Array(await response.arrayBuffer());
      assert.ok(first === 0xff && (second! & 0xe0) === 0xe0, `${track.title} streams MP3 frames`);
    }
    await close();
  });

  test("without JavaScript, the browser's own controls play the track's stream", async () => {
    const { page, close } = await newPage(browser, { javaScriptEnabled: false });
    await page.goto(albumTrack);
    const html = await page.locator("noscript").first().innerHTML();
    assert.match(html, /<audio[^>]*controls/);
    // The page runs no script: the browser's own Play (at the left of its controls) fetches the track's
    // audio address, which sends it on to the stream.
    const audio = page.locator("audio[controls]").first();
    const box = (await audio.boundingBox())!;
    const streamed = page.waitForResponse((response) => /\/renditions\/[^/?]+\.128k\.mp3\?token=/.test(response.url()) && response.ok());
    await page.mouse.click(box.x + 20, box.y + box.height / 2);
    const response = await streamed;
    assert.match((await response.allHeaders())["content-type"] ?? "", /^audio\/mpeg/);
    await close();
  });
});

test("on a desktop the track's facts are shown whole, a long value wrapping rather than cut", async () => {
  const { page, close } = await newPage(browser, { viewport: viewports.desktop });
  await page.goto(albumTrack);
  const facts = page.getByRole("definition");
  const shown = await facts.evaluateAll((values) =>
    values.map((value) => ({
      text: value.textContent,
      clipped: value.scrollWidth > value.clientWidth,
      wraps: getComputedStyle(value).whiteSpace !== "nowrap" && getComputedStyle(value).textOverflow !== "ellipsis",
    })),
  );
  // Genre, Subgenre, Release Date and Label: four tiles side by side, each about 130 px wide at 1440 px.
  assert.equal(shown.length, 4);
  for (const fact of shown) assert.deepEqual(fact, { text: fact.text, clipped: false, wraps: true });
  await close();
});

describe("the purchase dialog", () => {
  test("opens from Buy Now and closes by keyboard, focus moving in and back", async () => {
    const { page, close } = await newPage(browser);
    await page.goto(albumTrack);
    await hydrated(page);
    const buy = page.getByRole("button", { name: "Buy Now - £1.29" });
    const dialog = page.getByRole("dialog", { name: "Complete Purchase" });

    // Pressing Enter on the focused button (the locator re-finds it if hydration re-rendered it).
    await buy.press("Enter");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Buy now" }).waitFor();
    await dialog.getByText("£1.29", { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.closest("dialog") !== null), true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Buy Now - £1.29");

    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Close" }).focus();
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Buy Now - £1.29");

    // A quick user: Escape and Enter straight after each other, before the browser's close event arrives.
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    // Counted after the dialog's own handler has seen each close event.
    await dialog.evaluate((element) => {
      const counted = window as Window & { closeEvents?: number };
      counted.closeEvents = 0;
      element.addEventListener("close", () => (counted.closeEvents = (counted.closeEvents ?? 0) + 1));
    });
    await page.keyboard.press("Escape");
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    // The late close event arrives, and must not shut the re-opened dialog.
    await page.waitForFunction(() => (window as Window & { closeEvents?: number }).closeEvents === 1);
    assert.equal(await dialog.isVisible(), true);
    await close();
  });
});

// What the server renders for comments without JavaScript (posting, the messages, deleting) is proved by
// the route tests (tests/routes/track.test.ts).
test("a fan posts and deletes a comment with JavaScript", async () => {
  const { page, close } = await newPage(browser);
  const path = demoTrackPath("Greenhouse");
  await page.goto(path);
  await page.getByRole("link", { name: "Log in" }).last().click();
  await page.getByLabel("Email").fill("fan@example.com");
  await page.getByLabel("Password").fill("fan-demo-pass");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => url.pathname === path);
  await hydrated(page);

  const field = page.getByLabel("Add a comment");
  await page.getByRole("button", { name: "Post comment" }).click();
  await page.getByText("Please write a comment first").waitFor();
  assert.equal(await field.getAttribute("aria-invalid"), "true");

  // Listening while commenting: the page's data reloads after the post, the music goes on.
  await page.getByRole("button", { name: "Play Greenhouse" }).click();
  await page.waitForFunction(() => document.querySelector("audio")!.currentTime > 0.3);
  const listening = await audioState(page);
  const words = `Greenhouse on repeat ${Date.now()}`;
  await field.fill(words);
  await page.getByRole("button", { name: "Post comment" }).click();
  const posted = page.locator("#comments article").filter({ hasText: words });
  await posted.waitFor();
  const now = await audioState(page);
  assert.equal(now.paused, false);
  assert.equal(now.src, listening.src);
  assert.ok(now.currentTime > listening.currentTime);
  await posted.getByText("rileyspins").waitFor();
  await posted.getByText("just now").waitFor();
  assert.equal(await field.inputValue(), "");

  await posted.getByRole("button", { name: /^Delete/ }).click();
  await posted.waitFor({ state: "detached" });
  await close();
});

test("a visitor's track page comes from the edge cache, and a fan's new comment drops it at once", async () => {
  const path = demoTrackPath("Porch Light");
  const visit = async () => {
    const response = await fetch(new URL(path, baseUrl));
    return {
      hit: response.headers.get("cf-cache-status") === "HIT",
      caching: response.headers.get("cache-control"),
      html: await response.text(),
    };
  };
  assert.equal((await visit()).caching, "public, s-maxage=60");
  // the first render is stored in the background (waitUntil): ask until it is there
  let again = await visit();
  for (let attempt = 0; attempt < 20 && !again.hit; attempt++) again = await visit();
  assert.ok(again.hit, "the second visitor's page came from the cache");

  const { page, close } = await signedInPage(browser, "fan", { javaScriptEnabled: false, landing: path });
  const words = `Porch light left on ${Date.now()}`;
  await page.getByLabel("Add a comment").fill(words);
  await page.getByRole("button", { name: "Post comment" }).click();
  await page.locator("#comments article").filter({ hasText: words }).waitFor();
  await close();
  const next = await visit();
  assert.equal(next.hit, false);
  assert.ok(next.html.includes(words), "the next visitor sees the comment");
});

test("Show more lists further comments, five at a time", async () => {
  const path = demoTrackPath("Kites Over the Clyde");
  const { page, close } = await signedInPage(browser, "fan", { landing: path });
  await hydrated(page);
  for (let n = 1; n <= 4; n++) {
    await page.getByLabel("Add a comment").fill(`Windy day number ${n}`);
    await page.getByRole("button", { name: "Post comment" }).click();
    await page
      .locator("#comments article")
      .filter({ hasText: `Windy day number ${n}` })
      .waitFor();
  }
  const comments = page.locator("#comments article");
  assert.equal(await comments.count(), 5);
  await page.getByRole("link", { name: "Show more" }).click();
  await page.waitForFunction(() => document.querySelectorAll("#comments article").length === 6);
  assert.equal(await page.getByRole("link", { name: "Show more" }).count(), 0);
  await close();
});

for (const [device, viewport] of Object.entries(viewports)) {
  test(`axe finds no violations on the track page (${device})`, async () => {
    const { page, close } = await newPage(browser, { viewport });
    await page.goto(albumTrack);
    await hydrated(page);
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("button[aria-label='Play Bicycle Bell']")?.disabled);
    await expectNoAxeViolations(page);
    await screenshot(page, `${device}-track`);
    await page.getByRole("button", { name: "Buy Now - £1.29" }).click();
    await page.getByRole("dialog", { name: "Complete Purchase" }).waitFor();
    await expectNoAxeViolations(page);
    await screenshot(page, `${device}-track-purchase`);
    await close();

    const signedIn = await signedInPage(browser, "fan", { viewport, landing: albumTrack });
    await hydrated(signedIn.page);
    await signedIn.page.getByRole("button", { name: "Post comment" }).click();
    await signedIn.page.getByText("Please write a comment first").waitFor();
    await expectNoAxeViolations(signedIn.page);
    await signedIn.page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(signedIn.page, `${device}-track-signed-in`);
    await signedIn.close();
  });
}

test("a missing track says 'Track not found' with status 404", async () => {
  const { page, close } = await newPage(browser);
  const response = await page.goto("/track/00000000-0000-4000-8000-000000000000");
  assert.equal(response?.status(), 404);
  await page.getByRole("heading", { name: "Track not found" }).waitFor();
  await close();
});
