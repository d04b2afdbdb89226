// Checkout, measured through the marketplace as it runs (workerd, the Stripe stand-in on loopback): how
// long "Buy now" takes to send a fan to the payment page (the order opened by the database from the
// catalog, the Checkout Session created through the `stripe` package, and the order given its id), and
// the JavaScript the cart and the return page load.
import { createClient } from "@supabase/supabase-js";
import { localDefaults } from "@crate/local-supabase";
import type { Marketplace } from "./marketplace.ts";
import { percentile } from "./percentile.ts";

export type CheckoutFigures = { runs: number; startP50: number; startP95: number; paidToOwnedMs: number; returnPath: string };

/** `runs` checkouts of one track the fan does not own, one at a time; then one paid, until its return page shows it owned. */
export async function measureCheckout(marketplace: Marketplace, fan: { id: string; cookie: string }, runs = 20): Promise<CheckoutFigures> {
  const service = createClient(marketplace.supabaseUrl, localDefaults.serviceRoleKey, { auth: { persistSession: false } });
  const { data: owned } = await service.from("purchases").select("track_id").eq("user_id", fan.id);
  const { data: tracks } = await service
    .from("tracks")
    .select("id")
    .lte("release_date", new Date().toISOString().slice(0, 10))
    .not("id", "in", `(${(owned ?? []).map((purchase) => purchase.track_id).join(",") || "00000000-0000-0000-0000-000000000000"})`)
    .limit(1);
  const trackId = tracks?.[0]?.id;
  if (!trackId) throw new Error("the demo fan owns every track: nothing left to buy");
  const buyNow = async () => {
    const started = performance.now();
    const response = await fetch(new URL("/cart", marketplace.appUrl), {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: fan.cookie },
      body: new URLSearchParams({ intent: "buy-now", kind: "track", id: trackId, amount: "", waiveWithdrawal: "on" }),
    });
    await response.body?.cancel();
    const payUrl = response.headers.get("location") ?? "";
    if (response.status !== 303 || !payUrl.startsWith(marketplace.stripe.url))
      throw new Error(`Buy now answered ${response.status} ${payUrl}`);
    return { ms: performance.now() - started, payUrl };
  };
  await buyNow(); // warm
  const times: number[] = [];
  let last = "";
  for (let run = 0; run < runs; run++) {
    const { ms, payUrl } = await buyNow();
    times.push(ms);
    last = payUrl;
  }
  // Paid on the stand-in's page, then the return page: the order paid and the track the fan's.
  const paidAt = performance.now();
  const paid = await fetch(last, {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "GB" }),
  });
  const returnUrl = new URL(paid.headers.get("location") ?? "");
  const done = await fetch(new URL(returnUrl.pathname + returnUrl.search, marketplace.appUrl), { headers: { Cookie: fan.cookie } });
  if (!(await done.text()).includes("Thank you!")) throw new Error(`the return page answered ${done.status} without the order paid`);
  return {
    runs,
    startP50: percentile(times, 50),
    startP95: percentile(times, 95),
    paidToOwnedMs: performance.now() - paidAt,
    returnPath: returnUrl.pathname + returnUrl.search,
  };
}

export function printCheckout(figures: CheckoutFigures, javaScript: Record<string, { total: number; framework: number }>) {
  console.log(
    `\nCheckout (Buy now → the payment page, loopback, ${figures.runs} runs): p50 ${figures.startP50.toFixed(0)} ms, p95 ${figures.startP95.toFixed(0)} ms`,
  );
  console.log(`Paid on the payment page → the return page showing the order paid: ${figures.paidToOwnedMs.toFixed(0)} ms`);
  console.log("| page | JS gz all (≤ 130 KB) | framework | page's own (≤ 25 KB) |\n|---|---|---|---|");
  for (const [path, { total, framework }] of Object.entries(javaScript)) {
    console.log(
      `| \`${path.split("?")[0]}\` | ${(total / 1024).toFixed(1)} KB | ${(framework / 1024).toFixed(1)} KB | ${((total - framework) / 1024).toFixed(1)} KB |`,
    );
  }
}
