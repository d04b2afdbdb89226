// The site-wide player in Chromium: music that keeps playing across pages, an album played through, the
// queue edited from the keyboard, Media Session, a reload that keeps the queue paused, and playlists made,
// filled, reordered and deleted with JavaScript on and off.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import {
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  newAccountPage,
  newPage,
  viewports,
} from "./support/browser.ts";

const browser = await browserForThisFile();

const albumTrack = demoTrackPath("Bicycle Bell");

/** The site's one audio element: what the listener hears. */
const audio = (page: Page) =>
  page.evaluate(() => {
    const media = document.querySelectorAll("audio");
    const element = media[0]!;
    return { count: media.length, time: element.currentTime, paused: element.paused, src: element.currentSrc };
  });

const bar = (page: Page) => page.getByRole("region", { name: "Player", exact: true });

/** The bar's title link: the track playing now. */
const nowPlaying = (page: Page) => bar(page).getByRole("link").first().textContent();

/** The queue view's tracks, in order (each row's Play button names its track). */
async function queueTitles(page: Page) {
  const queue = page.getByRole("list", { name: "Tracks in the queue" });
  await queue.waitFor();
  return queue
    .getByRole("button", { name: /^Play / })
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute("aria-label")!.replace(/^Play /, "")));
}

async function playingPast(page: Page, seconds: number) {
  await page.waitForFunction((from) => {
    const element = document.querySelector("audio")!;
    return !element.paused && element.currentTime > from;
  }, seconds);
}

