// A new artist publishes from the browser: a single (which a visitor then plays, its waveform drawn at
// once), an album and merchandise, with and without JavaScript; a file that is not what its name says
// is refused next to its picker.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import { tinyPng, toneWav } from "../support/media.ts";
import { baseUrl, expectNoAxeViolations, hydrated, browserForThisFile, newPage, newAccountPage } from "./support/browser.ts";

const browser = await browserForThisFile();

const audioFile = (name: string) => ({ name, mimeType: "audio/wav", buffer: Buffer.from(toneWav(2)) });
const artworkFile = { name: "cover.png", mimeType: "image/png", buffer: Buffer.from(tinyPng) };

/** With JavaScript, files upload as they are chosen: wait until `count` of them are complete. */
async function uploadsComplete(page: Page, count: number) {
  await page.waitForFunction(
    (expected) =>
      document.querySelectorAll("form li").length === expected &&
      [...document.querySelectorAll("form li")].every((item) => item.textContent?.includes("Complete")),
    count,
  );
}

async function fillRelease(page: Page, { genre, price, date }: { genre: string; price: string; date: string }) {
  await page.getByLabel("Genre", { exact: true }).selectOption(genre);
  await page.getByLabel("Price (USD)").fill(price);
  await page.getByLabel("Release date").fill(date);
  await page.getByLabel("Description").fill("Made for the browser test");
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  describe(`uploading ${mode}`, () => {
    test("a new artist publishes a single, an album and merch, and a visitor plays the single with its waveform", async () => {
      const artistName = `Uploader ${javaScriptEnabled ? "JS" : "Plain"} ${Date.now().toString(36)}`;
      const single = `First Light ${Date.now().toString(36)}`;
      const { page, close } = await newAccountPage(browser, "artist", artistName, { javaScriptEnabled });

      await page.goto("/dashboard/artist/upload");
      await page.getByRole("heading", { level: 1, name: "Upload Content" }).waitFor();
      // The formats are stated before anything is chosen.
      await page.getByText("MP3, WAV, AAC or OGG, at most 50 MB each").waitFor();
      if (javaScriptEnabled) {
        await hydrated(page);
        await expectNoAxeViolations(page);
      }
      // A page that pretends to be audio is refused next to its picker.
      await page.getByLabel("Title", { exact: true }).fill(single);
      await fillRelease(page, { genre: "Folk", price: "1.25", date: "2026-01-02" });
      await page
        .getByLabel("Track", { exact: true })
        .setInputFiles({ name: "song.mp3", mimeType: "audio/mpeg", buffer: Buffer.from("<html></html>") });
      await page.getByLabel("Artwork").setInputFiles(artworkFile);
      await page.getByRole("button", { name: "Publish" }).click();
      await page.getByText("Invalid file type. Please upload MP3, WAV, AAC, or OGG files only.").waitFor();
      assert.equal(await page.getByLabel("Title", { exact: true }).inputValue(), single);
      if (javaScriptEnabled) await expectNoAxeViolations(page);

      await page.getByLabel("Track", { exact: true }).setInputFiles(audioFile("first-light.wav"));
      await page.getByLabel("Artwork").setInputFiles(artworkFile);
      if (javaScriptEnabled) await uploadsComplete(page, 2);
      await page.getByRole("button", { name: "Publish" }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks");
      const trackLink = page.getByRole("link", { name: single, exact: true });
      await trackLink.waitFor();
      const trackPath = await trackLink.getAttribute("href");

      await page.getByRole("link", { name: "Upload New Track" }).first().click();
      await page.getByRole("link", { name: "Album", exact: true }).click();
      await page.waitForURL("**/dashboard/artist/upload?type=album");
      await page.getByLabel("Album title").fill("Harbour Lights");
      await fillRelease(page, { genre: "Folk", price: "0.99", date: "2026-01-03" });
      await page.getByLabel("Tracks").setInputFiles([audioFile("01 Tide.wav"), audioFile("02 Gulls.wav")]);
      await page.getByLabel("Artwork").setInputFiles(artworkFile);
      if (javaScriptEnabled) await uploadsComplete(page, 3);
      await page.getByRole("button", { name: "Publish" }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks");
      await page.getByRole("link", { name: "01 Tide", exact: true }).waitFor();
      await page.getByRole("link", { name: "02 Gulls", exact: true }).waitFor();

      await page.goto("/dashboard/artist/upload?type=merch");
      await page.getByLabel("Title", { exact: true }).fill("Enamel Pin");
      await page.getByLabel("Price (USD)").fill("6.00");
      await page.getByLabel("Description").fill("Gold on navy");
      await page.getByLabel("Stock (optional)").fill("50");
      await page.getByLabel("Ships from").selectOption({ label: "United Kingdom" });
      await page.getByLabel("Shipping in that country (USD)").fill("1.50");
      await page.getByLabel("Product image").setInputFiles(artworkFile);
      if (javaScriptEnabled) await uploadsComplete(page, 1);
      await page.getByRole("button", { name: "Publish" }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks");
      await page.getByText("Enamel Pin", { exact: true }).waitFor();
      await page.getByText("50 left to sell").waitFor();

      // Its stream is made off the request path: Your Tracks says so, then "Ready" (by itself with JavaScript;
      // without it, on a later visit).
      await page.goto("/dashboard/artist/tracks");
      const singleRow = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: single, exact: true }) });
      await singleRow.getByText(/^Stream: (Preparing the stream|Ready)$/).waitFor();
      if (javaScriptEnabled) await singleRow.getByText("Stream: Ready", { exact: true }).waitFor({ timeout: 60_000 });
      else {
        for (let visit = 0; !(await singleRow.getByText("Stream: Ready", { exact: true }).isVisible()); visit++) {
          assert.ok(visit < 600, "the single's stream was never ready");
          await page.reload();
        }
      }

      // A visitor (with JavaScript, as the player needs it) hears the single, its waveform drawn at once.
      const listener = await newPage(browser);
      await listener.page.goto(trackPath!);
      await listener.page.getByRole("heading", { level: 1, name: single }).waitFor();
      // Drawn into the page by the server (the player replaces it once its audio is ready, so look at the HTML).
      const served = await (await fetch(new URL(trackPath!, baseUrl))).text();
      assert.ok((served.match(/<rect /g) ?? []).length > 100, "the stored waveform is drawn by the server");
      await hydrated(listener.page);
      const play = listener.page.getByRole("button", { name: `Play ${single}` });
      await listener.page.waitForFunction(
        (name) => !document.querySelector<HTMLButtonElement>(`button[aria-label='Play ${name}']`)?.disabled,
        single,
      );
      await play.click();
      await listener.page.waitForFunction(() => (document.querySelector("audio")?.currentTime ?? 0) > 0.3);
      // What plays is the stream made for it, never the uploaded WAV.
      assert.match(await listener.page.evaluate(() => document.querySelector("audio")!.src), /\/renditions\/[^/?]+\.128k\.mp3\?token=/);
      await listener.close();

      // The single's edit page takes new audio and artwork (with JavaScript uploaded as they are chosen).
      await page.goto("/dashboard/artist/tracks");
      await page.getByRole("link", { name: `Edit ${single}` }).click();
      await page.getByRole("heading", { level: 1, name: `Edit ${single}` }).waitFor();
      await page.getByText("Audio now: WAV · 0:02").waitFor();
      if (javaScriptEnabled) await hydrated(page);
      await page.getByLabel("New audio").setInputFiles({ ...audioFile("retake.wav"), buffer: Buffer.from(toneWav(3)) });
      await page.getByLabel("New artwork").setInputFiles(artworkFile);
      if (javaScriptEnabled) {
        await uploadsComplete(page, 2);
        await expectNoAxeViolations(page);
      }
      await page.getByRole("button", { name: "Replace files" }).click();
      await page.getByText("Audio now: WAV · 0:03").waitFor();
      // The artist's account (and with it the release) goes only once the visitor has heard it.
      await close();
    });
  });
}

