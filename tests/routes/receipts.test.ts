// After the payment, without JavaScript: the receipt and "you sold" arrive in the mail stand-in's outbox
// (through the mail queue, even when the provider fails at first), Purchased sends a receipt again, an
// artist or an administrator refunds a sale (Stripe's refund made, the download refused, the buyer mailed),
// and Stripe's news of a dispute reaches the administrators.
import Stripe from "stripe";
import { describe, expect, inject, it } from "vitest";
import { toneWav } from "../support/media.ts";
import { readZip } from "../support/zip.ts";
import { mailProviderFails, mailsTo, newArtist, newFan, serviceClient, signedIn, text, trackId, Visitor } from "./support.ts";

const { url: stripeUrl, secretKey, webhookSecret } = inject("stripe");
const api = new URL(stripeUrl);
const stripe = new Stripe(secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });

// The demo artist's (The Paper Lanterns, who sell in pounds): £0.99.
const greenhouse = trackId("Greenhouse");
const demoArtist = { email: "artist@example.com", password: "artist-demo-pass" };

/** Where the buyer's download of Greenhouse ends: its status, after the download page a refusal leads to. */
async function downloadStatus(buyer: Visitor) {
  const { response } = await buyer.download(`/track/${greenhouse}/download`);
  const location = response.headers.get("location");
  return location ? (await buyer.get(location)).response.status : response.status;
}

