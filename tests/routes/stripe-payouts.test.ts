// Artists paid through Stripe, without JavaScript: connecting an account through Stripe's onboarding (the
// stand-in's pages) with the account's password, or another in its place, the account mailed; its state on
// Payment Settings as Stripe says it; Stripe chosen only once its account is ready, with the password;
// a sale paid through the stand-in transferred to the artist's account from its own charge by the payout
// job, once however often it runs, and taken back when the sale is refunded. What the stand-in holds
// equals what the ledger says was paid out.
import { describe, expect, inject, it } from "vitest";
import { type Transfer } from "@crate/stand-ins/stripe";
import {
  Visitor,
  inputValue,
  mailsTo,
  marketplaceBackend,
  marketplaceHeaders,
  newArtist,
  newFan,
  serviceClient,
  signedIn,
  text,
} from "./support.ts";

const stripeUrl = inject("stripe").url;
const appUrl = inject("appUrl");
const payments = "/dashboard/artist/payments";
const settings = { paypalEmail: "pay@example.com", minimumPrice: "1", currency: "USD", withdrawThreshold: "50" };

const runJob = () => fetch(new URL("/payouts", appUrl), { method: "POST", headers: marketplaceHeaders() });

async function transfersTo(account: string): Promise<Transfer[]> {
  const all = (await (await fetch(`${stripeUrl}/_transfers`)).json()) as Transfer[];
  return all.filter((transfer) => transfer.destination === account);
}

async function stripeAccountOf(artistId: string): Promise<string | null> {
  const { data } = await serviceClient.from("artist_payout_settings").select("stripe_account").eq("artist_id", artistId).single();
  return data!.stripe_account as string | null;
}

async function payoutMethodOf(artistId: string): Promise<string> {
  const { data } = await serviceClient.from("artist_payout_settings").select("payout_method").eq("artist_id", artistId).single();
  return data!.payout_method as string;
}

/** The subjects of the mails `email` has had so far, once the queue has delivered `count` of them. */
async function subjectsTo(email: string, count: number): Promise<string[]> {
  await expect.poll(async () => (await mailsTo(email)).length, { timeout: 15_000 }).toBe(count);
  return (await mailsTo(email)).map((mail) => mail.subject).sort();
}

/** The Stripe form's password field as the page shows it: marked invalid, with its message. */
const stripePasswordInvalid = /name="currentPassword"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*name="currentPassword"/;

async function readyOf(artistId: string): Promise<boolean> {
  const { data } = await serviceClient.from("artist_payout_settings").select("stripe_ready").eq("artist_id", artistId).single();
  return data!.stripe_ready as boolean;
}

/** On to Stripe's onboarding from Payment Settings (for another account in place of the one connected when asked). */
async function startOnboarding(artist: Visitor, connection: "this" | "another" = "this", country?: string) {
  const connect = await artist.post(payments, {
    intent: "connect-stripe",
    connection,
    currentPassword: "a-long-password",
    ...(country ? { country } : {}),
  });
  expect(connect.response.status).toBe(303);
  return connect;
}

/** Through Stripe's onboarding (the stand-in's form) from Payment Settings: where it sends the artist back. */
async function onboard(artist: Visitor, connection: "this" | "another" = "this") {
  const connect = await startOnboarding(artist, connection);
  const onboarding = connect.response.headers.get("location")!;
  expect(onboarding.startsWith(`${stripeUrl}/connect/`)).toBe(true);
  const refused = await fetch(onboarding, {
    method: "POST",
    body: new URLSearchParams({ name: "", bank_account: "" }),
    redirect: "manual",
  });
  expect(refused.status).toBe(400);
  const done = await fetch(onboarding, {
    method: "POST",
    body: new URLSearchParams({ name: "Stripe Tester", bank_account: "GB33BUKB20201555555555" }),
    redirect: "manual",
  });
  expect(done.status).toBe(303);
  return new URL(done.headers.get("location")!);
}

