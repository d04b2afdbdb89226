// Giving and claiming, with and without JavaScript: a fan buys a track as a gift from Buy Now's dialog
// ("Buy as a gift": the recipient's email, a message, today), pays on the Stripe stand-in's page; the
// recipient's mail (in the mail stand-in's outbox) carries the message and the claim link; in a fresh
// browser the link's page asks them to sign up, brings them back, and Claim makes the track theirs; the
// giver's Purchased says "Claimed". axe finds nothing on the dialog's gift form, the claim page before and
// after claiming, and Purchased's gifts.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import {
  browserForThisFile,
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  newAccountPage,
  newPage,
  payWithCard,
  uniqueEmail,
  viewports,
} from "./support/browser.ts";

const browser = await browserForThisFile();

/** The claim link in the newest gift mail to `email`, from the mail stand-in's outbox (reloaded until it arrives). */
async function claimLink(page: Page, email: string): Promise<string> {
  const gift = page.locator("article", { hasText: email }).filter({ has: page.getByRole("heading", { name: /sent you a gift on Crate/ }) });
  for (let look = 0; (await gift.count()) === 0; look++) {
    assert.ok(look < 500, "the gift's mail reaches the outbox");
    await page.goto(process.env.E2E_MAIL_URL!);
  }
  const mail = gift.first().locator("iframe").contentFrame();
  await mail.getByText("Happy birthday from the browser").waitFor();
  const href = await mail.getByRole("link", { name: "Claim your gift" }).getAttribute("href");
  assert.ok(href, "the mail carries a claim link");
  return new URL(href).pathname;
}

for (const javaScriptEnabled of [true, false]) {
  describe(`giving ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test("a fan gives a track, the recipient signs up from the mail's link and claims it, and the giver sees it claimed", async () => {
      const giver = await newAccountPage(browser, "fan", `giver${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`, {
        javaScriptEnabled,
        viewport: javaScriptEnabled ? viewports.desktop : viewports.phone,
      });
      const recipientEmail = uniqueEmail("friend");
      await giver.page.goto(demoTrackPath("Salt and Iron"));
      if (javaScriptEnabled) {
        await hydrated(giver.page);
        await giver.page.getByRole("button", { name: "Buy Now - $1.49" }).click();
      } else {
        await giver.page.getByRole("link", { name: "Buy Now - $1.49" }).click();
      }
      const dialog = giver.page.getByRole("dialog", { name: "Complete Purchase" });
      await dialog.getByText("Buy as a gift", { exact: true }).first().click();
      await dialog.getByLabel("Recipient’s email").fill(recipientEmail);
      await dialog.getByLabel("Message (optional)").fill("Happy birthday from the browser");
      if (javaScriptEnabled) await expectNoAxeViolations(giver.page);
      await dialog.getByRole("button", { name: "Buy as a gift" }).click();
      await payWithCard(giver.page);
      await giver.page.getByRole("heading", { level: 1, name: "Thank you!" }).waitFor();

      // The recipient, in a fresh browser, follows the mail's link: signs up, comes back, claims.
      const path = await claimLink(giver.page, recipientEmail);
      const recipient = await newPage(browser, { javaScriptEnabled, viewport: javaScriptEnabled ? viewports.phone : viewports.desktop });
      await recipient.page.goto(path);
      await recipient.page.getByRole("heading", { level: 1, name: "A gift for you" }).waitFor();
      await recipient.page.getByText("Happy birthday from the browser").waitFor();
      if (javaScriptEnabled) {
        await hydrated(recipient.page);
        await expectNoAxeViolations(recipient.page);
      }
      await recipient.page.getByRole("link", { name: "Sign up to claim" }).click();
      await recipient.page.getByLabel("Email", { exact: true }).fill(recipientEmail);
      await recipient.page.getByLabel("Username").fill(`friend${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`);
      await recipient.page.getByLabel("Password", { exact: true }).fill("a-long-password");
      await recipient.page.getByLabel("Confirm password").fill("a-long-password");
      await recipient.page.getByLabel(/I agree to the/).check();
      await recipient.page.getByRole("button", { name: "Create Account" }).click();
      await recipient.page.waitForURL((url) => url.pathname === path);
      await recipient.page.getByRole("button", { name: "Claim your gift" }).click();
      await recipient.page.getByText("It is yours: play it and download it from Purchased.").waitFor();
      if (javaScriptEnabled) await expectNoAxeViolations(recipient.page);
      await recipient.page.getByRole("link", { name: "Go to Purchased" }).click();
      await recipient.page.getByRole("link", { name: "Salt and Iron" }).first().waitFor();
      await recipient.close();

      await giver.page.goto("/dashboard/fan/purchased");
      const gifts = giver.page.getByRole("region", { name: "Gifts you gave" });
      await gifts.getByText(`for ${recipientEmail}`).waitFor();
      await gifts.getByText("Claimed", { exact: true }).waitFor();
      if (javaScriptEnabled) {
        await hydrated(giver.page);
        await expectNoAxeViolations(giver.page);
      }
      await giver.close();
    });
  });
}
