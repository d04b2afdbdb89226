// Buying without JavaScript: the cart (a visitor's cookie joining their account at sign-in), name your
// price, discount codes, and checkout through the Stripe stand-in's payment page, with the return page and
// the webhook each able to land the payment first, once. The Worker's `stripe` client talks to the
// stand-in; these tests pay on its page and send events signed with its webhook secret.
import Stripe from "stripe";
import { inject, describe, expect, it } from "vitest";
import { toneWav } from "../support/media.ts";
import { albumId, inputValue, madeFileState, newArtist, newFan, serviceClient, signedIn, text, trackId, Visitor } from "./support.ts";

const { url: stripeUrl, secretKey, webhookSecret } = inject("stripe");
const api = new URL(stripeUrl);
const stripe = new Stripe(secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });

const fixedPrice = trackId("Salt and Iron"); // 1.49, a fixed price
const payMore = trackId("Mesquite Moon"); // 1.29, fans may pay more
const album = albumId("South Side Sunday"); // three tracks at 1.29, no price of its own

const add = (as: Visitor, kind: "track" | "album", id: string, amount = "") => as.post("/cart", { intent: "add", kind, id, amount });

/** Pays on the stand-in's page with `card`: where it sends the buyer (the return page), or its message. */
async function payOnPage(payUrl: string, card = "4242424242424242") {
  const response = await fetch(payUrl, {
    method: "POST",
    body: new URLSearchParams({ card, expiry: "12/34", cvc: "123", country: "DE" }),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location"), page: await response.text() };
}

async function purchasesOf(userId: string) {
  const { data } = await serviceClient.from("purchases").select("track_id, amount, country").eq("user_id", userId);
  return data ?? [];
}

/** The Stripe-Signature header of `payload` as Stripe would sign it `secondsAgo` seconds ago. */
const signature = (payload: string, secret = webhookSecret, secondsAgo = 0) =>
  stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - secondsAgo });