describe("connecting Stripe", () => {
  it("goes through Stripe's onboarding and shows the account's state as Stripe says it", async () => {
    const artist = await newArtist("Stripe Connector");
    expect(text((await artist.visitor.get(payments)).html)).toMatch(/Stripe Not connected .*Connect Stripe/);
    const early = await artist.visitor.post(payments, { ...settings, payoutMethod: "stripe" });
    expect(early.response.status).toBe(400);
    expect(text(early.html)).toContain("Connect your Stripe account first");

    // Connected, not set up yet: Stripe is no choice until the account is ready.
    await startOnboarding(artist.visitor);
    const half = await artist.visitor.post(payments, { ...settings, payoutMethod: "stripe", currentPassword: artist.password });
    expect(half.response.status).toBe(400);
    expect(text(half.html)).toContain("Finish setting up your Stripe account first");
    expect(await payoutMethodOf(artist.id)).toBe("paypal");

    const back = await onboard(artist.visitor);
    expect(`${back.pathname}${back.search}`).toBe(`${payments}?stripe=return`);
    const account = await stripeAccountOf(artist.id);
    expect(account).toMatch(/^acct_/);
    // Stripe says so through its Connect endpoint (account.updated, signed with that endpoint's secret).
    for (let look = 0; !(await readyOf(artist.id)); look++) {
      expect(look, "account.updated reaches the marketplace").toBeLessThan(500);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(text((await artist.visitor.get(`${back.pathname}${back.search}`)).html)).toMatch(
      /Stripe Ready Your Stripe account takes payouts/,
    );
    // Connecting again keeps the one account.
    await onboard(artist.visitor);
    expect(await stripeAccountOf(artist.id)).toBe(account);
    expect(await subjectsTo(artist.email, 1)).toEqual(["A Stripe account was connected to your Crate payouts"]);
  });

  it("makes an account for a bank in another region as Stripe takes one (transfers alone, the recipient agreement), and refuses a country that is none beside its field", async () => {
    const artist = await newArtist("Stripe Abroad");
    expect(text((await artist.visitor.get(payments)).html)).toContain("Country of your bank account");
    const wrong = await artist.visitor.post(payments, {
      intent: "connect-stripe",
      connection: "this",
      currentPassword: artist.password,
      country: "G",
    });
    expect(wrong.response.status).toBe(400);
    expect(text(wrong.html)).toContain("Choose the country of your bank account");
    expect(await stripeAccountOf(artist.id)).toBeNull();
    await startOnboarding(artist.visitor, "this", "GB");
    const account = await stripeAccountOf(artist.id);
    const { secretKey } = inject("stripe");
    const described = (await (
      await fetch(`${stripeUrl}/v1/accounts/${account}`, { headers: { Authorization: `Bearer ${secretKey}` } })
    ).json()) as {
      country: string;
    };
    expect(described.country).toBe("GB");
  });

  it("asks for the password before Stripe's pages, says so beside the field, and connects nothing without it", async () => {
    const artist = await newArtist("Stripe Guarded");
    for (const [currentPassword, message] of [
      ["", "Please enter your current password to connect Stripe"],
      ["not-the-password", "Your current password is not right"],
    ] as const) {
      const { response, html } = await artist.visitor.post(payments, { intent: "connect-stripe", connection: "this", currentPassword });
      expect(response.status).toBe(400);
      const card = html.slice(html.indexOf('value="connect-stripe"'));
      expect(text(card)).toContain(message);
      expect(card).toMatch(stripePasswordInvalid);
      expect(html).not.toContain("not-the-password");
    }
    expect(await stripeAccountOf(artist.id)).toBeNull();
    expect(await mailsTo(artist.email)).toEqual([]);
  });

  it("replaces a connected account with another, with the password, the account mailed", async () => {
    const artist = await newArtist("Stripe Replacer");
    await onboard(artist.visitor);
    const first = await stripeAccountOf(artist.id);
    const refused = await artist.visitor.post(payments, { intent: "connect-stripe", connection: "another", currentPassword: "a guess" });
    expect(refused.response.status).toBe(400);
    expect(await stripeAccountOf(artist.id)).toBe(first);

    const back = await onboard(artist.visitor, "another");
    const second = await stripeAccountOf(artist.id);
    expect(second).toMatch(/^acct_/);
    expect(second).not.toBe(first);
    expect(text((await artist.visitor.get(`${back.pathname}${back.search}`)).html)).toMatch(/Stripe Ready/);
    expect(await subjectsTo(artist.email, 2)).toEqual([
      "A Stripe account was connected to your Crate payouts",
      "A Stripe account was connected to your Crate payouts",
    ]);
  });

  it("chooses Stripe only with the password, keeping what was typed, and mails the account", async () => {
    const artist = await newArtist("Stripe Chooser");
    const back = await onboard(artist.visitor);
    await artist.visitor.get(`${back.pathname}${back.search}`);
    const chosen = { ...settings, minimumPrice: "3", payoutMethod: "stripe" };
    for (const [currentPassword, message] of [
      ["", "Please enter your current password to change where payouts go"],
      ["not-the-password", "Your current password is not right"],
    ] as const) {
      const { response, html } = await artist.visitor.post(payments, { ...chosen, currentPassword });
      expect(response.status).toBe(400);
      expect(text(html)).toContain(message);
      expect(html).toMatch(stripePasswordInvalid);
      expect(inputValue(html, "minimumPrice")).toBe("3");
      expect(html).toMatch(/<input[^>]*name="payoutMethod"[^>]*checked=""[^>]*value="stripe"/);
      expect(html).not.toContain("not-the-password");
    }
    expect(await payoutMethodOf(artist.id)).toBe("paypal");

    const saved = await artist.visitor.post(payments, { ...chosen, currentPassword: artist.password });
    expect(text(saved.html)).toContain("Payment settings saved");
    expect(await payoutMethodOf(artist.id)).toBe("stripe");
    expect(await subjectsTo(artist.email, 2)).toEqual([
      "A Stripe account was connected to your Crate payouts",
      "Your payout method was changed to Stripe",
    ]);
    // Saving again with the same method asks for no password and mails nobody.
    expect((await artist.visitor.post(payments, chosen)).response.status).toBe(200);
    expect(await mailsTo(artist.email)).toHaveLength(2);
  });

  it("is an artist's alone", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.post(payments, { intent: "connect-stripe", currentPassword: "fan-demo-pass" })).response.status).toBe(403);
    expect((await new Visitor().post(payments, { intent: "connect-stripe" })).response.status).toBe(302);
  });
});

