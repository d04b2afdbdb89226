// Artists paid and merch sent, with and without JavaScript: an artist whose sale has settled turns on
// automatic withdrawals, the scheduled payout job runs, and Payment Settings shows the payout paid while
// the PayPal stand-in's page lists it; an artist connects Stripe through its onboarding, chooses it, and
// after a fan's purchase settles the job transfers the sale to their account; a fan buys the demo artist's T-shirt shipped to the UK, the artist
// marks it shipped with a tracking number from Merch Orders, and the fan's mail arrives in the outbox.
// axe finds nothing on Payment Settings and Merch Orders.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { recordSalesAs } from "../support/sales.ts";
import {
  admin,
  baseUrl,
  browserForThisFile,
  expectNoAxeViolations,
  hydrated,
  marketplaceHeaders,
  newAccountPage,
  payWithCard,
  signedInPage,
  uniqueEmail,
} from "./support/browser.ts";

const browser = await browserForThisFile();
const demoArtistPath = "/artist/a1000000-0000-4000-8000-000000000012";
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** What the media Worker's Cron Trigger runs every hour: the payout job, through its operator route. */
async function scheduledPayouts() {
  const response = await fetch(new URL("/payouts", baseUrl), {
    method: "POST",
    headers: marketplaceHeaders,
  });
  assert.equal(response.status, 200, "the payout job runs");
}

