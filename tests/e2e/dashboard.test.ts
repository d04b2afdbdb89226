// The artist dashboard live: a comment a fan posts in another browser appears in Recent Activity without
// a reload, through Realtime (the page gets its short-lived token from the app, its session cookie stays
// HttpOnly). Without JavaScript the server renders the same feed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { expectNoAxeViolations, hydrated, browserForThisFile, logIn, newPage, demoTrackPath, signedInPage } from "./support/browser.ts";

const browser = await browserForThisFile();

test("Recent Activity shows a fan's new comment live, without a reload", async () => {
  const artist = await newPage(browser);
  // Subscribed once Realtime has answered the channel's join with its postgres_changes.
  const subscribed = new Promise<void>((resolve) =>
    artist.page.on("websocket", (socket) =>
      socket.on("framereceived", ({ payload }) => {
        if (String(payload).includes("phx_reply") && String(payload).includes("postgres_changes")) resolve();
      }),
    ),
  );
  await artist.page.goto("/login");
  await logIn(artist.page, "artist@example.com", "artist-demo-pass");
  await artist.page.waitForURL((url) => url.pathname === "/dashboard/artist");
  await hydrated(artist.page);
  await subscribed;
  await artist.page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));

  const words = `Played it on the night bus ${Date.now().toString(36)}`;
  const fan = await newPage(browser);
  await fan.page.goto("/login");
  await logIn(fan.page, "fan@example.com", "fan-demo-pass");
  await fan.page.waitForURL((url) => url.pathname === "/dashboard/fan");
  await fan.page.goto(demoTrackPath("Bicycle Bell"));
  await hydrated(fan.page);
  await fan.page.getByLabel("Add a comment").fill(words);
  await fan.page.getByRole("button", { name: "Post comment" }).click();

  const recent = artist.page.getByRole("region", { name: "Recent Activity" });
  await recent.getByText(words).waitFor({ timeout: 5000 });
  assert.equal(await artist.page.evaluate(() => "stillTheSamePage" in window), true, "no reload");
  await expectNoAxeViolations(artist.page);
  await fan.close();
  await artist.close();
});

test("without JavaScript, the server renders the same feed", async () => {
  const { page, close } = await signedInPage(browser, "artist", { javaScriptEnabled: false });
  await page.getByRole("region", { name: "Recent Activity" }).getByRole("listitem").first().waitFor();
  await close();
});