/** Pays on the stand-in's page with the test card: where it sends the buyer back (the return page). */
async function pay(payUrl: string) {
  const paid = await fetch(payUrl, {
    method: "POST",
    body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "FR" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const done = new URL(paid.headers.get("location")!);
  return done.pathname + done.search;
}

/** A new fan who bought Greenhouse with the test card: their visitor, id, email, and the order. */
async function paidOrder(name: string) {
  const fan = await newFan(`${name}${Date.now().toString(36)}`);
  await fan.visitor.post("/cart", { intent: "add", kind: "track", id: greenhouse, amount: "" });
  const checkout = await fan.visitor.post("/cart", { intent: "checkout", currency: "GBP", followArtists: "", waiveWithdrawal: "on" });
  expect(checkout.response.status).toBe(303);
  expect((await fan.visitor.get(await pay(checkout.response.headers.get("location")!))).response.status).toBe(200);
  const { data: order } = await serviceClient.from("orders").select("id, order_lines(id)").eq("buyer_id", fan.id).single();
  return { ...fan, orderId: order!.id, lineId: order!.order_lines[0]!.id };
}

const newest = async (email: string, subject: RegExp) => (await mailsTo(email)).find((mail) => subject.test(mail.subject));

describe("mail after a sale", () => {
  it("sends the receipt and 'you sold' through the queue, even when the provider fails at first, and a receipt again on asking", async () => {
    await mailProviderFails(1);
    const { visitor, email, orderId } = await paidOrder("receipted");
    const reference = orderId.slice(0, 8).toUpperCase();
    await expect.poll(() => newest(email, /receipt/), { timeout: 15_000 }).toBeDefined();
    const receipt = (await newest(email, /receipt/))!;
    expect(receipt.subject).toBe(`Your Crate receipt ${reference}`);
    expect(receipt.text).toContain("Greenhouse · The Paper Lanterns: £0.99");
    expect(receipt.text).toContain("artist’s share £0.87");
    expect(receipt.text).toContain(`/track/${greenhouse}/download`);
    expect(receipt.text).toContain("gave up your 14-day right to withdraw");
    await expect.poll(() => newest(demoArtist.email, new RegExp(`^You sold Greenhouse`)), { timeout: 15_000 }).toBeDefined();
    const sold = (await mailsTo(demoArtist.email)).find((mail) => mail.text?.includes(`order ${reference}`));
    expect(sold?.text).toContain("A fan in France bought Greenhouse");
    expect(sold?.text).toContain("Your share: £0.87");

    // Purchased sends it again, once a minute.
    const purchased = await visitor.get("/dashboard/fan/purchased");
    expect(text(purchased.html)).toContain(`Order ${reference}`);
    const again = await visitor.post("/dashboard/fan/purchased", { orderId });
    expect(text(again.html)).toContain("The receipt is on its way to your email.");
    await expect
      .poll(async () => (await mailsTo(email)).filter((mail) => /receipt/.test(mail.subject)).length, { timeout: 15_000 })
      .toBe(2);
    // One more within the minute is one too many.
    const tooSoon = await visitor.post("/dashboard/fan/purchased", { orderId });
    expect(tooSoon.response.status).toBe(429);
    expect(text(tooSoon.html)).toContain("This receipt was just sent twice. Please wait a minute before sending it again.");
    // Nobody else's order.
    const { visitor: stranger } = await newFan(`stranger${Date.now().toString(36)}`);
    expect((await stranger.post("/dashboard/fan/purchased", { orderId })).response.status).toBe(404);
  });
});

describe("refunds", () => {
  it("lets the artist refund their sale: Stripe refunds it, the download is refused and the buyer is mailed", async () => {
    const { visitor: buyer, email, lineId, id } = await paidOrder("refunded");
    expect(await downloadStatus(buyer)).not.toBe(403);

    // Not another fan's, not a visitor's, not another artist's.
    const { visitor: fan } = await newFan(`notartist${Date.now().toString(36)}`);
    expect((await fan.post("/dashboard/artist/payments", { intent: "refund", lineId })).response.status).toBe(403);
    expect(
      (await new Visitor().post("/dashboard/artist/payments", { intent: "refund", lineId })).response.headers.get("location"),
    ).toContain("/login");

    const artist = await signedIn(demoArtist.email, demoArtist.password);
    const sales = await artist.get("/dashboard/artist/payments");
    expect(text(sales.html)).toContain("Refund £0.99 to the buyer");
    const refunded = await artist.post("/dashboard/artist/payments", { intent: "refund", lineId });
    expect(refunded.response.status).toBe(200);
    expect(text(refunded.html)).toContain("Refunded. The buyer is told by email");
    const { data: line } = await serviceClient.from("order_lines").select("refund_id, refunded_at").eq("id", lineId).single();
    expect(line?.refund_id).toMatch(/^re_test_/);
    const { count } = await serviceClient.from("purchases").select("id", { count: "exact", head: true }).eq("user_id", id);
    expect(count).toBe(0);
    expect(await downloadStatus(buyer)).toBe(403);
    await expect.poll(() => newest(email, /^Your refund for Greenhouse/), { timeout: 15_000 }).toBeDefined();
    // Again: nothing more to refund.
    const twice = await artist.post("/dashboard/artist/payments", { intent: "refund", lineId });
    expect(text(twice.html)).toContain("This sale is refunded already.");
  });

  it("records a refund made in Stripe's Dashboard with its refund's id, which the event no longer carries", async () => {
    const { lineId, orderId, id } = await paidOrder("dashboardrefund");
    const { data: order } = await serviceClient.from("orders").select("payment_intent").eq("id", orderId).single();
    // As the Dashboard refunds: at Stripe, not through the marketplace; charge.refunded then says so.
    const made = await stripe.refunds.create({ payment_intent: order!.payment_intent! });
    await expect
      .poll(async () => (await serviceClient.from("order_lines").select("refund_id").eq("id", lineId).single()).data?.refund_id, {
        timeout: 15_000,
      })
      .toBe(made.id);
    const { count } = await serviceClient.from("purchases").select("id", { count: "exact", head: true }).eq("user_id", id);
    expect(count).toBe(0);
  });

  it("lets an administrator refund any sale, and shows the disputes Stripe reports", async () => {
    const { lineId, orderId } = await paidOrder("disputed");
    const admin = await signedIn("admin@example.com", "admin-demo-pass");
    const { data: order } = await serviceClient.from("orders").select("payment_intent").eq("id", orderId).single();
    const payload = JSON.stringify({
      id: `evt_test_${crypto.randomUUID()}`,
      object: "event",
      api_version: Stripe.API_VERSION,
      type: "charge.dispute.created",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: `dp_test_${orderId.slice(0, 8)}`,
          object: "dispute",
          amount: 99,
          currency: "gbp",
          reason: "product_not_received",
          status: "needs_response",
          payment_intent: order!.payment_intent,
        },
      },
    });
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const delivered = await fetch(new URL("/webhooks/stripe", inject("appUrl")), {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": header },
      body: payload,
    });
    expect(delivered.status).toBe(200);
    const dashboard = text((await admin.get("/admin")).html);
    expect(dashboard).toContain(`£0.99 on order ${orderId.slice(0, 8).toUpperCase()}: product not received`);
    const refunded = await admin.post("/admin", { intent: "refund", lineId });
    expect(text(refunded.html)).toContain("Refunded.");
  });
});

