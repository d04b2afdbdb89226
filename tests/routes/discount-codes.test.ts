// Discount codes in the cart without JavaScript: past the limit on typing codes the field says so, as
// typed; and a code typed into the cart stays with the cart, never taking something off a "Buy now".
import { createClient } from "@supabase/supabase-js";
import Stripe from "stripe";
import { inject, describe, expect, it } from "vitest";
import { localDefaults } from "@crate/local-supabase";
import { inputValue, newArtist, newFan, serviceClient, supabaseUrl, text } from "./support.ts";

const { url: stripeUrl, secretKey } = inject("stripe");
const api = new URL(stripeUrl);
const stripe = new Stripe(secretKey, { host: api.hostname, port: api.port, protocol: "http", maxNetworkRetries: 0 });

/** A new artist's track at $2.00, with the store's code SPRING (25% off), or the code given. */
async function codedTrack(artistName: string, code = { code: "SPRING", percentage: 25 }) {
  const { id: artistId } = await newArtist(artistName);
  const { data: track } = await serviceClient
    .from("tracks")
    .insert({ artist_id: artistId, title: `${artistName} Song`, genre: "Folk", price: 2, description: "x", release_date: "2026-01-01" })
    .select("id")
    .single();
  const discounts = [{ id: "1", ...code, validUntil: null, active: true }];
  const { data: kept } = await serviceClient.from("store_settings").update({ discounts }).eq("artist_id", artistId).select("artist_id");
  if (!kept?.length) await serviceClient.from("store_settings").insert({ artist_id: artistId, discounts });
  return track!.id;
}

describe("discount codes in the cart", () => {
  it("says past the limit on typing codes that there were too many, keeping what was typed, and keeps no such code", async () => {
    const fan = await newFan(`codeguesser${Date.now().toString(36)}`);
    // The account types its 30 codes through the API itself.
    const own = createClient(supabaseUrl, localDefaults.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    expect((await own.auth.signInWithPassword({ email: fan.email, password: fan.password })).error).toBeNull();
    for (const batch of [0, 1, 2]) {
      const codes = Array.from({ length: 10 }, (_, index) => `guess-${String(batch * 10 + index + 1).padStart(3, "0")}`);
      const { error } = await own.rpc("price_cart", { lines: [], codes });
      expect(error).toBeNull();
    }

    const typed = await fan.visitor.post("/cart", { intent: "code", code: "guess-031" });
    expect(typed.response.status).toBe(429);
    expect(text(typed.html)).toContain("Too many codes tried. Please wait a few minutes.");
    expect(inputValue(typed.html, "code")).toBe("guess-031");
    expect(fan.visitor.cookies.get("crate-cart-codes") ?? "").not.toContain("guess-031");
  });

  it("says a total a code took under the smallest payment cannot be paid, and refuses its checkout before Stripe", async () => {
    const song = await codedTrack("Almost Free Seller", { code: "NINETY", percentage: 90 });
    const fan = await newFan(`smallpay${Date.now().toString(36)}`);
    const { visitor } = fan;
    await visitor.post("/cart", { intent: "add", kind: "track", id: song, amount: "" });
    await visitor.post("/cart", { intent: "code", code: "NINETY" });
    const cart = text((await visitor.get("/cart")).html);
    expect(cart).toContain("The smallest payment is $0.50. Add to your order to pay.");
    expect(cart).not.toContain("Pay $0.20");
    const paying = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "on", waiveWithdrawal: "on" });
    expect(paying.response.status).toBe(409);
    expect(text(paying.html)).toContain("The smallest payment is $0.50.");
    // Refused in the database, before any order or payment was opened.
    expect((await serviceClient.from("orders").select("id").eq("buyer_id", fan.id)).data).toEqual([]);
  });

  it("applies a code typed into the cart to the cart's order, not to a later Buy now", async () => {
    const song = await codedTrack("Spring Seller");
    const { visitor } = await newFan(`buynowcode${Date.now().toString(36)}`);
    await visitor.post("/cart", { intent: "code", code: "SPRING" });
    const bought = await visitor.post("/cart", { intent: "buy-now", kind: "track", id: song, amount: "", waiveWithdrawal: "on" });
    expect(bought.response.status).toBe(303);
    const pay = bought.response.headers.get("location")!;
    expect(pay.startsWith(stripeUrl)).toBe(true);
    const session = await stripe.checkout.sessions.retrieve(new URL(pay).pathname.split("/").pop()!);
    expect(session.amount_total).toBe(200);
  });
});