describe("uploading an album with JavaScript", () => {
  test("each track uploads at once with its bar, resumes after a dropped connection, and can be renamed, reordered and removed", async () => {
    const artistName = `Album Builder ${Date.now().toString(36)}`;
    const { page, close } = await newAccountPage(browser, "artist", artistName);
    // The connection drops during the long track's second chunk; its next try is held until the test
    // has seen what the page says meanwhile.
    let releaseResume = () => {};
    const resumeHeld = new Promise<void>((resolve) => (releaseResume = resolve));
    let laterChunks = 0;
    await page.route("**/uploads/resumable/*", async (route) => {
      const request = route.request();
      if (request.method() === "PATCH" && request.headers()["upload-offset"] !== "0") {
        laterChunks += 1;
        if (laterChunks === 1) return route.abort("connectionreset");
        await resumeHeld;
      }
      return route.continue();
    });

    await page.goto("/dashboard/artist/upload?type=album");
    await hydrated(page);
    await page.getByLabel("Album title").fill("Day Cycle");
    await fillRelease(page, { genre: "Folk", price: "2.00", date: "2026-01-04" });
    const longTrack = { name: "03 Long Night.wav", mimeType: "audio/wav", buffer: Buffer.from(toneWav(500)) }; // 8 MB: two chunks
    await page.getByLabel("Tracks").setInputFiles([audioFile("01 Dawn.wav"), audioFile("02 Noon.wav"), longTrack]);
    await page.getByText(/Resumed at \d+%, not from the start/).waitFor();
    const bar = page.getByRole("progressbar", { name: "Upload of track 3 (03 Long Night.wav)" });
    await bar.waitFor();
    // Drawn in the theme's accent, not the browser's own green.
    const [filled, accent] = await bar.evaluate((element) => {
      const probe = document.createElement("div");
      probe.className = "bg-accent";
      document.body.append(probe);
      const fill = element.firstElementChild;
      const colors = [fill ? getComputedStyle(fill).backgroundColor : "", getComputedStyle(probe).backgroundColor];
      probe.remove();
      return colors;
    });
    assert.equal(filled, accent);
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Please wait for all uploads to complete").waitFor();
    assert.equal(page.url().endsWith("/dashboard/artist/upload?type=album"), true);
    releaseResume();
    // The rows settle (each says Complete) before the drag: a row that grows while the pointer moves can
    // take the drop meant for another (this failed once in CI).
    await uploadsComplete(page, 3);

    // Dragged to the top, the long track becomes track 1; removing Noon (now track 3) leaves two; the
    // keyboard moves the long one down and back up.
    const trackUploads = page.getByRole("list", { name: "Track uploads" }).getByRole("listitem");
    await trackUploads.nth(2).dragTo(trackUploads.nth(0));
    await page.getByRole("button", { name: "Remove track 3 (02 Noon.wav)" }).click();
    await page.getByRole("button", { name: "Move down track 1 (03 Long Night.wav)" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Move up track 2 (03 Long Night.wav)" }).focus();
    await page.keyboard.press("Enter");
    await page.getByLabel("Title of track 1").fill("Long Night");
    assert.equal(await page.getByLabel("Title of track 2").inputValue(), "01 Dawn");
    await page.getByLabel("Artwork").setInputFiles(artworkFile);
    await uploadsComplete(page, 3);
    await expectNoAxeViolations(page);
    await page.getByRole("button", { name: "Publish" }).click();
    await page.waitForURL((url) => url.pathname === "/dashboard/artist/tracks");
    await page.getByRole("link", { name: "Long Night", exact: true }).waitFor();
    assert.equal(await page.getByRole("link", { name: "02 Noon", exact: true }).count(), 0);
    // Lists show the small rendition the browser made of the artwork; the track page the original.
    assert.equal(await page.locator('img[src*="/artwork/"][src*="/small/"]').count(), 2);

    // The album plays in the order chosen, each track with its waveform read in the browser.
    const trackPath = await page.getByRole("link", { name: "Long Night", exact: true }).getAttribute("href");
    await page.goto(trackPath!);
    assert.ok((await page.locator("svg rect").count()) > 100, "the waveform read in the browser is drawn by the server");
    assert.equal(await page.locator('img[src*="/small/"]').count(), 0);
    await page.getByRole("link", { name: artistName }).first().click();
    const album = page.getByRole("list", { name: "Tracks of Day Cycle" });
    await album.waitFor();
    const tracks = await album.getByRole("link").allTextContents();
    assert.deepEqual(
      tracks.map((track) => track.match(/^(\d+)(Long Night|01 Dawn)/)?.slice(1)),
      [
        ["1", "Long Night"],
        ["2", "01 Dawn"],
      ],
    );
    await close();
  });

  test("after a refused publish, the messages about the files go once the files are there", async () => {
    const { page, close } = await newAccountPage(browser, "artist", `Second Try ${Date.now().toString(36)}`);
    await page.goto("/dashboard/artist/upload");
    await hydrated(page);
    await page.getByLabel("Title").fill("Second Try");
    await fillRelease(page, { genre: "Pop", price: "1.00", date: "2026-01-04" });
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Please upload at least one track").waitFor();
    await page.getByText("Please upload artwork").waitFor();

    await page.getByLabel("Track", { exact: true }).setInputFiles(audioFile("Second Try.wav"));
    await page.getByLabel("Artwork").setInputFiles(artworkFile);
    await uploadsComplete(page, 2);
    assert.equal(await page.getByText("Please upload at least one track").count(), 0);
    assert.equal(await page.getByText("Please upload artwork").count(), 0);
    await close();
  });
});
