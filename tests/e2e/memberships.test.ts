// Studio → Memberships with JavaScript: an artist opens it from the dashboard's tile, adds a tier, edits
// it, and sees a member who joined (as the marketplace applies a paid period); a fan joins it from the
// artist's page, paying with 4242 on the Stripe stand-in's page; a fan opens their Memberships from the
// dashboard and is asked to confirm a cancel; axe finds nothing on a phone or a desktop. Without JavaScript
// the forms are proved by the route tests (tests/routes/memberships*.test.ts).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createClient } from "@supabase/supabase-js";
import { localDefaults } from "@crate/local-supabase";
import {
  admin,
  browserForThisFile,
  expectNoAxeViolations,
  hydrated,
  marketplaceHeaders,
  newAccountPage,
  payWithCard,
  supabaseUrl,
  viewports,
} from "./support/browser.ts";

const browser = await browserForThisFile();
/** The backend as the marketplace's Worker calls it, with its secret. */
const marketplace = createClient(supabaseUrl, localDefaults.anonKey, {
  auth: { persistSession: false, autoRefreshToken: false },
  global: { headers: marketplaceHeaders },
});

describe("Studio → Memberships", () => {
  test("an artist adds and edits a tier, sees who joined it, and axe finds nothing", async () => {
    const artist = await newAccountPage(browser, "artist", `Tiers ${Date.now().toString(36)}`);
    const fan = await admin.auth.admin.createUser({
      email: `member-${Date.now().toString(36)}@example.com`,
      password: "a-long-password",
      email_confirm: true,
      user_metadata: { role: "fan", username: `joiner${Date.now().toString(36)}`, favorite_genres: [] },
    });
    try {
      const { page } = artist;
      await page.getByRole("link", { name: /Memberships/ }).click();
      await page.getByRole("heading", { level: 1, name: "Memberships" }).waitFor();
      await hydrated(page);
      await page.getByLabel("Name").fill("Inner circle");
      await page.getByLabel("Price a month").fill("5");
      await page.getByLabel("Members get the back catalogue when they join").check();
      await page.getByRole("button", { name: "Add tier" }).click();
      await page.getByRole("heading", { level: 2, name: "Inner circle" }).waitFor();
      // The new tier's form is empty again for the next one.
      const newTier = page.getByRole("region", { name: "Add a tier" });
      assert.equal(await newTier.getByLabel("Name").inputValue(), "");
      const card = page.getByRole("region", { name: "Inner circle" });
      await card.getByText("Edit Inner circle").click();
      await card.getByLabel("Price a year").fill("50");
      await card.getByRole("button", { name: "Save Inner circle" }).click();
      await page.getByText("$5.00 a month or $50.00 a year").waitFor();

      const { data: tier } = await admin.from("membership_tiers").select("id").eq("artist_id", artist.userId).single();
      const { error } = await marketplace.rpc("membership_paid", {
        invoice_id: `in_${fan.data.user!.id}`,
        subscription_id: `sub_${fan.data.user!.id}`,
        fan_id: fan.data.user!.id,
        tier_id: tier!.id,
        billing_interval: "month",
        amount_cents: 500,
        tax_cents: 0,
        currency: "USD",
        period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
      if (error) throw new Error(error.message);
      await page.reload();
      await page
        .getByRole("list", { name: "Members of Inner circle" })
        .getByText(/joiner/)
        .waitFor();
      await hydrated(page);
      for (const viewport of Object.values(viewports)) {
        await page.setViewportSize(viewport);
        await expectNoAxeViolations(page);
      }

      // A fan joins from the artist's page, yearly, and pays on the payment page.
      const joiner = await newAccountPage(browser, "fan", `yearly${Date.now().toString(36)}`);
      try {
        await joiner.page.goto(`/artist/${artist.userId}`);
        await hydrated(joiner.page);
        await expectNoAxeViolations(joiner.page);
        await joiner.page.getByRole("radio", { name: "Yearly" }).check();
        await joiner.page.getByRole("button", { name: "Join Inner circle" }).click();
        await payWithCard(joiner.page);
        await joiner.page.getByText("You're a member (Inner circle)").waitFor();
        assert.equal(new URL(joiner.page.url()).pathname, `/artist/${artist.userId}`);
      } finally {
        await joiner.close();
      }
    } finally {
      await artist.close();
      await admin.auth.admin.deleteUser(fan.data.user!.id);
    }
  });
});

describe("A fan's Memberships", () => {
  test("a member opens it from the dashboard and is asked to confirm a cancel, and axe finds nothing", async () => {
    const fan = await newAccountPage(browser, "fan", `leaver${Date.now().toString(36)}`);
    const artist = await admin.auth.admin.createUser({
      email: `leaving-${Date.now().toString(36)}@example.com`,
      password: "a-long-password",
      email_confirm: true,
      user_metadata: { role: "artist", artist_name: `Leaving ${Date.now().toString(36)}`, paypal_email: "payouts@example.com", genres: [] },
    });
    const { data: tier, error: tierError } = await admin
      .from("membership_tiers")
      .insert({ artist_id: artist.data.user!.id, name: "Front row", monthly_price_cents: 500, currency: "USD" })
      .select("id")
      .single();
    if (tierError) throw new Error(tierError.message);
    try {
      const { error } = await marketplace.rpc("membership_paid", {
        invoice_id: `in_${fan.userId}`,
        subscription_id: `sub_${fan.userId}`,
        fan_id: fan.userId,
        tier_id: tier.id,
        billing_interval: "month",
        amount_cents: 500,
        tax_cents: 0,
        currency: "USD",
        period_end: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      });
      if (error) throw new Error(error.message);
      const { page } = fan;
      await page.getByRole("link", { name: "Memberships" }).click();
      await page.getByRole("heading", { level: 1, name: "Memberships" }).waitFor();
      await hydrated(page);
      await page.getByRole("link", { name: /Cancel your membership of/ }).click();
      await page.getByText(/Your membership ends on/).waitFor();
      await page.getByRole("button", { name: "Confirm cancel" }).waitFor();
      for (const viewport of Object.values(viewports)) {
        await page.setViewportSize(viewport);
        await expectNoAxeViolations(page);
      }
    } finally {
      await fan.close();
      await admin.auth.admin.deleteUser(artist.data.user!.id);
    }
  });
});
