// Artists paid, without JavaScript: Payment Settings' balances (the ledger's sums), "Withdraw now" above the
// threshold, and the payout job the media Worker's Cron Trigger runs (here through its operator route,
// `POST /payouts`, the same job) paying each balance due through the PayPal stand-in, once however often it
// runs, with a failure shown with PayPal's reason and the money kept; a payout to an address with no PayPal
// account shown waiting to be claimed, with the days left, its money back only once PayPal returns it.
// What the stand-in paid equals what the ledger says was paid out.
import { beforeAll, describe, expect, inject, it } from "vitest";
import { Visitor, marketplaceBackend, marketplaceHeaders, newArtist, recordSales, serviceClient, signedIn, text } from "./support.ts";
import { lockedDomain, unregisteredDomain, type PayoutBatch } from "@crate/stand-ins/paypal";

const appUrl = inject("appUrl");
const paypal = inject("paypal");
const path = "/dashboard/artist/payments";
const riley = "f0000000-0000-4000-8000-000000000001"; // the demo fan, 'rileyspins'
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** An artist with a $60 sale (their share $52.80), settled: paid ten days ago. */
async function artistWithEarnings(name: string, settings: Record<string, string> = {}) {
  const artist = await newArtist(name);
  const track = await serviceClient
    .from("tracks")
    .insert({
      artist_id: artist.id,
      title: `${name}'s Long Player`,
      genre: "Folk",
      price: 60,
      description: "For payouts",
      release_date: daysAgo(30).slice(0, 10),
    })
    .select("id")
    .single();
  expect(track.error).toBeNull();
  await recordSales([{ track_id: track.data!.id, amount: 60, user_id: riley, created_at: daysAgo(10) }]);
  if (Object.keys(settings).length > 0) {
    const saved = await artist.visitor.post(path, {
      paypalEmail: "pay@example.com",
      currentPassword: artist.password,
      minimumPrice: "1",
      currency: "USD",
      withdrawThreshold: "50",
      ...settings,
    });
    expect(text(saved.html)).toContain("Payment settings saved");
  }
  return artist;
}

const runJob = (secret?: string) => fetch(new URL("/payouts", appUrl), { method: "POST", headers: marketplaceHeaders(secret) });

async function batches(): Promise<PayoutBatch[]> {
  return (await (await fetch(`${paypal.url}/_batches`)).json()) as PayoutBatch[];
}

async function payoutsOf(artistId: string) {
  const { data, error } = await serviceClient
    .from("payouts")
    .select("id, state, amount_cents, failure, provider_id, unclaimed_at")
    .eq("artist_id", artistId)
    .order("created_at");
  expect(error).toBeNull();
  return data ?? [];
}

let withdrawing: { visitor: Visitor; id: string };

beforeAll(async () => {
  withdrawing = await artistWithEarnings("Withdraw Tester");
});

describe("balances and Withdraw now", () => {
  it("shows the artist's own balances, settled sales available", async () => {
    const page = text((await withdrawing.visitor.get(path)).html);
    expect(page).toMatch(/USD Available \$52\.80 Pending \$0\.00 Paid out \$0\.00 Earned \$52\.80/);
    expect(page).toContain("Automatic withdrawals are off: Withdraw now pays out your available balance.");
    expect(page).toContain("pending for 7 days");
  });

  it("shows each release's sales and what it earned on Your Tracks", async () => {
    const page = text((await withdrawing.visitor.get("/dashboard/artist/tracks")).html);
    expect(page).toContain("1 sale · $52.80 earned");
  });

  it("pays the available balance by PayPal at once, and shows the payout", async () => {
    const paid = await withdrawing.visitor.post(path, { intent: "withdraw" });
    expect(paid.response.status).toBe(200);
    expect(text(paid.html)).toContain("$52.80 paid to pay@example.com by PayPal.");
    expect(text(paid.html)).toMatch(/Available \$0\.00 Pending \$0\.00 Paid out \$52\.80 Earned \$52\.80/);
    expect(text(paid.html)).toMatch(/\$52\.80 pay@example\.com \(PayPal\) You \(Withdraw now\) Paid/);
    const [payout] = await payoutsOf(withdrawing.id);
    expect(payout).toMatchObject({ state: "paid", amount_cents: 5280 });
    const sent = (await batches()).filter((batch) => batch.batch_header.sender_batch_header.sender_batch_id === payout!.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.items[0]!.payout_item).toMatchObject({ receiver: "pay@example.com", amount: { value: "52.80", currency: "USD" } });
  });

  it("says so below the threshold, and pays nothing", async () => {
    const again = await withdrawing.visitor.post(path, { intent: "withdraw" });
    expect(again.response.status).toBe(409);
    expect(text(again.html)).toContain("Your available balance is below your withdrawal threshold.");
    // the threshold, and what is left to reach it
    expect(text(again.html)).toContain(
      'Automatic withdrawals are off: "Withdraw now" is available once your available balance reaches $50.00 ($50.00 to go).',
    );
    expect(await payoutsOf(withdrawing.id)).toHaveLength(1);
  });

  it("is an artist's alone: a fan is refused, a visitor asked to log in", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.post(path, { intent: "withdraw" })).response.status).toBe(403);
    const visitor = await new Visitor().post(path, { intent: "withdraw" });
    expect(visitor.response.status).toBe(302);
  });
});