describe("the player bar", () => {
  test("keeps playing across five pages, the position advancing, with Media Session told what plays", async () => {
    const { page, close } = await newPage(browser);
    await page.goto(albumTrack);
    await hydrated(page);
    const play = page.getByRole("button", { name: "Play Bicycle Bell" });
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("button[aria-label='Play Bicycle Bell']")?.disabled);
    await play.click();
    await playingPast(page, 0.5);
    assert.equal(await nowPlaying(page), "Bicycle Bell");
    const session = await page.evaluate(() => ({
      title: navigator.mediaSession.metadata?.title,
      artist: navigator.mediaSession.metadata?.artist,
      album: navigator.mediaSession.metadata?.album,
      state: navigator.mediaSession.playbackState,
    }));
    assert.equal(session.title, "Bicycle Bell");
    assert.ok(session.artist);
    assert.equal(session.album, "Small Town Satellites");
    assert.equal(session.state, "playing");

    const before = (await audio(page)).time;
    const header = page.getByRole("banner");
    for (const [name, path] of [
      ["Discover", "/discover"],
      ["Genres", "/genres"],
      ["Artists", "/artists"],
      ["About", "/about"],
      ["Home", "/"],
    ] as const) {
      await header.getByRole("link", { name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === path);
    }
    const after = await audio(page);
    assert.equal(after.count, 1, "one audio element for the whole site");
    assert.equal(after.paused, false, "still playing");
    assert.ok(after.time > before, `the position advanced (${before} → ${after.time})`);
    assert.equal(await nowPlaying(page), "Bicycle Bell");

    // Space pauses it when focus is not in a field, and plays it again.
    await page.locator("main").focus();
    await page.keyboard.press("Space");
    await bar(page).getByRole("button", { name: "Play", exact: true }).waitFor();
    assert.equal((await audio(page)).paused, true);
    await page.keyboard.press("Space");
    await bar(page).getByRole("button", { name: "Pause", exact: true }).waitFor();
    await close();
  });

  test("an album plays on to its next track when the first ends, and a reload keeps the queue, paused", async () => {
    const { page, close } = await newPage(browser);
    await page.goto(albumTrack);
    await hydrated(page);
    await page.locator("main").getByRole("link", { name: "The Paper Lanterns" }).first().click();
    await page.getByRole("heading", { name: "Releases" }).waitFor();
    await hydrated(page);
    await page.getByRole("link", { name: "Play Small Town Satellites" }).click();
    await playingPast(page, 0.2);
    assert.equal(await nowPlaying(page), "Satellite Town");
    const firstSrc = (await audio(page)).src;

    // To the end of the first track, by keyboard on the bar's seek bar.
    await bar(page).getByRole("slider", { name: "Seek" }).focus();
    await page.keyboard.press("End");
    await page.waitForFunction((first) => {
      const element = document.querySelector("audio")!;
      return element.currentSrc !== first && !element.paused && element.currentTime > 0;
    }, firstSrc);
    assert.equal(await nowPlaying(page), "Bicycle Bell");

    // The queue view lists the album in order, Bicycle Bell playing.
    await bar(page).getByRole("button", { name: "Queue" }).click();
    const queue = page.getByRole("list", { name: "Tracks in the queue" });
    assert.deepEqual(await queueTitles(page), ["Satellite Town", "Bicycle Bell", "Harbour Wall", "All the Lights on Byres Road"]);
    assert.equal(await queue.locator("[aria-current='true']").getByRole("link").first().textContent(), "Now playing: Bicycle Bell");
    await page.reload();
    await hydrated(page);
    await bar(page).waitFor();
    assert.equal(await nowPlaying(page), "Bicycle Bell");
    assert.equal((await audio(page)).paused, true, "nothing plays by itself after a reload");
    // Its length and waveform are there before it plays, and a seek then is where it plays from.
    const seek = bar(page).getByRole("slider", { name: "Seek" });
    assert.notEqual(await seek.getAttribute("aria-valuemax"), "0");
    const barHeights = await bar(page)
      .locator("svg rect")
      .evaluateAll((rects) => new Set(rects.map((rect) => rect.getAttribute("height"))).size);
    assert.ok(barHeights > 1, "the waveform is drawn, not a flat line");
    await seek.focus();
    await page.keyboard.press("End");
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    const seekedTo = Number(await seek.getAttribute("aria-valuenow"));
    assert.ok(seekedTo > 0, "the seek moved");
    await bar(page).getByRole("button", { name: "Play", exact: true }).click();
    await playingPast(page, seekedTo - 0.5);
    await close();
  });

  test("the queue is edited from the keyboard: play next, add, move, remove, clear; axe finds nothing with it open", async () => {
    const { page, close } = await newPage(browser);
    await page.goto(albumTrack);
    await hydrated(page);
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>("button[aria-label='Play Bicycle Bell']")?.disabled);
    await page.getByRole("button", { name: "Play Bicycle Bell" }).click();
    await playingPast(page, 0);
    await page.getByRole("button", { name: "Pause Bicycle Bell" }).click();

    // From the artist's page, by keyboard: one track to the end of the queue, another as the next one.
    await page.locator("main").getByRole("link", { name: "The Paper Lanterns" }).first().click();
    await page.getByRole("heading", { name: "Releases" }).waitFor();
    for (const [title, item] of [
      ["Harbour Wall", "Add to queue"],
      ["Satellite Town", "Play next"],
    ] as const) {
      await page.getByLabel(`More options for ${title}`).focus();
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: item }).first().focus();
      await page.keyboard.press("Enter");
    }
    const queueButton = bar(page).getByRole("button", { name: "Queue" });
    await queueButton.focus();
    await page.keyboard.press("Enter");
    assert.deepEqual(await queueTitles(page), ["Bicycle Bell", "Satellite Town", "Harbour Wall"]);

    // Move the last one up twice, by keyboard: focus stays on its button in its new place (the
    // announcement says where it went); at the top, on Move down. Then back down one, and remove one.
    await page.getByRole("button", { name: "Move Harbour Wall up" }).focus();
    await page.keyboard.press("Enter");
    await page.getByText("Harbour Wall moved to position 2 of 3").waitFor();
    assert.deepEqual(await queueTitles(page), ["Bicycle Bell", "Harbour Wall", "Satellite Town"]);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label"));
    assert.equal(await focused(), "Move Harbour Wall up");
    await page.keyboard.press("Enter");
    await page.getByText("Harbour Wall moved to position 1 of 3").waitFor();
    assert.equal(await focused(), "Move Harbour Wall down");
    await page.keyboard.press("Enter");
    await page.getByText("Harbour Wall moved to position 2 of 3").waitFor();
    assert.deepEqual(await queueTitles(page), ["Bicycle Bell", "Harbour Wall", "Satellite Town"]);
    await page.getByRole("button", { name: "Remove Satellite Town from the queue" }).focus();
    await page.keyboard.press("Enter");
    assert.deepEqual(await queueTitles(page), ["Bicycle Bell", "Harbour Wall"]);
    await expectNoAxeViolations(page);

    // Escape closes it and gives focus back to the Queue button; Clear queue empties the bar away.
    await page.keyboard.press("Escape");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Queue");
    await queueButton.click();
    await page.getByRole("button", { name: "Clear queue" }).focus();
    await page.keyboard.press("Enter");
    await bar(page).waitFor({ state: "detached" });
    // The bar went with the queue: focus is on the page's content, where the next key is heard.
    assert.equal(await page.evaluate(() => document.activeElement?.id), "main");
    await close();
  });

  test("on a phone the bar shows the title, the queue sits on the bar with Shuffle and Repeat, and a row's menu is whole", async () => {
    const { page, close } = await newAccountPage(browser, "fan", `phone${Date.now().toString(36)}`, { viewport: viewports.phone });
    await page.goto(albumTrack);
    await hydrated(page);
    await page.locator("main").getByRole("link", { name: "The Paper Lanterns" }).first().click();
    await page.getByRole("heading", { name: "Releases" }).waitFor();
    await hydrated(page);
    await page.getByRole("link", { name: "Play Small Town Satellites" }).click();
    await playingPast(page, 0);
    await bar(page).getByRole("button", { name: "Pause", exact: true }).click();
    // "Satellite Town" is whole, and the title has room for about twenty letters.
    const title = bar(page).getByRole("link").first();
    assert.ok(await title.evaluate((link) => link.scrollWidth <= link.clientWidth), "the bar's title is cut");
    const titleWidth = await title.evaluate((link) => {
      const track = link.parentElement!.parentElement!;
      return track.getBoundingClientRect().right - link.getBoundingClientRect().left;
    });
    assert.ok(titleWidth >= 150, `the bar's title has ${titleWidth} px at ${viewports.phone.width} px`);

    await bar(page).getByRole("button", { name: "Queue" }).click();
    const queue = page.getByRole("region", { name: "Queue" });
    await queue.waitFor();
    const gap = await page.evaluate(() => {
      const panel = document.querySelector("[aria-labelledby='queue-heading']")!.getBoundingClientRect();
      const controls = document.querySelector("[aria-label='Player'] > div:last-child")!.getBoundingClientRect();
      return controls.top - panel.bottom;
    });
    assert.equal(Math.round(gap), 0, "the queue sits on the bar");
    await queue.getByRole("button", { name: "Shuffle" }).click();
    assert.equal(await queue.getByRole("button", { name: "Shuffle" }).getAttribute("aria-pressed"), "true");
    await queue.getByRole("button", { name: "Repeat: off" }).click();
    await queue.getByRole("button", { name: "Repeat: all" }).waitFor();
    // The last row's menu opens whole: the list scrolls to it, and "New playlist..." is on top where it is.
    const last = (await queueTitles(page)).at(-1)!;
    await queue.getByLabel(`More options for ${last}`).click();
    const item = queue.getByRole("link", { name: "New playlist..." });
    await item.waitFor();
    const topmost = await item.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const atCentre = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return atCentre === element || element.contains(atCentre);
    });
    assert.ok(topmost, "the last row's menu is cut by the queue");
    await page.keyboard.press("Escape");
    await expectNoAxeViolations(page);
    await close();
  });
});

