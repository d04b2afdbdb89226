// Merch without JavaScript: the cart asks where it ships and prices its shipping and quantity, the payment
// takes an address in that country alone, and the artist is told where to send it; fifty fans at once for
// the last five buy exactly five, the rest told before paying, and a code's last use goes to one of two;
// coming back from the payment page lets go of what it held (for its own buyer alone, and says nothing was
// paid); a buyer's new checkout ends their earlier one; merch paid after its hold lapsed and the stock went
// elsewhere is refunded at once; an artist alone counts their stock again and marks their merch shipped,
// which tells the buyer.
import { inject, describe, expect, it } from "vitest";
import Stripe from "stripe";
import { mailsTo, newArtist, newFan, serviceClient, text, Visitor } from "./support.ts";

const { url: stripeUrl, secretKey } = inject("stripe");
const api = new URL(stripeUrl);
const stripe = new Stripe(secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });

/** A merch item of `artistId`'s: 15.00, shipped from Britain (3.00 there, 8.00 elsewhere), with `stock`. */
async function newMerch(artistId: string, stock: number | null) {
  const { data, error } = await serviceClient
    .from("merch")
    .insert({
      artist_id: artistId,
      title: "Lantern tee",
      price: 15,
      description: "Organic cotton",
      stock,
      ships_from: "GB",
      shipping_home: 3,
      shipping_elsewhere: 8,
    })
    .select("id")
    .single();
  if (error) throw error;
  return data.id;
}

const address = { shipping_name: "Ada Fan", shipping_line1: "Hauptstraße 1", shipping_city: "Berlin", shipping_postal_code: "10115" };

/** Pays on the stand-in's page with a card that pays, and the shipping address typed there. */
async function payOnPage(payUrl: string, shipping: Record<string, string>) {
  const response = await fetch(payUrl, {
    method: "POST",
    body: new URLSearchParams({
      card: "4242424242424242",
      expiry: "12/34",
      cvc: "123",
      country: "DE",
      email: "guest@example.com",
      ...shipping,
    }),
    redirect: "manual",
  });
  return { status: response.status, location: response.headers.get("location"), page: await response.text() };
}

/** A guest with `quantity` of the item in their cart, shipping to Germany. */
async function guestWith(merchId: string, quantity = 1) {
  const guest = new Visitor();
  await guest.post("/cart", { intent: "add", kind: "merch", id: merchId, quantity: String(quantity) });
  await guest.post("/cart", { intent: "ship-to", shipTo: "DE" });
  return guest;
}

const payAsGuest = (guest: Visitor, n: number) =>
  guest.post("/cart", { intent: "checkout", currency: "USD", email: `merch-guest-${n}-${Date.now().toString(36)}@example.com` });