describe("the payout job", () => {
  it("runs for the marketplace alone", async () => {
    expect((await runJob("not-the-secret-at-all-0123456789abcdef")).status).toBe(401);
    expect((await withdrawing.visitor.request("/payouts", { method: "POST" })).response.status).toBe(401);
  });

  it("pays a balance at the threshold with automatic withdrawals on, once however often it runs or was stopped", async () => {
    const automatic = await artistWithEarnings("Automatic Tester", { autoWithdraw: "on" });
    // A run stopped half way: it started the payout and sent nothing.
    expect((await marketplaceBackend.rpc("payouts_to_send")).error).toBeNull();
    // (A run of another suite may send it meanwhile: what matters is that it is paid once.)
    const [started, ...more] = await payoutsOf(automatic.id);
    expect(more).toEqual([]);
    // Two runs at once, then one more.
    const runs = await Promise.all([runJob(), runJob()]);
    expect(runs.map((run) => run.status)).toEqual([200, 200]);
    expect((await runJob()).status).toBe(200);
    expect(await payoutsOf(automatic.id)).toEqual([expect.objectContaining({ id: started!.id, state: "paid", amount_cents: 5280 })]);
    expect((await batches()).filter((batch) => batch.batch_header.sender_batch_header.sender_batch_id === started!.id)).toHaveLength(1);
    const page = text((await automatic.visitor.get(path)).html);
    expect(page).toMatch(/Paid out \$52\.80/);
    expect(page).toMatch(/pay@example\.com \(PayPal\) Automatic Paid/);
  });

  it("shows a failed payout with PayPal's reason and keeps the balance; Withdraw now tries again", async () => {
    const unpaid = await artistWithEarnings("Locked Tester", { autoWithdraw: "on", paypalEmail: `nobody@${lockedDomain}` });
    expect((await runJob()).status).toBe(200);
    expect(await payoutsOf(unpaid.id)).toEqual([
      expect.objectContaining({ state: "failed", failure: "Receiver account is locked or inactive" }),
    ]);
    const page = text((await unpaid.visitor.get(path)).html);
    expect(page).toMatch(/Available \$52\.80/);
    expect(page).toContain("Failed Receiver account is locked or inactive The money is back in your balance.");
    // Administrators see who must fix their payout details, beside the period's figures.
    const admin = await signedIn("admin@example.com", "admin-demo-pass");
    const figures = text((await admin.get("/admin?figures=7d")).html);
    expect(figures).toMatch(/Payouts that need a person \d+/);
    expect(figures).toMatch(/Locked Tester ?: \$52\.80 waiting; their payout failed on .* \(Receiver account is locked or inactive\)/);
    expect(figures).toMatch(/Money Last 7 days.*USD \$[\d,]+\.\d{2}/);
    // The job waits a day before trying again; the artist fixes their email and withdraws at once.
    expect((await runJob()).status).toBe(200);
    expect(await payoutsOf(unpaid.id)).toHaveLength(1);
    await unpaid.visitor.post(path, {
      paypalEmail: "fixed@example.com",
      currentPassword: unpaid.password,
      minimumPrice: "1",
      currency: "USD",
      autoWithdraw: "on",
      withdrawThreshold: "50",
    });
    expect(text((await unpaid.visitor.post(path, { intent: "withdraw" })).html)).toContain("$52.80 paid to fixed@example.com by PayPal.");
  });

  it("keeps a payout to an address with no PayPal account waiting to be claimed, its money back only once PayPal returns it", async () => {
    const unclaimed = await artistWithEarnings("Unclaimed Tester", { autoWithdraw: "on", paypalEmail: `nobody@${unregisteredDomain}` });
    expect((await runJob()).status).toBe(200);
    const [payout, ...more] = await payoutsOf(unclaimed.id);
    expect(more).toEqual([]);
    expect(payout).toMatchObject({ state: "sending", amount_cents: 5280, failure: null });
    expect(payout!.unclaimed_at).not.toBeNull();
    const waiting = text((await unclaimed.visitor.get(path)).html);
    expect(waiting).toMatch(/Available \$0\.00 Pending \$0\.00 Paid out \$52\.80/);
    expect(waiting).toContain(
      "Unclaimed Waiting for you to claim it at PayPal (30 days left): sign in to PayPal with nobody@unregistered.example and accept it",
    );
    // No other payout in that currency meanwhile, and the artist is told why.
    expect(waiting).toContain("Your next PayPal payout waits until you claim the one waiting for you at PayPal");
    // Administrators see it beside the failed payouts.
    const admin = await signedIn("admin@example.com", "admin-demo-pass");
    expect(text((await admin.get("/admin")).html)).toMatch(
      /Unclaimed Tester ?: \$52\.80 unclaimed at PayPal by nobody@unregistered\.example since .* \(30 days left before PayPal returns it\)/,
    );
    // The next runs keep asking; nothing more is started meanwhile.
    expect((await runJob()).status).toBe(200);
    expect(await payoutsOf(unclaimed.id)).toEqual([expect.objectContaining({ id: payout!.id, state: "sending" })]);
    // The stand-in's claim window passes (its setting, shortened for the test): PayPal returns the payout.
    const claimWindow = (seconds: number) =>
      fetch(`${paypal.url}/_claim_window`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ seconds }),
      });
    expect((await claimWindow(0)).status).toBe(204);
    try {
      expect((await runJob()).status).toBe(200);
    } finally {
      await claimWindow(30 * 86_400);
    }
    expect(await payoutsOf(unclaimed.id)).toEqual([
      expect.objectContaining({
        id: payout!.id,
        state: "failed",
        failure: "PayPal returned the payout unclaimed.",
      }),
    ]);
    const returned = text((await unclaimed.visitor.get(path)).html);
    expect(returned).toMatch(/Available \$52\.80/);
    expect(returned).toContain("Failed PayPal returned the payout unclaimed. The money is back in your balance.");
  });

  it("pays what the ledger says was paid out, to the cent", async () => {
    expect((await runJob()).status).toBe(200);
    // PayPal's payouts settled by now (other suites may start new ones meanwhile: those on their way are left out).
    const { data: payouts } = await serviceClient
      .from("payouts")
      .select("id, state, amount_cents")
      .eq("method", "paypal")
      .neq("state", "sending");
    const settled = payouts ?? [];
    const { data: entries } = await serviceClient
      .from("ledger_entries")
      .select("amount_cents")
      .in(
        "payout_id",
        settled.map((payout) => payout.id),
      );
    const paidOut = -(entries ?? []).reduce((sum, entry) => sum + entry.amount_cents, 0);
    const sent = await batches();
    const succeeded = new Map(
      sent.flatMap((batch) =>
        batch.items
          .filter((item) => item.transaction_status === "SUCCESS")
          .map(
            (item) =>
              [batch.batch_header.sender_batch_header.sender_batch_id, Math.round(Number(item.payout_item.amount.value) * 100)] as const,
          ),
      ),
    );
    // Each paid payout is a batch PayPal paid, of its amount; a failed one is none; the ledger's paid-out sum is theirs.
    for (const payout of settled) expect(succeeded.get(payout.id)).toBe(payout.state === "paid" ? payout.amount_cents : undefined);
    expect(paidOut).toBe(settled.filter((payout) => payout.state === "paid").reduce((sum, payout) => sum + payout.amount_cents, 0));
    // Each payout went to PayPal once, and PayPal paid nothing the ledger does not know.
    const senderIds = sent.map((batch) => batch.batch_header.sender_batch_header.sender_batch_id);
    expect(new Set(senderIds).size).toBe(senderIds.length);
    const { data: known } = await serviceClient.from("payouts").select("id").eq("method", "paypal");
    const ids = new Set((known ?? []).map((payout) => payout.id));
    expect(senderIds.filter((id) => !ids.has(id))).toEqual([]);
  });
});