// What the server renders for playlists without JavaScript (the menus leading to Your Playlists, the forms
// that add, move, remove and delete) is proved by the route tests (tests/routes/playlists.test.ts).
test("a fan makes a playlist, fills it, reorders it and deletes it with JavaScript", async () => {
  const { page, close } = await newAccountPage(browser, "fan", "lister");
  page.setDefaultTimeout(20_000);
  const name = "Road trip";
  // New playlist from a track's menu: the form on Your Playlists, the track going in first.
  await page.goto(albumTrack);
  await hydrated(page);
  await page.getByLabel("More options for Bicycle Bell").click();
  await page.getByRole("link", { name: "New playlist..." }).click();
  await page.getByRole("heading", { name: "New playlist" }).waitFor();
  // A refused name keeps what was typed, and says why beside it.
  await page.getByLabel("Description (optional)").fill("For the drive");
  await page.getByRole("button", { name: "Create playlist" }).click();
  await page.getByText("Playlist name is required").waitFor();
  assert.equal(await page.getByLabel("Description (optional)").inputValue(), "For the drive");
  await page.getByLabel("Playlist name").fill(name);
  await page.getByRole("button", { name: "Create playlist" }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();

  // Two more tracks from the album, through the menu's Add to playlist.
  for (const title of ["Harbour Wall", "Satellite Town"]) {
    await page.goto(demoTrackPath(title));
    await hydrated(page);
    await page.getByLabel(`More options for ${title}`).click();
    await page.getByRole("button", { name, exact: true }).click();
    await page.getByText(`Added to ${name}`).waitFor();
  }
  // Adding one already there says so.
  await page.goto(demoTrackPath("Harbour Wall"));
  await hydrated(page);
  await page.getByLabel("More options for Harbour Wall").click();
  await page.getByRole("button", { name, exact: true }).click();
  await page.getByText(`This track is already in ${name}`).waitFor();
  await page.goto("/playlists");
  await page.getByRole("link", { name: new RegExp(`${name}.*3 tracks`) }).click();
  await page.getByRole("heading", { level: 1, name }).waitFor();
  const titles = () => page.getByRole("list", { name: "Tracks" }).getByRole("listitem").locator("a.font-semibold").allTextContents();
  assert.deepEqual(await titles(), ["Bicycle Bell", "Harbour Wall", "Satellite Town"]);
  await hydrated(page);
  await page.getByRole("button", { name: "Move Satellite Town up" }).click();
  await page.getByText("Moved to position 2").waitFor();
  await page.getByRole("button", { name: "Move Bicycle Bell down" }).click();
  await page.getByText("Moved to position 2").waitFor();
  await page.locator("ol[aria-label='Tracks'] > li").nth(1).locator("a.font-semibold", { hasText: "Bicycle Bell" }).waitFor();
  assert.deepEqual(await titles(), ["Satellite Town", "Bicycle Bell", "Harbour Wall"]);
  await page.getByRole("button", { name: "Remove Harbour Wall from this playlist" }).click();
  await page.getByText("Removed from this playlist").waitFor();
  await page.getByRole("button", { name: "Remove Harbour Wall from this playlist" }).waitFor({ state: "detached" });
  assert.deepEqual(await titles(), ["Satellite Town", "Bicycle Bell"]);
  // axe runs in the page, so only where the page runs scripts.
  await expectNoAxeViolations(page);

  // Deleting asks for the box first.
  await page.getByRole("button", { name: "Delete playlist" }).click();
  await page.getByText("Tick the box to confirm you want to delete this playlist").waitFor();
  await page.getByLabel("I understand that deleting this playlist cannot be undone.").check();
  await page.getByRole("button", { name: "Delete playlist" }).click();
  await page.waitForURL((url) => url.pathname === "/playlists");
  await page.getByText("No playlists created yet").waitFor();
  await close();
});