describe("merch without JavaScript", () => {
  it("asks where it ships, prices shipping and quantity, takes the address there alone, and tells the artist where to send it", async () => {
    const artist = await newArtist("Tee Printers");
    const merchId = await newMerch(artist.id, 3);
    const { visitor: fan, id: fanId, email: fanEmail } = await newFan(`teebuyer${Date.now().toString(36)}`);
    expect((await fan.post("/cart", { intent: "add", kind: "merch", id: merchId, quantity: "2" })).response.status).toBe(303);
    const unshipped = text((await fan.get("/cart")).html);
    expect(unshipped).toContain("Choose the country it ships to.");
    // nothing is wrong but where it goes: no shipping figure yet, and no word of what cannot be bought
    expect(unshipped).toContain("Choose where your merch ships, above, then pay.");
    expect(unshipped).not.toContain("cannot be bought");
    expect(unshipped).not.toMatch(/Shipping:? \$/);
    expect(unshipped).toContain("$30.00");

    const refused = await fan.post("/cart", { intent: "ship-to", shipTo: "XX" });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Please choose a country");
    const tooMany = await fan.post("/cart", { intent: "amount", kind: "merch", id: merchId, quantity: "11" });
    expect(text(tooMany.html)).toContain("Please choose from 1 to 10");

    await fan.post("/cart", { intent: "ship-to", shipTo: "DE" });
    const cart = text((await fan.get("/cart")).html);
    expect(cart).toContain("Shipping: $16.00");
    expect(cart).toContain("Pay $46.00");
    // Merch needs no waiver of the right to withdraw: that is for downloads.
    const checkout = await fan.post("/cart", { intent: "checkout", currency: "USD", followArtists: "on" });
    expect(checkout.response.status).toBe(303);
    const payUrl = checkout.response.headers.get("location")!;
    const session = await stripe.checkout.sessions.retrieve(new URL(payUrl).pathname.split("/").pop()!);
    expect(session.shipping_address_collection?.allowed_countries).toEqual(["DE"]);
    expect(session.amount_total).toBe(4600);

    expect((await payOnPage(payUrl, {})).page).toContain("Your shipping address is incomplete.");
    expect((await payOnPage(payUrl, { ...address, shipping_country: "FR" })).page).toContain("We cannot ship to this country.");
    const paid = await payOnPage(payUrl, { ...address, shipping_country: "DE" });
    expect(paid.status).toBe(303);
    const done = text((await fan.get(new URL(paid.location!).pathname + new URL(paid.location!).search)).html);
    expect(done).toContain("The merch ships to the address you gave in Germany");
    const { data: order } = await serviceClient
      .from("orders")
      .select("state, ship_to, shipping_address, order_lines(quantity, shipping_cents, total_cents, artist_share_cents)")
      .eq("buyer_id", fanId)
      .single();
    expect(order).toMatchObject({
      state: "paid",
      ship_to: "DE",
      shipping_address: { name: "Ada Fan", city: "Berlin", country: "DE" },
      order_lines: [{ quantity: 2, shipping_cents: 1600, total_cents: 4600, artist_share_cents: 2760 + 1600 }],
    });
    expect(text((await new Visitor().get(`/artist/${artist.id}`)).html)).toContain("1 left");
    await expect
      .poll(async () => (await mailsTo(artist.email)).map((mail) => mail.text ?? "").join("\n"), { timeout: 15_000 })
      .toContain("Please send the merch to:\nAda Fan\nHauptstraße 1\n10115 Berlin\nGermany");

    // Payment Settings lists the sale, filtered to the item or not, and as CSV; nobody else's export holds it.
    const payments = "/dashboard/artist/payments";
    expect(text((await artist.visitor.get(`${payments}?item=${merchId}`)).html)).toContain("Lantern tee");
    expect(text((await artist.visitor.get(`${payments}?item=${crypto.randomUUID()}`)).html)).toContain("No sales yet");
    const csv = await artist.visitor.download(`/dashboard/artist/payments/sales.csv?item=${merchId}`);
    expect(csv.response.headers.get("content-type")).toContain("text/csv");
    // UTF-8 with a byte order mark (Excel reads it as UTF-8 then); dates as spreadsheets take them, in UTC.
    expect([...csv.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, row] = new TextDecoder().decode(csv.bytes).trim().split("\r\n");
    expect(header).toBe("date (UTC),order,item,kind,quantity,country,currency,price,discount,shipping,paid,your share,refunded (UTC)");
    expect(row).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\w{8},Lantern tee,Merch,2,DE,USD,30\.00,0\.00,16\.00,46\.00,43\.60,$/);
    const elsewhere = await newArtist("Other Seller");
    expect((await elsewhere.visitor.get("/dashboard/artist/payments/sales.csv")).html.trim().split("\r\n")).toHaveLength(1);
    expect((await fan.get("/dashboard/artist/payments/sales.csv")).response.status).toBe(403);

    // Merch Orders: the address to send it to, then "Mark as shipped", which only its artist may.
    const orders = "/dashboard/artist/orders";
    const listed = await artist.visitor.get(orders);
    expect(text(listed.html)).toContain("1 to send.");
    expect(text(listed.html)).toContain("Ada Fan Hauptstraße 1 10115 Berlin Germany");
    const lineId = listed.html.match(/name="lineId" value="([0-9a-f-]{36})"/)![1]!;
    const stranger = await newArtist("Not The Sender");
    expect((await stranger.visitor.post(orders, { lineId, tracking: "X" })).response.status).toBe(403);
    expect((await fan.post(orders, { lineId, tracking: "X" })).response.status).toBe(403);
    const tooLong = await artist.visitor.post(orders, { lineId, tracking: "9".repeat(101) });
    expect(text(tooLong.html)).toContain("A tracking number is at most 100 characters");
    expect((await artist.visitor.post(orders, { lineId, tracking: "1Z 999 AA1" })).response.status).toBe(303);
    expect(text((await artist.visitor.get(orders)).html)).toContain("tracking 1Z 999 AA1");
    const { data: merch } = await serviceClient.from("merch").select("stock").eq("id", merchId).single();
    expect(merch?.stock).toBe(1);
    await expect
      .poll(async () => (await mailsTo(fanEmail)).find((mail) => /on its way/.test(mail.subject))?.text ?? "", { timeout: 15_000 })
      .toContain("Tracking number: 1Z 999 AA1.");
  });

  it("sells the last five to five of fifty fans paying at once; the rest are told before paying, and none is oversold", async () => {
    const artist = await newArtist("Last Five");
    const merchId = await newMerch(artist.id, 5);
    const guests = await Promise.all(Array.from({ length: 50 }, () => guestWith(merchId)));
    const answers = await Promise.all(guests.map((guest, n) => payAsGuest(guest, n)));
    const opened = answers.filter((answer) => answer.response.status === 303);
    expect(opened).toHaveLength(5);
    const told = answers.filter((answer) => answer.response.status === 409);
    expect(told).toHaveLength(45);
    expect(text(told[0]!.html)).toContain("Some items cannot be bought as they are");
    const paid = await Promise.all(
      opened.map((answer) => payOnPage(answer.response.headers.get("location")!, { ...address, shipping_country: "DE" })),
    );
    expect(paid.map((payment) => payment.status)).toEqual(Array(5).fill(303));
    await expect
      .poll(async () => {
        const { data: lines } = await serviceClient.from("order_lines").select("order_id").eq("item_id", merchId);
        const { count } = await serviceClient
          .from("orders")
          .select("id", { count: "exact", head: true })
          .in(
            "id",
            (lines ?? []).map((line) => line.order_id),
          )
          .eq("state", "paid");
        return count;
      })
      .toBe(5);
    expect(text((await guestWith(merchId).then((guest) => guest.get("/cart"))).html)).toContain("Sold out. Please remove it.");
  });

  it("gives a code's last use to one of two fans paying at once; the other pays the price", async () => {
    const artist = await newArtist("Last Code");
    const merchId = await newMerch(artist.id, null);
    const discounts = [{ id: "last", code: "LAST", percentage: 50, validUntil: null, active: true, maxUses: 1 }];
    const { error } = await serviceClient.from("store_settings").insert({ artist_id: artist.id, discounts });
    if (error) throw error;
    const guests = await Promise.all([guestWith(merchId), guestWith(merchId)]);
    await Promise.all(guests.map((guest) => guest.post("/cart", { intent: "code", code: "last" })));
    const answers = await Promise.all(guests.map((guest, n) => payAsGuest(guest, n)));
    expect(answers.map((answer) => answer.response.status)).toEqual([303, 303]);
    const { data: lines } = await serviceClient.from("order_lines").select("discount_code, total_cents").eq("item_id", merchId);
    expect(lines?.map((line) => line.total_cents).sort()).toEqual([1550, 2300]);
  });

  it("lets go of what a checkout held when its buyer comes back without paying", async () => {
    const artist = await newArtist("Come Back");
    const merchId = await newMerch(artist.id, 1);
    const first = await guestWith(merchId);
    const opened = await payAsGuest(first, 1);
    expect(opened.response.status).toBe(303);
    expect((await payAsGuest(await guestWith(merchId), 2)).response.status).toBe(409);
    const session = await stripe.checkout.sessions.retrieve(new URL(opened.response.headers.get("location")!).pathname.split("/").pop()!);
    // The order's id alone (which the artists of its lines read) ends nobody's checkout, nor a way back not signed here.
    for (const forged of [session.metadata!.order_id!, `${session.metadata!.order_id}.${"A".repeat(43)}`]) {
      const stranger = await new Visitor().get(`/cart?${new URLSearchParams({ back: forged })}`);
      expect(stranger.response.headers.get("location")).toBe("/cart");
    }
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    // The payment page's way back: the cart, by the way back signed for this checkout, which says nothing was paid.
    const back = await first.get(new URL(session.cancel_url!).pathname + new URL(session.cancel_url!).search);
    expect(back.response.status).toBe(302);
    expect(back.response.headers.get("location")).toBe("/cart?payment=cancelled");
    expect(text((await first.get(back.response.headers.get("location")!)).html)).toContain(
      "Your payment was cancelled: nothing was charged.",
    );
    expect(text((await first.get("/cart")).html)).not.toContain("Your payment was cancelled");
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("expired");
    expect((await payAsGuest(await guestWith(merchId), 3)).response.status).toBe(303);
  });

  it("ends a buyer's earlier checkout when they open another, so one buyer holds the stock once", async () => {
    const artist = await newArtist("One Hold");
    const merchId = await newMerch(artist.id, 1);
    const { visitor: fan } = await newFan(`oneholder${Date.now().toString(36)}`);
    await fan.post("/cart", { intent: "add", kind: "merch", id: merchId, quantity: "1" });
    await fan.post("/cart", { intent: "ship-to", shipTo: "DE" });
    const sessionOf = (answer: { response: Response }) => new URL(answer.response.headers.get("location")!).pathname.split("/").pop()!;
    const first = await fan.post("/cart", { intent: "checkout", currency: "USD", followArtists: "on" });
    expect(first.response.status).toBe(303);
    const second = await fan.post("/cart", { intent: "checkout", currency: "USD", followArtists: "on" });
    expect(second.response.status).toBe(303);
    expect((await stripe.checkout.sessions.retrieve(sessionOf(first))).status).toBe("expired");
    const opened = await stripe.checkout.sessions.retrieve(sessionOf(second));
    expect(opened.status).toBe("open");
    // It can be paid only while its hold lasts: the checkout lapses when the database lets the stock go.
    expect(opened.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(30 * 60 - 60);
    expect(opened.expires_at - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(31 * 60);
    expect((await payAsGuest(await guestWith(merchId), 4)).response.status).toBe(409);
  });

  it("refunds at once merch paid for after its hold lapsed and the stock went to someone else, and tells the buyer", async () => {
    const artist = await newArtist("Late Payer");
    const merchId = await newMerch(artist.id, 1);
    const late = await guestWith(merchId);
    const lateEmail = `late-payer-${Date.now().toString(36)}@example.com`;
    const opened = await late.post("/cart", { intent: "checkout", currency: "USD", email: lateEmail });
    expect(opened.response.status).toBe(303);
    const payUrl = opened.response.headers.get("location")!;
    const session = await stripe.checkout.sessions.retrieve(new URL(payUrl).pathname.split("/").pop()!);
    // Its hold lapses (as if 40 minutes went by), and another buyer takes the last one and pays.
    const { error } = await serviceClient
      .from("orders")
      .update({ created_at: new Date(Date.now() - 40 * 60 * 1000).toISOString() })
      .eq("id", session.metadata!.order_id!);
    if (error) throw error;
    const other = await payAsGuest(await guestWith(merchId), 5);
    expect(other.response.status).toBe(303);
    expect((await payOnPage(other.response.headers.get("location")!, { ...address, shipping_country: "DE" })).status).toBe(303);
    // The first checkout is still payable at Stripe's end: its payment lands, and is given back at once.
    expect((await payOnPage(payUrl, { ...address, shipping_country: "DE" })).status).toBe(303);
    await expect
      .poll(
        async () => {
          const { data } = await serviceClient
            .from("order_lines")
            .select("refunded_at, refund_id, total_cents, orders(state)")
            .eq("order_id", session.metadata!.order_id!)
            .single();
          return data;
        },
        { timeout: 15_000 },
      )
      .toMatchObject({
        refunded_at: expect.any(String),
        refund_id: expect.stringMatching(/^re_/),
        total_cents: 2300,
        orders: { state: "paid" },
      });
    await expect
      .poll(async () => (await mailsTo(lateEmail)).map((mail) => mail.subject).join("\n"), { timeout: 15_000 })
      .toContain("Your refund for");
  });

  it("lets an artist count their own stock again, and no one else", async () => {
    const artist = await newArtist("Restock");
    const merchId = await newMerch(artist.id, 0);
    const tracks = "/dashboard/artist/tracks";
    const bad = await artist.visitor.post(tracks, { intent: "stock", merchId, stock: "lots" });
    expect(bad.response.status).toBe(400);
    expect(text(bad.html)).toContain("Stock must be a whole number from 0 to 100,000, or empty");
    expect((await artist.visitor.post(tracks, { intent: "stock", merchId, stock: "20" })).response.status).toBe(303);
    expect(text((await artist.visitor.get(tracks)).html)).toContain("20 left to sell");
    const other = await newArtist("Not Theirs");
    const refused = await other.visitor.post(tracks, { intent: "stock", merchId, stock: "0" });
    expect(refused.response.status).toBe(404);
    const { visitor: fan } = await newFan(`restocker${Date.now().toString(36)}`);
    expect((await fan.post(tracks, { intent: "stock", merchId, stock: "0" })).response.status).toBe(403);
    const { data } = await serviceClient.from("merch").select("stock").eq("id", merchId).single();
    expect(data?.stock).toBe(20);
  });
});
