// The artist dashboard: the statistics row with real totals and trends (the last 30 days against the 30
// before), the library preview and the Recent Activity feed, all from one read that row-level security
// decides. A new artist's sales, plays, followers and comments are written through the service role with
// known dates, so every figure can be worked out by hand.
import { createClient } from "@supabase/supabase-js";
import { beforeAll, describe, expect, it } from "vitest";
import { localDefaults } from "@crate/local-supabase";
import { Visitor, newArtist, recordSales, serviceClient, signedIn, supabaseUrl, text } from "./support.ts";

const riley = "f0000000-0000-4000-8000-000000000001"; // the demo fan, 'rileyspins'
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
let artist: { visitor: Visitor; id: string };
let tracks: { id: string; title: string }[];

beforeAll(async () => {
  artist = await newArtist("Dashboard Tester");
  const inserted = await serviceClient
    .from("tracks")
    .insert(
      ["Morning Run", "Evening Tide"].map((title, index) => ({
        artist_id: artist.id,
        title,
        genre: "Folk",
        price: 1,
        description: "For the dashboard test",
        release_date: daysAgo(10 + index).slice(0, 10),
      })),
    )
    .select("id, title");
  expect(inserted.error).toBeNull();
  tracks = inserted.data ?? [];
  const [run, tide] = tracks.map((track) => track.id);
  await recordSales([
    { track_id: run!, amount: 10, user_id: riley, created_at: daysAgo(5) },
    { track_id: tide!, amount: 5, user_id: null, created_at: daysAgo(40) },
    { track_id: run!, amount: 2.5, user_id: riley, created_at: daysAgo(100) },
  ]);
  const written = await Promise.all([
    serviceClient
      .from("analytics_events")
      .insert([
        ...[1, 2, 3].map((day) => ({ type: "play", track_id: run, artist_id: artist.id, user_id: null, created_at: daysAgo(day) })),
        { type: "play", track_id: tide, artist_id: artist.id, user_id: riley, created_at: daysAgo(45) },
        ...[35, 50].map((day) => ({ type: "download", track_id: tide, artist_id: artist.id, user_id: riley, created_at: daysAgo(day) })),
      ]),
    serviceClient.from("followers").insert({ artist_id: artist.id, fan_id: riley }),
    serviceClient.from("comments").insert({ track_id: tide, user_id: riley, content: "Lovely harmonies" }),
  ]);
  expect(written.map((result) => result.error)).toEqual([null, null, null]);
});

