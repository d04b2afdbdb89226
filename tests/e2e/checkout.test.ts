// A fan buys, with and without JavaScript: Buy Now's dialog into the cart, the cart's own price, paying on
// the Stripe stand-in's page (a declined card first, which says so), back on the return page with the order
// paid, and the track theirs to download. A visitor buys an album as a guest, with an email alone, and
// downloads it from the receipt link in a fresh browser. The artist refunds a sale from Payment Settings,
// and the download is the fan's no more. axe finds nothing on the cart, the return page, the receipt
// link's page and the artist's sales.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Page } from "playwright-core";
import {
  demoAlbumPath,
  demoTrackPath,
  expectNoAxeViolations,
  hydrated,
  browserForThisFile,
  newAccountPage,
  newPage,
  payWithCard,
  signedInPage,
  viewports,
} from "./support/browser.ts";

const browser = await browserForThisFile();

/** Opens Buy Now's dialog on an item's page: a button with JavaScript (once the page is live), a link without. */
async function openBuyNow(page: Page, label: string, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    await hydrated(page);
    await page.getByRole("button", { name: label }).click();
  } else {
    await page.getByRole("link", { name: label }).click();
  }
}

/** Puts the item whose page is open into the cart from Buy Now's dialog, and waits for the cart. */
async function addToCart(page: Page, label: string, javaScriptEnabled: boolean) {
  await openBuyNow(page, label, javaScriptEnabled);
  await page.getByRole("dialog", { name: "Complete Purchase" }).getByRole("button", { name: "Add to cart" }).click();
  await page.waitForURL((url) => url.pathname === "/cart");
}

