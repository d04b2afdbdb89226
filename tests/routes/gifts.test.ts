// Gifts without JavaScript: bought from the purchase dialog's form and the cart's checkout (each field's
// message beside it, as typed; merch and guests refused), paid on the Stripe stand-in's page, the receipt
// saying for whom; the recipient mailed a signed claim link on the send date (at once for today, by the
// hourly job once however many runs at once); the link's page signing up (or in) and coming back to claim;
// a gift already owned staying unclaimed, given to another address, sent again and refunded by its giver
// from Purchased; a claimed gift not refunded by its giver.
import { describe, expect, it } from "vitest";
import { appUrl, marketplaceHeaders, mailsTo, newFan, serviceClient, text, trackId, Visitor } from "./support.ts";

const fixedPrice = trackId("Salt and Iron"); // 1.49, a fixed price
const today = () => new Date().toISOString().slice(0, 10);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** Pays on the stand-in's page, then lands on the return page as the browser would. */
async function pay(buyer: Visitor, payUrl: string) {
  const response = await fetch(payUrl, {
    method: "POST",
    body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "DE" }),
    redirect: "manual",
  });
  expect(response.status).toBe(303);
  const done = new URL(response.headers.get("location")!);
  return buyer.get(done.pathname + done.search);
}

/** The claim link's path in the newest gift mail to `email`, once the queue delivered `count` of them. */
async function claimPath(email: string, count = 1) {
  const gifts = async () => (await mailsTo(email)).filter((message) => /sent you a gift on Crate/.test(message.subject));
  await expect.poll(async () => (await gifts()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  const link = (await gifts())[0]!.text?.match(/Claim your gift[^:]*: (\S+)/)?.[1];
  if (!link) throw new Error(`no claim link in the mail to ${email}`);
  const pass = new URL(link).pathname.replace(/^\/gift\//, "");
  return `/gift/${pass}`;
}

async function purchasesOf(userId: string, track = fixedPrice) {
  const { data } = await serviceClient.from("purchases").select("track_id").eq("user_id", userId).eq("track_id", track);
  return data ?? [];
}

const stamp = () => Date.now().toString(36);

describe("gifts without JavaScript", () => {
  it("buys a gift from the dialog's form, mails its claim link, and the recipient signs up from it and claims it", async () => {
    const giver = await newFan(`giver${stamp()}`);
    const recipientEmail = `friend-${stamp()}@example.com`;

    // Each field's message beside it, as typed; the item waits in the cart, whose checkout asks again.
    const refused = await giver.visitor.post("/cart", {
      intent: "gift",
      kind: "track",
      id: fixedPrice,
      recipientEmail: "not an address",
      giftMessage: "Happy birthday",
      sendOn: inDays(40),
    });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Please enter the recipient’s email address");
    expect(text(refused.html)).toContain("Please choose today or a day up to 30 days ahead");
    expect(refused.html).toContain('value="not an address"');
    expect(refused.html).toContain("Happy birthday");

    const started = await giver.visitor.post("/cart", {
      intent: "gift",
      kind: "track",
      id: fixedPrice,
      recipientEmail,
      giftMessage: "Happy birthday <3",
      sendOn: today(),
    });
    expect(started.response.status).toBe(303);
    const done = await pay(giver.visitor, started.response.headers.get("location")!);
    expect(done.response.status).toBe(200);
    expect(text(done.html)).toContain(`a gift for ${recipientEmail}`);
    expect(text(done.html)).not.toContain("yours to play and download now");

    // The giver gets the receipt, saying for whom, and not the track.
    await expect
      .poll(async () => (await mailsTo(giver.email)).find((message) => message.subject.startsWith("Your Crate receipt"))?.text ?? "", {
        timeout: 15_000,
      })
      .toContain(`a gift for ${recipientEmail}`);
    expect(await purchasesOf(giver.id)).toEqual([]);
    const purchased = await giver.visitor.get("/dashboard/fan/purchased");
    expect(text(purchased.html)).toContain(`Salt and Iron · for ${recipientEmail}`);
    expect(text(purchased.html)).toContain("Not claimed yet");

    // The recipient's mail: the message and the link; a visitor is asked to sign up or log in.
    const path = await claimPath(recipientEmail);
    const mail = (await mailsTo(recipientEmail))[0]!;
    expect(mail.html).toContain("Happy birthday &lt;3");
    const visitor = new Visitor();
    const page = await visitor.get(path);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("cache-control")).toContain("no-store");
    expect(text(page.html)).toContain("gave you Salt and Iron");
    expect(page.html).toContain(`href="/register/fan?redirectTo=${encodeURIComponent(path)}"`);
    expect(page.html).toContain(`href="/login?redirectTo=${encodeURIComponent(path)}"`);
    // Claiming signed out goes to log in first, and back.
    const signedOut = await visitor.post(path, {});
    expect(signedOut.response.headers.get("location")).toBe(`/login?${new URLSearchParams({ redirectTo: path })}`);
    // A link altered by one character is none of ours.
    expect((await visitor.get(`${path.slice(0, -1)}${path.endsWith("A") ? "B" : "A"}`)).response.status).toBe(404);

    // The giver cannot claim their own gift.
    const own = await giver.visitor.post(path, {});
    expect(own.response.status).toBe(409);
    expect(text(own.html)).toContain("This is a gift you gave");

    const signUp = await visitor.post(`/register/fan?${new URLSearchParams({ redirectTo: path })}`, {
      email: recipientEmail,
      username: `friend${stamp()}`,
      password: "a-long-password",
      confirmPassword: "a-long-password",
      terms: "on",
    });
    expect(signUp.response.headers.get("location")).toBe(path);
    const claimed = await visitor.post(path, {});
    expect(claimed.response.status).toBe(303);
    const after = await visitor.get(path);
    expect(text(after.html)).toContain("It is yours");
    const { data: recipient } = await serviceClient.from("gifts").select("claimed_by").eq("recipient_email", recipientEmail).single();
    expect(await purchasesOf(recipient!.claimed_by!)).toHaveLength(1);

    // Nobody else claims it with the link after; the giver sees it claimed and cannot refund it.
    const other = await newFan(`other${stamp()}`);
    const taken = await other.visitor.post(path, {});
    expect(text(taken.html)).toContain("This gift was claimed already.");
    const giverPage = await giver.visitor.get("/dashboard/fan/purchased");
    expect(text(giverPage.html)).toContain("Claimed");
    const { data: line } = await serviceClient.from("gifts").select("order_line_id").eq("recipient_email", recipientEmail).single();
    const refund = await giver.visitor.post("/dashboard/fan/purchased", { intent: "refund-gift", lineId: line!.order_line_id });
    expect(refund.response.status).toBe(409);
    expect(text(refund.html)).toContain("A claimed gift is its recipient’s");
  });

  it("gives from the cart; a gift already owned stays unclaimed, goes to another address, is sent again and refunded", async () => {
    const owner = await newFan(`owner${stamp()}`);
    await owner.visitor.post("/cart", { intent: "add", kind: "track", id: fixedPrice });
    const bought = await owner.visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "", waiveWithdrawal: "on" });
    await pay(owner.visitor, bought.response.headers.get("location")!);
    await expect.poll(async () => (await purchasesOf(owner.id)).length, { timeout: 15_000 }).toBe(1);

    const giver = await newFan(`cartgiver${stamp()}`);
    await giver.visitor.post("/cart", { intent: "add", kind: "track", id: fixedPrice });
    const cart = await giver.visitor.get("/cart");
    expect(text(cart.html)).toContain("Buy as a gift");
    // Its fields' messages as typed, then paid.
    const refused = await giver.visitor.post("/cart", {
      intent: "checkout",
      currency: "USD",
      gift: "on",
      recipientEmail: "",
      giftMessage: "x".repeat(501),
      sendOn: today(),
    });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Please enter the recipient’s email address");
    expect(text(refused.html)).toContain("A message is at most 500 characters");
    const started = await giver.visitor.post("/cart", {
      intent: "checkout",
      currency: "USD",
      gift: "on",
      recipientEmail: owner.email,
      giftMessage: "",
      sendOn: today(),
    });
    expect(started.response.status).toBe(303);
    await pay(giver.visitor, started.response.headers.get("location")!);

    // The owner is told they own it; it stays unclaimed.
    const path = await claimPath(owner.email);
    const owned = await owner.visitor.post(path, {});
    expect(owned.response.status).toBe(409);
    expect(text(owned.html)).toContain("You own this already");
    const { data: gift } = await serviceClient
      .from("gifts")
      .select("id, order_line_id, claimed_at")
      .eq("recipient_email", owner.email)
      .single();
    expect(gift!.claimed_at).toBeNull();

    // Given to another address: mailed there, and the first link claims nothing.
    const bad = await giver.visitor.post("/dashboard/fan/purchased", {
      intent: "gift-recipient",
      giftId: gift!.id,
      recipientEmail: "nope",
    });
    expect(bad.response.status).toBe(400);
    expect(text(bad.html)).toContain("Please enter the recipient’s email address");
    expect(bad.html).toContain('value="nope"');
    const newAddress = `second-${stamp()}@example.com`;
    const moved = await giver.visitor.post("/dashboard/fan/purchased", {
      intent: "gift-recipient",
      giftId: gift!.id,
      recipientEmail: newAddress,
    });
    expect(moved.response.status).toBe(200);
    expect(text(moved.html)).toContain("The gift is given to the new address");
    const newPath = await claimPath(newAddress);
    expect(newPath).not.toBe(path);
    const stale = await owner.visitor.get(path);
    expect(text(stale.html)).toContain("no longer on offer");

    // Sent again: one more mail to the new address.
    const again = await giver.visitor.post("/dashboard/fan/purchased", { intent: "send-gift-again", giftId: gift!.id });
    expect(again.response.status).toBe(200);
    await claimPath(newAddress, 2);

    // Refunded while unclaimed: the line refunded, and the link claims nothing.
    const refund = await giver.visitor.post("/dashboard/fan/purchased", { intent: "refund-gift", lineId: gift!.order_line_id });
    expect(refund.response.status).toBe(200);
    expect(text(refund.html)).toContain("The gift is refunded");
    const { data: line } = await serviceClient.from("order_lines").select("refunded_at").eq("id", gift!.order_line_id).single();
    expect(line!.refunded_at).not.toBeNull();
    expect(text((await giver.visitor.get("/dashboard/fan/purchased")).html)).toContain("Refunded");
    const someone = await newFan(`someone${stamp()}`);
    expect(text((await someone.visitor.get(newPath)).html)).toContain("no longer on offer");
  });

  it("refuses merch as a gift and asks a visitor to log in", async () => {
    const visitor = new Visitor();
    const guest = await visitor.post("/cart", {
      intent: "gift",
      kind: "track",
      id: fixedPrice,
      recipientEmail: "a@example.com",
      sendOn: today(),
    });
    expect(guest.response.status).toBe(401);
    expect(text(guest.html)).toContain("Log in to buy a gift");
    const { data: merch } = await serviceClient.from("merch").select("id").limit(1).single();
    const fan = await newFan(`merchgiver${stamp()}`);
    const refused = await fan.visitor.post("/cart", {
      intent: "gift",
      kind: "merch",
      id: merch!.id,
      recipientEmail: "a@example.com",
      sendOn: today(),
    });
    expect(refused.response.status).toBe(409);
    expect(text(refused.html)).toContain("Merch cannot be given as a gift");
  });

  it("mails a gift dated ahead on its day, once, however many hourly runs go at once", async () => {
    const giver = await newFan(`latergiver${stamp()}`);
    const recipientEmail = `later-${stamp()}@example.com`;
    const started = await giver.visitor.post("/cart", {
      intent: "gift",
      kind: "track",
      id: fixedPrice,
      recipientEmail,
      sendOn: inDays(3),
    });
    await pay(giver.visitor, started.response.headers.get("location")!);
    const runJob = () => fetch(new URL("/announcements", appUrl), { method: "POST", headers: marketplaceHeaders() });
    expect((await runJob()).status).toBe(200);
    expect(await mailsTo(recipientEmail)).toEqual([]);
    // Its day comes.
    await serviceClient.from("gifts").update({ send_on: today() }).eq("recipient_email", recipientEmail);
    const runs = await Promise.all([runJob(), runJob()]);
    expect(runs.map((run) => run.status)).toEqual([200, 200]);
    await claimPath(recipientEmail);
    // Nothing more arrives.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await mailsTo(recipientEmail)).toHaveLength(1);
  });
});
