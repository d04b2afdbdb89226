// Checkout, measured through the marketplace as it runs (workerd, the Stripe stand-in on loopback): how
// long "Buy now" takes to send a fan to the payment page (the order opened by the database from the
// catalog, the Checkout Session created through the `stripe` package, and the order given its id), and
// the JavaScript the cart and the return page load; and, for a four-minute WAV bought at once, how long
// after the payment lands its MP3 is ready to download (asked for as the checkout opened, so the media
// queue makes it while the buyer types their card).
import { createClient } from "@supabase/supabase-js";
import { localDefaults } from "@crate/local-supabase";
import type { Marketplace } from "./marketplace.ts";
import { percentile } from "./percentile.ts";
import { wav } from "./bench-downloads.ts";

export type CheckoutFigures = {
  runs: number;
  startP50: number;
  startP95: number;
  paidToOwnedMs: number;
  returnPath: string;
  /** From paying for a four-minute WAV to its MP3's download answering with the file. */
  paidToMp3Ms: number;
};

/** `runs` checkouts of one track the fan does not own, one at a time; then one paid, until its return page shows it owned. */
export async function measureCheckout(
  marketplace: Marketplace,
  fan: { id: string; cookie: string },
  artistId: string,
  runs = 20,
): Promise<CheckoutFigures> {
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
  const buyNow = async (id = trackId) => {
    const started = performance.now();
    const response = await fetch(new URL("/cart", marketplace.appUrl), {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: fan.cookie },
      body: new URLSearchParams({ intent: "buy-now", kind: "track", id, amount: "", waiveWithdrawal: "on" }),
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
  const pay = (payUrl: string) =>
    fetch(payUrl, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "GB" }),
    });
  // Paid on the stand-in's page, then the return page: the order paid and the track the fan's.
  const paidAt = performance.now();
  const paid = await pay(last);
  const returnUrl = new URL(paid.headers.get("location") ?? "");
  const done = await fetch(new URL(returnUrl.pathname + returnUrl.search, marketplace.appUrl), { headers: { Cookie: fan.cookie } });
  if (!(await done.text()).includes("Thank you!")) throw new Error(`the return page answered ${done.status} without the order paid`);
  const paidToOwnedMs = performance.now() - paidAt;

  // A four-minute WAV of the demo artist's, bought at once; its MP3 asked for every quarter second once paid.
  const path = `${artistId}/bench-${crypto.randomUUID()}.wav`;
  const stored = await service.storage.from("tracks").upload(path, new Blob([wav(240)], { type: "audio/wav" }));
  if (stored.error) throw new Error(`Storing the bench master failed: ${stored.error.message}`);
  const { data: four, error } = await service
    .from("tracks")
    .insert({
      artist_id: artistId,
      genre: "Rock",
      price: 1.29,
      description: "Checkout bench",
      title: `Checkout bench ${Date.now()}`,
      file_url: path,
    })
    .select("id")
    .single();
  if (error) throw new Error(`Making the bench track failed: ${error.message}`);
  const { payUrl } = await buyNow(four.id);
  const landed = performance.now();
  await (await pay(payUrl)).body?.cancel();
  for (;;) {
    const file = await fetch(new URL(`/track/${four.id}/download?format=mp3`, marketplace.appUrl), {
      redirect: "manual",
      headers: { Cookie: fan.cookie },
    });
    await file.body?.cancel();
    if (file.status === 200) break;
    if (file.status !== 303) throw new Error(`The MP3's download answered ${file.status}`);
    if (performance.now() - landed > 120_000) throw new Error("The MP3 was not ready within two minutes of the payment");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  times.sort((a, b) => a - b);
  return {
    runs,
    startP50: percentile(times, 50),
    startP95: percentile(times, 95),
    paidToOwnedMs,
    returnPath: returnUrl.pathname + returnUrl.search,
    paidToMp3Ms: performance.now() - landed,
  };
}

export function printCheckout(figures: CheckoutFigures, javaScript: Record<string, { total: number; framework: number }>) {
  console.log(
    `\nCheckout (Buy now → the payment page, loopback, ${figures.runs} runs): p50 ${figures.startP50.toFixed(0)} ms, p95 ${figures.startP95.toFixed(0)} ms`,
  );
  console.log(`Paid on the payment page → the return page showing the order paid: ${figures.paidToOwnedMs.toFixed(0)} ms`);
  console.log(
    `Paid for a four-minute WAV → its MP3 320 downloads (made from when the checkout opened): ${figures.paidToMp3Ms.toFixed(0)} ms`,
  );
  console.log("| page | JS gz all (≤ 130 KB) | framework | page's own (≤ 25 KB) |\n|---|---|---|---|");
  for (const [path, { total, framework }] of Object.entries(javaScript)) {
    console.log(
      `| \`${path.split("?")[0]}\` | ${(total / 1024).toFixed(1)} KB | ${(framework / 1024).toFixed(1)} KB | ${((total - framework) / 1024).toFixed(1)} KB |`,
    );
  }
}