describe("the cart without JavaScript", () => {
  it("keeps a visitor's items in a cookie, counts them in the header, and joins them to the account they log in to", async () => {
    const visitor = new Visitor();
    const added = await add(visitor, "track", fixedPrice);
    expect(added.response.status).toBe(303);
    expect(added.response.headers.get("location")).toBe("/cart");
    await add(visitor, "album", album);
    const cart = await visitor.get("/cart");
    expect(text(cart.html)).toContain("Salt and Iron");
    expect(text(cart.html)).toContain("South Side Sunday");
    expect(cart.html).toContain('aria-label="Cart, 2 items"');
    // A visitor pays as a guest, or logs in.
    expect(text(cart.html)).toContain("Pay $5.36 as a guest");
    expect(cart.html).toContain('href="/login?redirectTo=%2Fcart"');
    // The page is the visitor's alone.
    expect(cart.response.headers.get("cache-control")).toContain("private");

    const { email, password, id } = await newFan(`cartjoin${Date.now().toString(36)}`);
    const login = await visitor.post("/login", { email, password, redirectTo: "/cart" });
    expect(login.response.headers.get("location")).toBe("/cart");
    expect(visitor.cookies.has("crate-cart")).toBe(false);
    const { data } = await serviceClient.from("cart_lines").select("kind, item_id").eq("user_id", id).order("kind");
    expect(data).toEqual([
      { kind: "album", item_id: album },
      { kind: "track", item_id: fixedPrice },
    ]);
    expect(text((await visitor.get("/cart")).html)).toContain("Pay $5.36");
  });

  it("joins a visitor's cart to the account they sign up for", async () => {
    const visitor = new Visitor();
    await add(visitor, "track", fixedPrice);
    const username = `cartsignup${Date.now().toString(36)}`;
    const { response } = await visitor.post("/register/fan", {
      email: `${username}@example.com`,
      username,
      password: "a-long-password",
      confirmPassword: "a-long-password",
      terms: "on",
    });
    expect(response.status).toBe(302);
    expect(visitor.cookies.has("crate-cart")).toBe(false);
    expect(text((await visitor.get("/cart")).html)).toContain("Salt and Iron");
  });

  it("takes the fan's own price where they may pay more, and says what is wrong beside the item", async () => {
    const { visitor } = await newFan(`cartprice${Date.now().toString(36)}`);
    await add(visitor, "track", payMore, "5.00");
    let page = text((await visitor.get("/cart")).html);
    expect(page).toContain("Pay $5.00");
    expect(page).toContain("receives $4.40");
    // A price under the item's own is refused in its field, as typed, and the cart keeps the one it had.
    const below = await visitor.post("/cart", { intent: "amount", kind: "track", id: payMore, amount: "0.50" });
    expect(below.response.status).toBe(400);
    expect(text(below.html)).toContain("The price is at least $1.29.");
    expect(inputValue(below.html, "amount")).toBe("0.50");
    expect(text((await visitor.get("/cart")).html)).toContain("Pay $5.00");
    await add(visitor, "track", fixedPrice, "3.00");
    page = text((await visitor.get("/cart")).html);
    expect(page).toContain("This has a fixed price of $1.49.");
    expect(page).toContain("Remove or change the items that cannot be bought");
    const typo = await visitor.post("/cart", { intent: "amount", kind: "track", id: payMore, amount: "five" });
    expect(typo.response.status).toBe(400);
    expect(text(typo.html)).toContain("Please enter an amount like 5 or 5.50");
    // Checking out now refuses, and charges nothing.
    const refused = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "on", waiveWithdrawal: "on" });
    expect(refused.response.status).toBe(409);
    expect(text(refused.html)).toContain("Some items cannot be bought as they are");
  });

  it("says beside the waiver's box why Buy now without it brought the fan to the cart", async () => {
    const { visitor } = await newFan(`buynowwaiver${Date.now().toString(36)}`);
    const bought = await visitor.post("/cart", { intent: "buy-now", kind: "track", id: payMore, amount: "" });
    expect(bought.response.status).toBe(303);
    const landing = bought.response.headers.get("location")!;
    expect(new URL(landing, "http://x").pathname).toBe("/cart");
    const { html } = await visitor.get(landing);
    expect(text(html)).toMatch(
      /lose my 14-day right to withdraw from this purchase once the download starts\. Tick this to download at once and pay now, or keep the item in your cart for later\./,
    );
    // the plain cart asks nothing of it
    expect(text((await visitor.get("/cart")).html)).not.toContain("Tick this to download at once");
  });

  it("offers the artist's pricing tiers as prices to choose, where fans may pay more", async () => {
    const { visitor } = await newFan(`carttiers${Date.now().toString(36)}`);
    // The Paper Lanterns' tiers (seed): Standard £0.99, Lossless £1.99, Supporter £4.99; Greenhouse costs £0.99.
    const greenhouse = trackId("Greenhouse");
    await add(visitor, "track", greenhouse);
    const { html } = await visitor.get("/cart");
    // under a heading of their own
    expect(text(html)).toMatch(/The Paper Lanterns's prices Standard £0\.99 .*Lossless £1\.99 .*Supporter £4\.99/);
    expect(html).toMatch(/<h3 id="[^"]+"[^>]*>The Paper Lanterns&#x27;s prices<\/h3>/);
    // each with what the artist says it gives
    expect(text(html)).toMatch(/Supporter £4\.99 Lossless download plus a thank-you in the next liner notes/);
    await visitor.post("/cart", { intent: "amount", kind: "track", id: greenhouse, amount: "4.99" });
    expect(text((await visitor.get("/cart")).html)).toContain("Pay £4.99");
  });

  it("judges discount codes on the server: an artist's code takes its share off their items, others say what they are", async () => {
    const { id: artistId, visitor: artist } = await newArtist("Coded Artist");
    const release = await serviceClient
      .from("tracks")
      .insert({ artist_id: artistId, title: "Coded Song", genre: "Folk", price: 2, description: "x", release_date: "2026-01-01" })
      .select("id")
      .single();
    const discounts = [
      { id: "1", code: "SPRING", percentage: 25, validUntil: null, active: true },
      { id: "2", code: "WINTER", percentage: 50, validUntil: "2020-01-01", active: true },
    ];
    const { data: kept } = await serviceClient.from("store_settings").update({ discounts }).eq("artist_id", artistId).select("artist_id");
    if (!kept?.length) await serviceClient.from("store_settings").insert({ artist_id: artistId, discounts });
    const { visitor } = await newFan(`cartcode${Date.now().toString(36)}`);
    await add(visitor, "track", release.data!.id);
    for (const code of ["spring", "WINTER", "NOPE"]) await visitor.post("/cart", { intent: "code", code });
    const { html } = await visitor.get("/cart");
    const page = text(html);
    expect(page).toContain("spring: applied to Coded Artist's items.");
    expect(page).toContain("WINTER has expired.");
    expect(page).toContain("NOPE is not a discount code for anything in your cart.");
    expect(page).toContain("Code SPRING: −$0.50");
    // the minus sign kept on the amount's line
    expect(html).toContain('<span class="whitespace-nowrap">−$0.50</span>');
    expect(page).toContain("Pay $1.50");
    // The artist cannot buy their own song.
    await add(artist, "track", release.data!.id);
    expect(text((await artist.get("/cart")).html)).toContain("This is your own release.");
  });
});