describe("transfers", () => {
  it("transfers a settled GBP sale in the platform's USD at its charge's rate, once, and takes it back when the sale is refunded", async () => {
    const artist = await newArtist("Stripe Seller");
    const back = await onboard(artist.visitor);
    await artist.visitor.get(`${back.pathname}${back.search}`);
    expect(
      text(
        (await artist.visitor.post(payments, { ...settings, currency: "GBP", payoutMethod: "stripe", currentPassword: artist.password }))
          .html,
      ),
    ).toContain("Payment settings saved");
    const account = (await stripeAccountOf(artist.id))!;
    expect(account).toMatch(/^acct_/);
    const track = await serviceClient
      .from("tracks")
      .insert({
        artist_id: artist.id,
        title: "Wired Direct",
        genre: "Folk",
        price: 10,
        description: "For transfers",
        release_date: "2026-01-01",
      })
      .select("id")
      .single();
    expect(track.error).toBeNull();

    // A fan pays through the stand-in; the return page lands the payment.
    const fan = await newFan(`transferfan${Date.now().toString(36)}`);
    await fan.visitor.post("/cart", { intent: "add", kind: "track", id: track.data!.id, amount: "" });
    const checkout = await fan.visitor.post("/cart", { intent: "checkout", currency: "GBP", followArtists: "", waiveWithdrawal: "on" });
    const paid = await fetch(checkout.response.headers.get("location")!, {
      method: "POST",
      body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "GB" }),
      redirect: "manual",
    });
    const returned = new URL(paid.headers.get("location")!);
    expect(text((await fan.visitor.get(`${returned.pathname}${returned.search}`)).html)).toContain("Thank you!");

    // Pending, nothing moves; settled, the job transfers it once, however often it runs.
    expect((await runJob()).status).toBe(200);
    expect(await transfersTo(account)).toEqual([]);
    await serviceClient
      .from("ledger_entries")
      .update({ available_at: new Date(Date.now() - 60_000).toISOString() })
      .eq("artist_id", artist.id);
    // A run stopped half way started the transfer and made nothing; then two runs at once, and one more.
    expect((await marketplaceBackend.rpc("payouts_to_send")).error).toBeNull();
    expect((await Promise.all([runJob(), runJob()])).map((run) => run.status)).toEqual([200, 200]);
    expect((await runJob()).status).toBe(200);
    const [transfer, ...more] = await transfersTo(account);
    expect(more).toEqual([]);
    const { data: order } = await serviceClient.from("orders").select("id, payment_intent").eq("buyer_id", fan.id).single();
    // £8.80, the artist's 88% of £10, sent as $11.18 at the stand-in's 1.27 dollars to the pound; the
    // payout keeps what it sent.
    expect(transfer).toMatchObject({
      amount: 1118,
      currency: "usd",
      source_transaction: expect.stringMatching(/^ch_/),
      transfer_group: order!.payment_intent,
      description: `Crate order ${order!.id.slice(0, 8).toUpperCase()}: Wired Direct`,
    });
    const { data: payout } = await serviceClient
      .from("payouts")
      .select("amount_cents, currency, sent_amount_cents, sent_currency, exchange_rate")
      .eq("artist_id", artist.id)
      .single();
    expect(payout).toEqual({ amount_cents: 880, currency: "GBP", sent_amount_cents: 1118, sent_currency: "USD", exchange_rate: 1.27 });
    const page = text((await artist.visitor.get(payments)).html);
    expect(page).toMatch(/Available £0\.00 Pending £0\.00 Paid out £8\.80 Earned £8\.80/);
    expect(page).toMatch(
      /£8\.80 sent as \$11\.18 \(1 GBP = 1\.27 USD\) Your Stripe account: Crate order [0-9A-F]{8}: Wired Direct Automatic Paid/,
    );

    // Refunded: the transfer comes back from the artist's account, and the ledger nets to nothing.
    const { data: line } = await serviceClient.from("order_lines").select("id").eq("order_id", order!.id).single();
    const refunded = await artist.visitor.post(payments, { intent: "refund", lineId: line!.id });
    expect(text(refunded.html)).toContain("Refunded.");
    expect(await transfersTo(account)).toEqual([expect.objectContaining({ amount_reversed: 1118, reversed: true })]);
    const after = text((await artist.visitor.get(payments)).html);
    expect(after).toMatch(/Available £0\.00 Pending £0\.00 Paid out £0\.00 Earned £0\.00/);
    expect(after).toContain("Reversed The sale was refunded, so Stripe took the transfer back.");
    // The next run reverses nothing more.
    expect((await (await runJob()).json()).reversed).toBe(0);
  });

  it("moves to Stripe what the ledger says was paid out there, and takes back what it says came back, to the cent", async () => {
    const { data: payouts } = await serviceClient
      .from("payouts")
      .select("id, amount_cents, sent_amount_cents, reversed_at")
      .eq("method", "stripe");
    const { data: entries } = await serviceClient
      .from("ledger_entries")
      .select("kind, amount_cents")
      .in(
        "payout_id",
        (payouts ?? []).map((payout) => payout.id),
      );
    const ledger = (kind: string) =>
      (entries ?? []).filter((entry) => entry.kind === kind).reduce((sum, entry) => sum + Math.abs(entry.amount_cents), 0);
    const transfers = (await (await fetch(`${stripeUrl}/_transfers`)).json()) as Transfer[];
    expect(transfers.length).toBeGreaterThan(0);
    // The ledger counts each payout in its sale's currency; Stripe has it in what it was sent in.
    expect((payouts ?? []).reduce((sum, payout) => sum + payout.amount_cents, 0)).toBe(ledger("payout"));
    const reversedPayouts = (payouts ?? []).filter((payout) => payout.reversed_at !== null);
    expect(reversedPayouts.reduce((sum, payout) => sum + payout.amount_cents, 0)).toBe(ledger("payout_return"));
    const sentOf = (payoutId: string) => {
      const payout = (payouts ?? []).find((one) => one.id === payoutId)!;
      return payout.sent_amount_cents ?? payout.amount_cents;
    };
    for (const transfer of transfers) expect(transfer.amount).toBe(sentOf(transfer.metadata.payout_id!));
    expect(transfers.reduce((sum, transfer) => sum + transfer.amount_reversed, 0)).toBe(
      reversedPayouts.reduce((sum, payout) => sum + (payout.sent_amount_cents ?? payout.amount_cents), 0),
    );
    // Each payout went to Stripe once.
    expect(new Set(transfers.map((transfer) => transfer.metadata.payout_id)).size).toBe(transfers.length);
  });
});