for (const javaScriptEnabled of [true, false]) {
  describe(`getting paid ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test("an artist above the threshold with automatic withdrawals on is paid by PayPal on the schedule", async () => {
      const artist = await newAccountPage(browser, "artist", `Paid Artist ${javaScriptEnabled ? "JS" : "plain"}`, { javaScriptEnabled });
      const track = await admin
        .from("tracks")
        .insert({
          artist_id: artist.userId,
          title: "Long Player",
          genre: "Folk",
          price: 60,
          description: "For payouts",
          release_date: daysAgo(30).slice(0, 10),
        })
        .select("id")
        .single();
      assert.equal(track.error, null);
      // A sale ten days ago: settled, so available.
      await recordSalesAs(admin, [{ track_id: track.data!.id, amount: 60, user_id: null, created_at: daysAgo(10) }]);

      const paypalEmail = uniqueEmail("paid");
      await artist.page.goto("/dashboard/artist/payments");
      // Settled and at the threshold: Withdraw now is there.
      await artist.page.getByRole("button", { name: "Withdraw now $52.80" }).waitFor();
      await artist.page.getByLabel("PayPal email").fill(paypalEmail);
      await artist.page.getByLabel("Current password").fill("a-long-password");
      await artist.page.getByLabel("Pay out automatically when my balance reaches the threshold").check();
      await artist.page.getByRole("button", { name: "Save payment settings" }).click();
      await artist.page.getByText("Payment settings saved").waitFor();

      await scheduledPayouts();
      await artist.page.goto("/dashboard/artist/payments");
      const payouts = artist.page.getByRole("table", { name: "Payouts" });
      await payouts
        .getByRole("row", { name: new RegExp(`\\$52\\.80 ${paypalEmail.replace(/[.]/g, "\\.")} \\(PayPal\\) Automatic Paid`) })
        .waitFor();
      if (javaScriptEnabled) {
        await hydrated(artist.page);
        await expectNoAxeViolations(artist.page);
      }

      await artist.page.goto(process.env.E2E_PAYPAL_URL!);
      await artist.page.getByRole("row", { name: new RegExp(`${paypalEmail.replace(/[.]/g, "\\.")} 52\\.80 USD SUCCESS`) }).waitFor();
      await artist.close();
    });

    test("an artist connects Stripe and receives a transfer after a sale", async () => {
      const mode = javaScriptEnabled ? "JS" : "plain";
      const artist = await newAccountPage(browser, "artist", `Stripe Artist ${mode}`, { javaScriptEnabled });
      const track = await admin
        .from("tracks")
        .insert({
          artist_id: artist.userId,
          title: `Wired ${mode}`,
          genre: "Folk",
          price: 10,
          description: "For transfers",
          release_date: daysAgo(30).slice(0, 10),
        })
        .select("id")
        .single();
      assert.equal(track.error, null);

      // Connect: Stripe's onboarding (the stand-in's pages), then back on Payment Settings, ready.
      await artist.page.goto("/dashboard/artist/payments");
      if (javaScriptEnabled) await hydrated(artist.page);
      await artist.page.getByLabel("Password", { exact: true }).fill("a-long-password");
      await artist.page.getByRole("button", { name: "Connect Stripe" }).click();
      await artist.page.getByRole("heading", { name: "Set up payouts" }).waitFor();
      await artist.page.getByLabel("Legal name").fill(`Stripe Artist ${mode}`);
      await artist.page.getByLabel("Bank account number or IBAN").fill("GB33BUKB20201555555555");
      await artist.page.getByRole("button", { name: "Agree and submit" }).click();
      await artist.page.waitForURL((url) => url.pathname === "/dashboard/artist/payments");
      await artist.page.getByText("Your Stripe account takes payouts.").waitFor();
      await artist.page.getByLabel("Stripe: each sale moves to your Stripe account once it settles").check();
      await artist.page.getByLabel("Current password").fill("a-long-password");
      await artist.page.getByRole("button", { name: "Save payment settings" }).click();
      await artist.page.getByText("Payment settings saved").waitFor();

      // A fan buys the track, and its payment settles.
      const fan = await newAccountPage(browser, "fan", `wiredfan${mode}${Date.now().toString(36)}`, { javaScriptEnabled });
      await fan.page.goto(`/track/${track.data!.id}`);
      if (javaScriptEnabled) {
        await hydrated(fan.page);
        await fan.page.getByRole("button", { name: "Buy Now - $10.00" }).click();
      } else {
        await fan.page.getByRole("link", { name: "Buy Now - $10.00" }).click();
      }
      await fan.page.getByRole("dialog", { name: "Complete Purchase" }).getByRole("button", { name: "Add to cart" }).click();
      await fan.page.waitForURL((url) => url.pathname === "/cart");
      await fan.page.getByLabel(/lose my 14-day right to withdraw/).check();
      await fan.page.getByRole("button", { name: "Pay $10.00" }).click();
      await payWithCard(fan.page);
      await fan.page.getByRole("heading", { level: 1, name: "Thank you!" }).waitFor();
      await fan.close();
      const settled = await admin
        .from("ledger_entries")
        .update({ available_at: daysAgo(1) })
        .eq("artist_id", artist.userId);
      assert.equal(settled.error, null);

      await scheduledPayouts();
      await artist.page.goto("/dashboard/artist/payments");
      await artist.page
        .getByRole("table", { name: "Payouts" })
        .getByRole("row", { name: new RegExp(`\\$8\\.80 Your Stripe account: Crate order [0-9A-F]{8}: Wired ${mode} Automatic Paid`) })
        .waitFor();
      if (javaScriptEnabled) {
        await hydrated(artist.page);
        await expectNoAxeViolations(artist.page);
      }
      await artist.close();
    });

    test("a merch order is marked shipped and the buyer's mail arrives in the outbox", async () => {
      const fan = await newAccountPage(browser, "fan", `shirtfan${javaScriptEnabled ? "js" : "plain"}${Date.now().toString(36)}`, {
        javaScriptEnabled,
      });
      await fan.page.goto(demoArtistPath);
      if (javaScriptEnabled) await hydrated(fan.page);
      await fan.page.getByRole("link", { name: "Buy Lantern logo T-shirt - £22.00" }).click();
      await fan.page.getByRole("dialog", { name: "Complete Purchase" }).getByRole("button", { name: "Add to cart" }).click();
      await fan.page.waitForURL((url) => url.pathname === "/cart");
      await fan.page.getByLabel("Merch ships to").selectOption("GB");
      await fan.page.getByRole("button", { name: "Update shipping" }).click();
      await fan.page.getByRole("button", { name: "Pay £25.00" }).click();
      await fan.page.getByLabel("Full name").fill("Riley Spins");
      await fan.page.getByLabel("Address").fill("1 Byres Road");
      await fan.page.getByLabel("City").fill("Glasgow");
      await fan.page.getByLabel("Postal code").fill("G12 8QQ");
      await payWithCard(fan.page);
      await fan.page.getByRole("heading", { level: 1, name: "Thank you!" }).waitFor();

      const tracking = `RB${Date.now().toString(36).toUpperCase()}GB`;
      const artist = await signedInPage(browser, "artist", { javaScriptEnabled, landing: "/dashboard/artist/orders" });
      const order = artist.page.getByRole("listitem").filter({ hasText: "Riley Spins" }).filter({ hasText: "1 Byres Road" }).first();
      await order.getByLabel("Tracking number (optional) for Lantern logo T-shirt").fill(tracking);
      if (javaScriptEnabled) {
        await hydrated(artist.page);
        await expectNoAxeViolations(artist.page);
      }
      await order.getByRole("button", { name: /^Mark as shipped/ }).click();
      await artist.page.getByText(`tracking ${tracking}`).waitFor();
      await artist.close();

      const shipped = fan.page
        .locator("article", { hasText: fan.email })
        .filter({ has: fan.page.getByRole("heading", { name: /is on its way$/ }) });
      for (let look = 0; (await shipped.count()) === 0; look++) {
        assert.ok(look < 500, "the shipping notice reaches the outbox");
        await fan.page.goto(process.env.E2E_MAIL_URL!);
      }
      await shipped.locator("iframe").contentFrame().getByText(tracking).waitFor();
      await fan.close();
    });
  });
}