describe("prices in the artist's currency", () => {
  it("shows an artist's music in their currency on its pages and its embed, and pays each currency in a checkout of its own", async () => {
    const { id: artistId } = await newArtist("Euro Artist");
    const { data: settings } = await serviceClient
      .from("artist_payout_settings")
      .select("payment_settings")
      .eq("artist_id", artistId)
      .single();
    await serviceClient
      .from("artist_payout_settings")
      .update({ payment_settings: { ...(settings!.payment_settings as object), default_currency: "EUR" } })
      .eq("artist_id", artistId);
    const { data: song } = await serviceClient
      .from("tracks")
      .insert({ artist_id: artistId, title: "Euro Song", genre: "Folk", price: 2, description: "x", release_date: "2026-01-01" })
      .select("id")
      .single();
    expect(text((await new Visitor().get(`/track/${song!.id}`)).html)).toContain("Buy Now - €2.00");
    expect(text((await new Visitor().get(`/embed/track/${song!.id}`)).html)).toContain("Buy €2.00");

    const { visitor } = await newFan(`twocurrencies${Date.now().toString(36)}`);
    await add(visitor, "track", song!.id);
    await add(visitor, "track", fixedPrice);
    const page = text((await visitor.get("/cart")).html);
    expect(page).toContain("Your cart holds prices in 2 currencies");
    expect(page).toContain("Pay €2.00");
    expect(page).toContain("Pay $1.49");
    const checkout = await visitor.post("/cart", { intent: "checkout", currency: "EUR", followArtists: "", waiveWithdrawal: "on" });
    const session = await stripe.checkout.sessions.retrieve(new URL(checkout.response.headers.get("location")!).pathname.split("/").pop()!);
    expect(session).toMatchObject({ currency: "eur", amount_total: 200 });
  });
});