for (const javaScriptEnabled of [true, false]) {
  describe(`buying ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test("a fan puts a track in the cart at their own price, is declined once, pays, and owns it", async () => {
      const { page, close } = await newAccountPage(browser, "fan", `buyer${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`, {
        javaScriptEnabled,
        viewport: javaScriptEnabled ? viewports.desktop : viewports.phone,
      });
      const path = demoTrackPath("Mesquite Moon");
      await page.goto(path);
      await openBuyNow(page, "Buy Now - $1.29", javaScriptEnabled);
      const dialog = page.getByRole("dialog", { name: "Complete Purchase" });
      await dialog.getByLabel("Your price").fill("2.50");
      await dialog.getByRole("button", { name: "Add to cart" }).click();
      await page.waitForURL((url) => url.pathname === "/cart");
      await page.getByRole("link", { name: "Cart, 1 item" }).waitFor();
      await page.getByRole("link", { name: "Mesquite Moon" }).waitFor();
      if (javaScriptEnabled) {
        await hydrated(page);
        // What the artist receives, as the fan types.
        await page.getByLabel("Your price (USD)").fill("3.00");
        await page.getByText("Hattie Monroe receives $2.64 before discounts.").waitFor();
        await page.getByRole("button", { name: "Update" }).click();
        await page.getByRole("button", { name: "Pay $3.00" }).waitFor();
        await expectNoAxeViolations(page);
      }
      await page.getByLabel(/lose my 14-day right to withdraw/).check();
      await page.getByRole("button", { name: /^Pay \$/ }).click();

      // Stripe's page (the stand-in): a declined card says so, the test card pays.
      await payWithCard(page, "4000 0000 0000 0002");
      await page.getByRole("alert").getByText("Your card was declined.").waitFor();
      await payWithCard(page);

      await page.waitForURL((url) => url.pathname === "/checkout/done");
      await page.getByRole("heading", { level: 1, name: "Thank you!" }).waitFor();
      await page.getByRole("link", { name: "Mesquite Moon" }).waitFor();
      if (javaScriptEnabled) {
        await hydrated(page);
        await expectNoAxeViolations(page);
      }
      // The track is theirs: its page offers its downloads, and the cart is empty again.
      await page.getByRole("link", { name: "Mesquite Moon" }).click();
      await page.waitForURL((url) => url.pathname === path);
      await page.getByText("You own this").first().waitFor();
      assert.equal(await page.getByRole("link", { name: "Cart, 0 items" }).count(), 1);
      await close();
    });

    test("a visitor buys an album as a guest, and downloads it from the receipt link in a fresh browser", async () => {
      const { page, close } = await newPage(browser, { javaScriptEnabled });
      await page.goto(demoAlbumPath("Headlights & Static"));
      await addToCart(page, "Buy Now - $4.49", javaScriptEnabled);
      await page.getByLabel("Email").fill(`guest-${javaScriptEnabled ? "js" : "plain"}-${Date.now().toString(36)}@example.com`);
      await page.getByLabel(/lose my 14-day right to withdraw/).check();
      await page.getByRole("button", { name: "Pay $4.49 as a guest" }).click();
      await payWithCard(page);

      await page.waitForURL((url) => url.pathname.startsWith("/receipt/"));
      await page.getByRole("heading", { level: 1, name: "Your purchase" }).waitFor();
      if (javaScriptEnabled) {
        await hydrated(page);
        await expectNoAxeViolations(page);
      }
      const receipt = page.url();
      await close();

      const fresh = await newPage(browser, { javaScriptEnabled });
      await fresh.page.goto(receipt);
      const download = fresh.page.waitForEvent("download");
      await fresh.page.getByRole("link", { name: "Download Headlights & Static as uploaded" }).click();
      assert.match((await download).suggestedFilename(), /Headlights & Static\.zip$/);
      await fresh.close();
    });

    test("the artist refunds a sale from Payment Settings, and the fan owns the track no more", async () => {
      const fan = await newAccountPage(browser, "fan", `refunded${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`, {
        javaScriptEnabled,
      });
      const path = demoTrackPath("Greenhouse");
      await fan.page.goto(path);
      await addToCart(fan.page, "Buy Now - £0.99", javaScriptEnabled);
      await fan.page.getByLabel(/lose my 14-day right to withdraw/).check();
      await fan.page.getByRole("button", { name: "Pay £0.99" }).click();
      await payWithCard(fan.page);
      await fan.page.getByRole("heading", { level: 1, name: "Thank you!" }).waitFor();
      await fan.page.goto(path);
      await fan.page.getByText("You own this").first().waitFor();

      const artist = await signedInPage(browser, "artist", { javaScriptEnabled });
      await artist.page.goto("/dashboard/artist/payments");
      const sales = artist.page.getByRole("table", { name: "Sales, newest first" });
      // The newest sale is this one.
      await sales.getByText("Refund Greenhouse").first().click();
      if (javaScriptEnabled) {
        await hydrated(artist.page);
        await expectNoAxeViolations(artist.page);
      }
      await sales.getByRole("button", { name: "Refund £0.99 to the buyer" }).first().click();
      await artist.page.getByText("Refunded. The buyer is told by email").waitFor();
      await artist.close();

      await fan.page.goto(path);
      await fan.page.getByRole(javaScriptEnabled ? "button" : "link", { name: "Buy Now - £0.99" }).waitFor();
      assert.equal(await fan.page.getByText("You own this").count(), 0);
      await fan.close();
    });

    test("a discount code and the artist's bundle show on the cart and on the receipt", async () => {
      const fan = await newAccountPage(browser, "fan", `bundler${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`, {
        javaScriptEnabled,
      });
      // Two singles of The Paper Lanterns (£0.99 and £1.29), whose store has LANTERNS20 and a 15% bundle.
      for (const [title, price] of [
        ["Greenhouse", "£0.99"],
        ["Kites Over the Clyde", "£1.29"],
      ]) {
        await fan.page.goto(demoTrackPath(title!));
        await addToCart(fan.page, `Buy Now - ${price}`, javaScriptEnabled);
      }
      await fan.page.getByLabel("Discount code").fill("lanterns20");
      await fan.page.getByRole("button", { name: "Apply" }).click();
      await fan.page.getByText("LANTERNS20: applied to The Paper Lanterns's items.").waitFor();
      await fan.page.getByText(/save 15%\. Applied\./).waitFor();
      await fan.page.getByText("−£0.73").waitFor();
      await fan.page.getByLabel(/lose my 14-day right to withdraw/).check();
      await fan.page.getByRole("button", { name: "Pay £1.55" }).click();
      await payWithCard(fan.page);
      await fan.page.getByRole("heading", { level: 1, name: "Thank you!" }).waitFor();

      // The receipt, in the mail stand-in's outbox: each line's code and bundle discounts.
      const receipt = fan.page
        .locator("article", { hasText: fan.email })
        .filter({ has: fan.page.getByRole("heading", { name: /^Your Crate receipt/ }) });
      for (let look = 0; (await receipt.count()) === 0; look++) {
        assert.ok(look < 500, "the receipt reaches the outbox");
        await fan.page.goto(process.env.E2E_MAIL_URL!);
      }
      const mail = receipt.locator("iframe").contentFrame();
      await mail.getByText("code LANTERNS20: −£0.20, bundle: −£0.12").waitFor();
      await mail.getByText("code LANTERNS20: −£0.26, bundle: −£0.15").waitFor();
      await fan.close();
    });
  });
}

describe("the cart with JavaScript", () => {
  test("choosing a pricing tier sets Your price and what the artist receives, and the next Update keeps it", async () => {
    const fan = await newAccountPage(browser, "fan", `tierjs${Date.now().toString(36)}`);
    // Greenhouse (£0.99, fans may pay more) by The Paper Lanterns, whose tiers go up to Supporter at £4.99.
    await fan.page.goto(demoTrackPath("Greenhouse"));
    await addToCart(fan.page, "Buy Now - £0.99", true);
    await hydrated(fan.page);
    const prices = fan.page.getByRole("region", { name: "The Paper Lanterns's prices" });
    await prices.getByRole("button", { name: "Supporter £4.99" }).click();
    await fan.page.getByRole("button", { name: "Pay £4.99" }).waitFor();
    const yourPrice = fan.page.getByLabel("Your price (GBP)");
    await fan.page.getByText("The Paper Lanterns receives £4.39 before discounts.").waitFor();
    assert.equal(await yourPrice.inputValue(), "4.99");
    // Update sends what the field holds: the tier, not the price before it.
    const saved = fan.page.waitForResponse(
      (response) => response.request().method() === "GET" && new URL(response.url()).pathname === "/cart.data",
    );
    await fan.page.getByRole("button", { name: "Update", exact: true }).click();
    await saved;
    await fan.page.getByRole("button", { name: "Pay £4.99" }).waitFor();
    assert.equal(await yourPrice.inputValue(), "4.99");
    await fan.close();
  });
});
