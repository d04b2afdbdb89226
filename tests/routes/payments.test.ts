// The artist's Payment Settings without JavaScript: the owner-only payout row shown and saved by a plain
// form post, each refusal next to its field with what was typed kept, the PayPal email changed only with
// the current password (and the account mailed that it changed), and who may open the page.
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, inputValue, mailsTo, newArtist, serviceClient, signedIn, text } from "./support.ts";

const path = "/dashboard/artist/payments";
let artist: Awaited<ReturnType<typeof newArtist>>;

beforeAll(async () => {
  artist = await newArtist("Payout Tester");
});

const valid = { paypalEmail: "payouts@example.com", minimumPrice: "2.50", currency: "EUR", autoWithdraw: "on", withdrawThreshold: "120" };

async function storedRow() {
  const { data } = await serviceClient
    .from("artist_payout_settings")
    .select("paypal_email, payment_settings")
    .eq("artist_id", artist.id)
    .single();
  return data;
}

describe("Payment Settings", () => {
  it("asks a visitor to log in and answers a fan 403", async () => {
    const visitor = await new Visitor().get(path);
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get(path)).response.status).toBe(403);
    expect((await fan.post(path, valid)).response.status).toBe(403);
  });

  it("shows the artist's own settings: the PayPal email from sign-up and the spec's defaults", async () => {
    const { response, html } = await artist.visitor.get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(inputValue(html, "paypalEmail")).toBe("pay@example.com");
    expect(inputValue(html, "minimumPrice")).toBe("1");
    expect(html).toMatch(/<option value="USD" selected="">/);
    expect(inputValue(html, "withdrawThreshold")).toBe("50");
    expect(html).not.toMatch(/name="autoWithdraw"[^>]*checked/);
    expect(text(html)).toContain("Minimum amount required for automatic withdrawal (minimum $50).");
  });

  it("changes the PayPal email only with the current password, keeping what was typed, and mails the account", async () => {
    const before = await storedRow();
    const refusals: [string | undefined, string][] = [
      [undefined, "Please enter your current password to change your PayPal email"],
      ["not-the-password", "Your current password is not right"],
    ];
    for (const [currentPassword, message] of refusals) {
      const { response, html } = await artist.visitor.post(path, { ...valid, ...(currentPassword ? { currentPassword } : {}) });
      expect(response.status).toBe(400);
      expect(text(html)).toContain(message);
      expect(html).toMatch(/name="currentPassword"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="currentPassword"/);
      expect(inputValue(html, "paypalEmail")).toBe(valid.paypalEmail);
      expect(inputValue(html, "minimumPrice")).toBe(valid.minimumPrice);
      // The password is never sent back.
      expect(html).not.toContain("not-the-password");
    }
    expect(await storedRow()).toEqual(before);
    expect(await mailsTo(artist.email)).toEqual([]);

    const saved = await artist.visitor.post(path, { ...valid, currentPassword: artist.password });
    expect(saved.response.status).toBe(200);
    expect(text(saved.html)).toContain("Payment settings saved");
    expect((await storedRow())?.paypal_email).toBe("payouts@example.com");
    await expect
      .poll(async () => (await mailsTo(artist.email)).map((mail) => `${mail.subject}: ${mail.text}`).join("\n"), { timeout: 15_000 })
      .toMatch(/^Your PayPal email was changed: .*changed to pa\*\*\*@example\.com\./s);
    // Saving again with the same address asks for no password and mails nobody.
    expect((await artist.visitor.post(path, valid)).response.status).toBe(200);
    expect(await mailsTo(artist.email)).toHaveLength(1);
  });

  it("saves every field, says so, and shows them again", async () => {
    const saved = await artist.visitor.post(path, valid);
    expect(saved.response.status).toBe(200);
    expect(text(saved.html)).toContain("Payment settings saved");
    expect(await storedRow()).toEqual({
      paypal_email: "payouts@example.com",
      payment_settings: { minimum_price: 2.5, default_currency: "EUR", auto_withdraw: true, withdraw_threshold: 120 },
    });
    const { html } = await artist.visitor.get(path);
    expect(inputValue(html, "minimumPrice")).toBe("2.5");
    expect(html).toMatch(/<option value="EUR" selected="">/);
    expect(html).toMatch(/name="autoWithdraw"[^>]*checked/);
  });

  it("refuses each bad value next to its field, keeping what was typed and the stored row", async () => {
    const before = await storedRow();
    const refusals: [Record<string, string>, string, string][] = [
      [{ paypalEmail: "not-an-email" }, "paypalEmail", "PayPal email must be a valid email address"],
      [{ paypalEmail: "" }, "paypalEmail", "PayPal email is required"],
      [{ minimumPrice: "-1" }, "minimumPrice", "Minimum price must be at least 0.00"],
      [{ minimumPrice: "1.005" }, "minimumPrice", "Minimum price can have at most two decimals"],
      [{ currency: "JPY" }, "currency", "Choose USD, EUR or GBP"],
      [{ withdrawThreshold: "40" }, "withdrawThreshold", "Withdrawal threshold must be a whole number of at least $50, in steps of $10"],
      [{ withdrawThreshold: "55" }, "withdrawThreshold", "Withdrawal threshold must be a whole number of at least $50, in steps of $10"],
      [{ withdrawThreshold: "60.5" }, "withdrawThreshold", "Withdrawal threshold must be a whole number of at least $50, in steps of $10"],
    ];
    for (const [change, field, message] of refusals) {
      const { response, html } = await artist.visitor.post(path, { ...valid, ...change });
      expect(response.status, field).toBe(400);
      expect(text(html)).toContain(message);
      if (field !== "currency") expect(inputValue(html, field)).toBe(change[field]);
    }
    expect(await storedRow()).toEqual(before);
  });

  it("keeps the stored threshold when automatic withdrawals are off, whatever the hidden field holds", async () => {
    await artist.visitor.post(path, valid);
    const { autoWithdraw: _on, ...off } = valid;
    const saved = await artist.visitor.post(path, { ...off, withdrawThreshold: "oops" });
    expect(saved.response.status).toBe(200);
    expect((await storedRow())?.payment_settings).toMatchObject({ auto_withdraw: false, withdraw_threshold: 120 });
  });
});