describe("paying", () => {
  it("sends the fan to Stripe's page; paid, the return page shows the order and the purchases are there, once", async () => {
    const { visitor, id } = await newFan(`payer${Date.now().toString(36)}`);
    await add(visitor, "album", album);
    // Where the right to withdraw may apply (locally the country is unknown), the fan waives it first.
    const unwaived = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "on" });
    expect(unwaived.response.status).toBe(400);
    expect(text(unwaived.html)).toContain("please confirm that you give up the 14-day right to withdraw");
    const checkout = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "on", waiveWithdrawal: "on" });
    expect(checkout.response.status).toBe(303);
    const payUrl = checkout.response.headers.get("location")!;
    expect(payUrl.startsWith(stripeUrl)).toBe(true);

    const declined = await payOnPage(payUrl, "4000000000000002");
    expect(declined.page).toContain("Your card was declined.");
    expect(await purchasesOf(id)).toEqual([]);

    const paid = await payOnPage(payUrl);
    expect(paid.status).toBe(303);
    const done = await visitor.get(new URL(paid.location!).pathname + new URL(paid.location!).search);
    expect(done.response.status).toBe(200);
    expect(text(done.html)).toContain("Thank you!");
    expect(text(done.html)).toContain("South Side Sunday");
    expect(text(done.html)).toContain("gave up your 14-day right to withdraw");
    // The album's three tracks, its $3.87 shared between them; the webhook arriving too changes nothing.
    await expect
      .poll(async () => (await serviceClient.from("orders").select("state").eq("buyer_id", id).single()).data?.state)
      .toBe("paid");
    const purchases = await purchasesOf(id);
    expect(purchases).toHaveLength(3);
    expect(purchases.reduce((sum, purchase) => sum + Number(purchase.amount), 0)).toBeCloseTo(3.87);
    expect(purchases.every((purchase) => purchase.country === "DE")).toBe(true);
    // Bought, it leaves the cart, and the fan follows the artist (the checkbox was on).
    expect(text((await visitor.get("/cart")).html)).toContain("Your cart is empty");
    const { data: artist } = await serviceClient.from("tracks").select("artist_id").eq("release_id", album).limit(1).single();
    const { count } = await serviceClient
      .from("followers")
      .select("id", { count: "exact", head: true })
      .eq("fan_id", id)
      .eq("artist_id", artist!.artist_id);
    expect(count).toBe(1);

    // A buyer in Germany pays its VAT on top, 19% of $3.87: the receipt says so, the artist's 88% is of the
    // price before tax, and an administrator's refund gives the tax back with the line.
    expect(text(done.html)).toContain("Your order is paid: $4.61.");
    expect(text(done.html)).toMatch(/VAT \(DE\) 19% \$0\.74/);
    const { data: order } = await serviceClient.from("orders").select("id, tax_cents, payment_intent").eq("buyer_id", id).single();
    expect(order!.tax_cents).toBe(74);
    const { data: line } = await serviceClient
      .from("order_lines")
      .select("id, total_cents, tax_cents, tax_rate, tax_name, tax_country, artist_share_cents")
      .eq("order_id", order!.id)
      .single();
    expect(line).toMatchObject({
      total_cents: 387,
      tax_cents: 74,
      tax_rate: 19,
      tax_name: "VAT",
      tax_country: "DE",
      artist_share_cents: 341,
    });
    const admin = await signedIn("admin@example.com", "admin-demo-pass");
    expect(text((await admin.post("/admin", { intent: "refund", lineId: line!.id })).html)).toContain("Refunded");
    const refunds = await stripe.refunds.list({ payment_intent: order!.payment_intent! });
    expect(refunds.data.map((refund) => refund.amount)).toEqual([461]);
    // Administrators file the tax from their report (and its CSV), the refunded line's tax given back.
    expect(text((await admin.get("/admin")).html)).toMatch(/Tax collected .*Germany VAT 19% \$[\d,.]+ \$[\d,.]+ \$[\d,.]+/);
    const csv = await admin.get("/admin/tax.csv?figures=7d");
    expect(csv.response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.html).toMatch(/^country,tax,rate \(%\),currency,sales before tax,tax collected,tax given back,tax owed\r\n/);
    expect(csv.html).toMatch(/\r\nDE,VAT,19,USD,[\d.]+,[\d.]+,[\d.]+,[\d.]+\r\n/);
    expect((await visitor.get("/admin/tax.csv")).response.status).toBe(403);
  });

  it("makes a track's MP3 once its order is paid, never as its checkout opens", async () => {
    const artist = await newArtist(`Paid Files ${Date.now().toString(36)}`);
    const master = `${artist.id}/${crypto.randomUUID()}.wav`;
    const upload = await serviceClient.storage.from("tracks").upload(master, new Blob([toneWav(0.2)], { type: "audio/wav" }));
    expect(upload.error).toBeNull();
    const { data: track, error } = await serviceClient
      .from("tracks")
      .insert({
        artist_id: artist.id,
        title: "Made When Paid",
        genre: "Rock",
        price: 1.29,
        description: "For checkout",
        file_url: master,
        release_date: "2024-05-01",
      })
      .select("id")
      .single();
    expect(error).toBeNull();
    const { visitor } = await newFan(`filepayer${Date.now().toString(36)}`);
    await add(visitor, "track", track!.id);
    const checkout = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "", waiveWithdrawal: "on" });
    expect(checkout.response.status).toBe(303);
    // Opened, not paid: nothing is made (opening checkouts again and again would make files without bound).
    expect(await madeFileState(track!.id, "mp3")).toBeUndefined();
    const paid = await payOnPage(checkout.response.headers.get("location")!);
    await visitor.get(new URL(paid.location!).pathname + new URL(paid.location!).search);
    await expect.poll(() => madeFileState(track!.id, "mp3")).toMatch(/^(preparing|ready)$/);
  });

  it("shows an order to its buyer alone: someone else's session is not found, a visitor logs in", async () => {
    const { visitor } = await newFan(`ownorder${Date.now().toString(36)}`);
    await add(visitor, "track", fixedPrice);
    const checkout = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "", waiveWithdrawal: "on" });
    const sessionId = new URL(checkout.response.headers.get("location")!).pathname.split("/").pop()!;
    const { visitor: stranger } = await newFan(`stranger${Date.now().toString(36)}`);
    expect((await stranger.get(`/checkout/done?session_id=${sessionId}`)).response.status).toBe(404);
    const anonymous = await new Visitor().get(`/checkout/done?session_id=${sessionId}`);
    expect(anonymous.response.headers.get("location")).toContain("/login?redirectTo=");
    // Not paid yet: its buyer is told, and nothing was bought.
    expect(text((await visitor.get(`/checkout/done?session_id=${sessionId}`)).html)).toContain("Not paid");
  });
});