describe("guests", () => {
  it("buy an album with an email alone, download it from the receipt link in a fresh browser, and add it to the account with that email", async () => {
    // A new artist's album of two tracks with masters, $1.00 each.
    const artist = await newArtist(`Guest Band ${Date.now().toString(36)}`);
    const { data: album } = await serviceClient
      .from("releases")
      .insert({ artist_id: artist.id, kind: "album", title: "Open Door" })
      .select("id")
      .single();
    for (const [index, title] of ["Knock", "Come In"].entries()) {
      const path = `${artist.id}/${crypto.randomUUID()}.wav`;
      expect((await serviceClient.storage.from("tracks").upload(path, new Blob([toneWav(0.2)], { type: "audio/wav" }))).error).toBeNull();
      const { error } = await serviceClient.from("tracks").insert({
        artist_id: artist.id,
        release_id: album!.id,
        title,
        track_number: index + 1,
        genre: "Rock",
        price: 1,
        description: "For the guest",
        file_url: path,
      });
      expect(error).toBeNull();
    }

    const visitor = new Visitor();
    await visitor.post("/cart", { intent: "add", kind: "album", id: album!.id, amount: "" });
    const cart = text((await visitor.get("/cart")).html);
    expect(cart).toContain("Pay $2.00 as a guest");
    const noEmail = await visitor.post("/cart", { intent: "checkout", currency: "USD", email: "not-an-address", waiveWithdrawal: "on" });
    expect(noEmail.response.status).toBe(400);
    expect(text(noEmail.html)).toContain("Please enter a valid email address");
    expect(noEmail.html).toContain('value="not-an-address"');
    const email = `guest-${Date.now().toString(36)}@example.com`;
    const checkout = await visitor.post("/cart", { intent: "checkout", currency: "USD", email, waiveWithdrawal: "on" });
    expect(checkout.response.status).toBe(303);
    const back = await visitor.get(await pay(checkout.response.headers.get("location")!));
    expect(back.response.status).toBe(303);
    const receiptLink = back.response.headers.get("location")!;
    expect(receiptLink).toMatch(/^\/receipt\//);
    // Bought, it leaves the visitor's cart.
    expect(text((await visitor.get("/cart")).html)).toContain("Your cart is empty");

    // Any browser: the page and the zip.
    const fresh = new Visitor();
    const pass = decodeURIComponent(receiptLink.split("/").pop()!);
    const page = await fresh.get(`/receipt/${encodeURIComponent(pass)}`);
    expect(page.response.status).toBe(200);
    // the link holder's alone: no cache keeps it
    expect(page.response.headers.get("cache-control")).toBe("private, no-store");
    expect(text(page.html)).toContain("Open Door");
    const zip = await fresh.download(`/album/${album!.id}/download?receipt=${encodeURIComponent(pass)}`);
    expect(zip.response.status).toBe(200);
    expect(readZip(zip.bytes).map((file) => file.name)).toHaveLength(2);
    // The made formats too, as an account's Purchased offers them: the page that prepares them keeps the link.
    expect(text(page.html)).toContain("Download (zip) As uploaded MP3 FLAC");
    const mp3 = await fresh.download(`/album/${album!.id}/download?format=mp3&receipt=${encodeURIComponent(pass)}`);
    expect(mp3.response.status).toBe(303);
    const preparing = mp3.response.headers.get("location")!;
    expect(preparing).toContain(`receipt=${encodeURIComponent(pass)}`);
    const preparingPage = await fresh.get(preparing);
    expect(preparingPage.response.status).toBe(200);
    expect(text(preparingPage.html)).toContain("Preparing your download");
    expect(preparingPage.html).toContain(`href="/receipt/${pass}"`);
    // A link with another signature is nobody's; and it downloads nothing else.
    const altered = await fresh.get(`${receiptLink.slice(0, -2)}xx`);
    expect(altered.response.status).toBe(410);
    expect(altered.response.headers.get("cache-control")).toBe("private, no-store");
    // it says what is wrong and where the purchases are, with no "Reload page"
    expect(text(altered.html)).toContain("This receipt link is invalid or expired Receipt links hold 30 days after the payment.");
    expect(altered.html).toMatch(/<a[^>]*href="\/login\?redirectTo=%2Fdashboard%2Ffan%2Fpurchased"[^>]*>Log in<\/a>/);
    expect(text(altered.html)).not.toContain("Reload page");
    const elsewhere = await fresh.download(`/track/${greenhouse}/download?receipt=${encodeURIComponent(pass)}`);
    expect(elsewhere.response.status).toBe(303);
    expect((await fresh.get(elsewhere.response.headers.get("location")!)).response.status).toBe(403);
    // The receipt mail carries the same kind of link, marked as the mailed one.
    await expect.poll(() => newest(email, /receipt/), { timeout: 15_000 }).toBeDefined();
    const mailedLink = /\/receipt\/([0-9a-f-]{36}\.\d+\.m\.[\w-]{43})/.exec((await newest(email, /receipt/))!.text ?? "");
    expect(mailedLink).not.toBeNull();
    const mailedPass = mailedLink![1]!;
    // An artist who learnt the order's id (their sale) makes no receipt link of it.
    const { data: guestOrder } = await serviceClient.from("orders").select("id").eq("buyer_email", email).single();
    const madeUp = await new Visitor().get(`/checkout/done?session_id=free_${guestOrder!.id}`);
    expect(madeUp.response.headers.get("location")).toMatch(/^\/login\?/);

    // An account with that email takes the order through the mailed receipt link alone (signing up alone
    // proves no mailbox: sign-ups are not confirmed by mail; the return page's link proves only the browser
    // that paid); an account with another email cannot.
    const joined = new Visitor();
    const username = `guest${Date.now().toString(36)}`;
    const signUp = await joined.post("/register/fan", {
      email,
      username,
      password: "a-long-password",
      confirmPassword: "a-long-password",
      terms: "on",
    });
    expect(signUp.response.status).toBe(302);
    const { data: fan } = await serviceClient.from("fan_profiles").select("id").eq("username", username).single();
    const owned = async () =>
      (await serviceClient.from("purchases").select("id", { count: "exact", head: true }).eq("user_id", fan!.id)).count;
    expect(await owned()).toBe(0);
    const { visitor: other } = await newFan(`notguest${Date.now().toString(36)}`);
    const refused = await other.post(`/receipt/${mailedPass}`, {});
    expect(refused.response.status).toBe(409);
    expect(text(refused.html)).toContain("This order was bought with another email address");
    const returned = text((await joined.get(`/receipt/${pass}`)).html);
    expect(returned).not.toContain("Add to my account");
    expect(returned).toContain("open the link in your receipt email");
    const notMailed = await joined.post(`/receipt/${pass}`, {});
    expect(notMailed.response.status).toBe(403);
    expect(await owned()).toBe(0);
    expect(text((await joined.get(`/receipt/${mailedPass}`)).html)).toContain("Add to my account");
    const added = await joined.post(`/receipt/${mailedPass}`, {});
    expect(added.response.status).toBe(303);
    expect(added.response.headers.get("location")).toBe("/dashboard/fan/purchased");
    expect(await owned()).toBe(2);
    expect(text((await joined.get("/dashboard/fan/purchased")).html)).toContain("Open Door");
  });

  it("get a free order's receipt link by the checkout they came back with, and nobody by its order's id", async () => {
    // A new artist's track and their store's code that takes all of it off.
    const artist = await newArtist(`Free Band ${Date.now().toString(36)}`);
    const { data: track } = await serviceClient
      .from("tracks")
      .insert({ artist_id: artist.id, title: "On the House", genre: "Folk", price: 1, description: "x", release_date: "2026-01-01" })
      .select("id")
      .single();
    const discounts = [{ id: "1", code: "GIFT", percentage: 100, validUntil: null, active: true }];
    const { data: kept } = await serviceClient.from("store_settings").update({ discounts }).eq("artist_id", artist.id).select("artist_id");
    if (!kept?.length) await serviceClient.from("store_settings").insert({ artist_id: artist.id, discounts });

    const guest = new Visitor();
    await guest.post("/cart", { intent: "add", kind: "track", id: track!.id, amount: "" });
    await guest.post("/cart", { intent: "code", code: "GIFT" });
    const email = `free-guest-${Date.now().toString(36)}@example.com`;
    const checkout = await guest.post("/cart", { intent: "checkout", currency: "USD", email, waiveWithdrawal: "on" });
    expect(checkout.response.status).toBe(303);
    const done = new URL(checkout.response.headers.get("location")!);
    const { data: order } = await serviceClient.from("orders").select("id, checkout_session, state").eq("buyer_email", email).single();
    expect(order!.state).toBe("paid");
    // The checkout is its own random id, not the order's.
    expect(done.searchParams.get("session_id")).toBe(order!.checkout_session);
    expect(order!.checkout_session).not.toContain(order!.id);
    const back = await guest.get(done.pathname + done.search);
    expect(back.response.status).toBe(303);
    expect(back.response.headers.get("location")).toMatch(/^\/receipt\//);
    // The artist of its line knows the order's id (sold to them): it leads to no receipt.
    const guessed = await artist.visitor.get(`/checkout/done?session_id=free_${order!.id}`);
    expect(guessed.response.status).toBe(404);
    expect(guessed.response.headers.get("location")).toBeNull();
  });
});