describe("the artist dashboard", () => {
  it("shows revenue, downloads, streams and followers with their totals and trends", async () => {
    const { response, html } = await artist.visitor.get("/dashboard/artist");
    expect(response.status).toBe(200);
    // The session check and the dashboard's one read.
    expect(response.headers.get("server-timing")).toMatch(/\b2 round trips\b/);
    const page = text(html);
    // revenue, the artist's 88%: $15.40 in all; $8.80 in the last 30 days against $4.40 before: +100%
    expect(page).toMatch(/Revenue \$15\.40 \+100% in the last 30 days/);
    // downloads: none lately against two before: −100%
    expect(page).toMatch(/Downloads 2 −100% in the last 30 days/);
    // streams: three lately against one before: +200%
    expect(page).toMatch(/Streams 4 \+200% in the last 30 days/);
    // no followers before: new, never a made-up +100%
    expect(page).toMatch(/Followers 1 New in the last 30 days/);
  });

  it("previews the first 3 tracks with View All Tracks, and lists recent activity newest first", async () => {
    const { html } = await artist.visitor.get("/dashboard/artist");
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist\/tracks"[^>]*>View All Tracks<\/a>/);
    const page = text(html);
    expect(page.indexOf("Morning Run")).toBeLessThan(page.indexOf("Evening Tide"));
    const activity = page.slice(page.indexOf("Recent Activity"));
    expect(activity).toContain("rileyspins commented on Evening Tide “Lovely harmonies” just now");
    expect(activity).toContain("Unknown User bought Evening Tide for $5.00 1mo ago");
    expect(activity).toContain("rileyspins bought Morning Run for $10.00 5d ago");
    expect(activity.indexOf("commented on")).toBeLessThan(activity.indexOf("played Morning Run 1d ago"));
    // 5 purchases, 5 events and 5 comments at most are read; 10 shown.
    expect(activity.match(/ago|just now/g)?.length).toBeLessThanOrEqual(10);
  });

  it("lists each line sold once in Recent Activity: an album at its line's price, merch with its quantity, a refund marked", async () => {
    const seller = await newArtist("Activity Tester");
    const { data: album } = await serviceClient
      .from("releases")
      .insert({ artist_id: seller.id, kind: "album", title: "Dusk Songs" })
      .select("id")
      .single();
    const { data: albumTracks } = await serviceClient
      .from("tracks")
      .insert(
        ["Dusk One", "Dusk Two"].map((title, index) => ({
          artist_id: seller.id,
          release_id: album!.id,
          title,
          track_number: index + 1,
          genre: "Folk",
          price: 4,
          description: "For the activity test",
          release_date: daysAgo(30).slice(0, 10),
        })),
      )
      .select("id");
    const { data: tee } = await serviceClient
      .from("merch")
      .insert({
        artist_id: seller.id,
        title: "Activity tee",
        price: 15,
        description: "Cotton",
        stock: 10,
        ships_from: "GB",
        shipping_home: 5,
      })
      .select("id")
      .single();
    // Paid orders as the checkout makes them: the album's line with a purchase per track, merch lines without.
    const sold = async (
      line: { kind: string; release_id?: string; merch_id?: string; title: string; quantity?: number; amount: number; shipping?: number },
      buyer: string | null,
      paidAt: string,
      trackIds: string[] = [],
    ) => {
      const total = line.amount + (line.shipping ?? 0);
      const { data: order } = await serviceClient
        .from("orders")
        .insert({ buyer_id: buyer, buyer_email: "buyer@example.test", currency: "USD", total_cents: total })
        .select("id")
        .single();
      const { data: written, error } = await serviceClient
        .from("order_lines")
        .insert({
          order_id: order!.id,
          artist_id: seller.id,
          kind: line.kind,
          item_id: line.release_id ?? line.merch_id ?? null,
          title: line.title,
          quantity: line.quantity ?? 1,
          amount_cents: line.amount,
          shipping_cents: line.shipping ?? 0,
          total_cents: total,
          artist_share_cents: Math.round(total * 0.88),
          crate_cents: total - Math.round(total * 0.88),
        })
        .select("id")
        .single();
      expect(error).toBeNull();
      if (trackIds.length > 0) {
        const bought = await serviceClient.from("purchases").insert(
          trackIds.map((id) => ({
            track_id: id,
            user_id: buyer,
            amount: line.amount / 100 / trackIds.length,
            order_line_id: written!.id,
            created_at: paidAt,
          })),
        );
        expect(bought.error).toBeNull();
      }
      expect((await serviceClient.from("orders").update({ state: "paid", paid_at: paidAt }).eq("id", order!.id)).error).toBeNull();
      return written!.id;
    };
    const albumIds = albumTracks!.map((track) => track.id);
    await sold({ kind: "album", release_id: album!.id, title: "Dusk Songs", amount: 800 }, riley, daysAgo(3), albumIds);
    await sold({ kind: "merch", merch_id: tee!.id, title: "Activity tee", quantity: 2, amount: 3000, shipping: 500 }, riley, daysAgo(2));
    const returned = await sold({ kind: "merch", merch_id: tee!.id, title: "Activity tee", amount: 1500 }, null, daysAgo(1));
    expect((await serviceClient.from("order_lines").update({ refunded_at: new Date().toISOString() }).eq("id", returned)).error).toBeNull();

    const page = text((await seller.visitor.get("/dashboard/artist")).html);
    const activity = page.slice(page.indexOf("Recent Activity"));
    expect(activity).toContain("rileyspins bought Dusk Songs for $8.00 3d ago");
    expect(activity).toContain("rileyspins bought 2 × Activity tee for $35.00 2d ago");
    expect(activity).toContain("Unknown User bought Activity tee for $15.00 (refunded) 1d ago");
    // Never the album's tracks at split prices.
    expect(activity).not.toContain("Dusk One");
    // Three lines sold, three entries.
    expect(activity.match(/ ago/g)).toHaveLength(3);
  });

  it("writes revenue in the artist's own currency, on the dashboard and in analytics", async () => {
    // The demo artist sells in pounds.
    const demo = await signedIn("artist@example.com", "artist-demo-pass");
    expect(text((await demo.get("/dashboard/artist")).html)).toMatch(/Revenue £[\d,]+\.\d{2}/);
    expect(text((await demo.get("/dashboard/artist/analytics")).html)).toMatch(/Revenue £[\d,]+\.\d{2}/);
  });

  it("shows a new artist zeros and empty states, and no one else's figures", async () => {
    const newcomer = await newArtist("Empty Dashboard");
    const page = text((await newcomer.visitor.get("/dashboard/artist")).html);
    expect(page).toMatch(/Revenue \$0\.00 0% in the last 30 days/);
    expect(page).toContain("Nothing published yet.");
    expect(page).toContain("No activity yet");
  });

  it("is for signed-in users only at the API too", async () => {
    const anonymous = createClient(supabaseUrl, localDefaults.anonKey, { auth: { persistSession: false } });
    expect((await anonymous.rpc("artist_dashboard")).error).toMatchObject({ code: "42501" });
  });

  it("asks a visitor to log in and answers a fan 403", async () => {
    expect((await new Visitor().get("/dashboard/artist")).response.status).toBe(302);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get("/dashboard/artist")).response.status).toBe(403);
  });
});