describe("Stripe's webhook", () => {
  async function paidSession() {
    const { visitor, id } = await newFan(`hooked${Date.now().toString(36)}`);
    await add(visitor, "track", fixedPrice);
    const checkout = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "", waiveWithdrawal: "on" });
    const sessionId = new URL(checkout.response.headers.get("location")!).pathname.split("/").pop()!;
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    // A real payment at the stand-in (the webhook asks Stripe what it settled as), named by a forged event.
    const payment = await stripe.paymentIntents.create({
      amount: session.amount_total!,
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: true,
    });
    return { id, session: { ...session, status: "complete", payment_status: "paid", payment_intent: payment.id } };
  }
  const event = (session: object, id = `evt_test_${crypto.randomUUID()}`, version: string = Stripe.API_VERSION) =>
    JSON.stringify({
      id,
      object: "event",
      api_version: version,
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: { object: session },
    });
  const deliver = (payload: string, header: string | null) =>
    fetch(new URL("/webhooks/stripe", inject("appUrl")), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(header ? { "Stripe-Signature": header } : {}) },
      body: payload,
    });

  it("refuses an event unsigned, signed with another secret, or older than five minutes, and buys nothing", async () => {
    const { id, session } = await paidSession();
    const payload = event(session);
    expect((await deliver(payload, null)).status).toBe(400);
    expect((await deliver(payload, signature(payload, "whsec_someone_else"))).status).toBe(400);
    expect((await deliver(payload, signature(payload, webhookSecret, 6 * 60))).status).toBe(400);
    expect((await deliver(payload.replace(session.payment_intent, "pi_test_forged"), signature(payload))).status).toBe(400);
    expect(await purchasesOf(id)).toEqual([]);
  });

  it("refuses an event sent in another API version than the app's, so Stripe sends it again once the endpoint is set right", async () => {
    const { id, session } = await paidSession();
    const older = event(session, `evt_test_${crypto.randomUUID()}`, "2025-01-27.acacia");
    const refused = await deliver(older, signature(older));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(`the marketplace reads ${Stripe.API_VERSION}`);
    expect(await purchasesOf(id)).toEqual([]);
    const pinned = event(session);
    expect((await deliver(pinned, signature(pinned))).status).toBe(200);
    expect(await purchasesOf(id)).toHaveLength(1);
  });

  it("takes twenty copies of one event at once as one purchase", async () => {
    const { id, session } = await paidSession();
    const payload = event(session);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(payload, signature(payload))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(await purchasesOf(id)).toHaveLength(1);
    // Another event for the same session (Stripe's own, or a late one) changes nothing either.
    const again = event(session);
    expect((await deliver(again, signature(again))).status).toBe(200);
    expect(await purchasesOf(id)).toHaveLength(1);
  });

  it("keeps an event it could not apply for administrators, with its reason, and applies it again when asked", async () => {
    const { visitor, id } = await newFan(`unapplied${Date.now().toString(36)}`);
    await add(visitor, "track", fixedPrice);
    const checkout = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "", waiveWithdrawal: "on" });
    // Stripe has trouble answering about payments: the paid session's event is taken, but its settlement
    // cannot be read, so the webhook answers 500 (and the stand-in sends the event again, as Stripe does).
    await fetch(`${stripeUrl}/_failures`, { method: "POST", body: JSON.stringify({ path: "/v1/payment_intents" }) });
    try {
      expect((await payOnPage(checkout.response.headers.get("location")!)).status).toBe(303);
      const admin = await signedIn("admin@example.com", "admin-demo-pass");
      await expect
        .poll(async () => text((await admin.get("/admin")).html), { timeout: 15_000 })
        .toMatch(/Payment events not applied \d+ .*checkout\.session\.completed evt_\w+ .*An unknown error occurred Tried \d+ times?/);
    } finally {
      await fetch(`${stripeUrl}/_failures`, { method: "DELETE" });
    }
    const admin = await signedIn("admin@example.com", "admin-demo-pass");
    const listed = await admin.get("/admin");
    const eventId = inputValue(listed.html, "eventId")!;
    // The order was paid all the same: its event is applied once, whichever delivery lands.
    expect(await purchasesOf(id)).toHaveLength(1);
    // Asked for again, Stripe renders it in the account's older version: what it names is read as it is now.
    const again = await admin.post("/admin", { intent: "apply-event", eventId });
    expect(text(again.html)).toContain("Applied.");
    expect(text(again.html)).toContain(`applied again the payment event checkout.session.completed ${eventId}`);
    // No longer listed to apply again.
    expect(again.html).not.toContain(`value="${eventId}"`);
    expect(await purchasesOf(id)).toHaveLength(1);
    // Nobody else may apply it.
    const fan = await visitor.post("/admin", { intent: "apply-event", eventId });
    expect(fan.response.status).toBe(403);
  });
});
