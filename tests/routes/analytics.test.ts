// The analytics page as a browser without JavaScript sees it: the period as links in the URL, figures that
// change with the period (totals, trends against the period before, history, top sellers, countries),
// from the artist-analytics Edge Function as the signed-in artist. A new artist's sales and plays are
// written through the service role on known days, so every figure can be worked out by hand (revenue is
// the artist's 88% of each sale, as the ledger credits it).
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, newArtist, recordSales, serviceClient, signedIn, text } from "./support.ts";

const riley = "f0000000-0000-4000-8000-000000000001"; // the demo fan, 'rileyspins'
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
let artist: { visitor: Visitor; id: string };

beforeAll(async () => {
  artist = await newArtist("Analytics Tester");
  const inserted = await serviceClient
    .from("tracks")
    .insert(
      ["Harbour Lights", "Low Tide"].map((title) => ({
        artist_id: artist.id,
        title,
        genre: "Folk",
        price: 1,
        description: "For the analytics test",
        release_date: daysAgo(200).slice(0, 10),
      })),
    )
    .select("id, title");
  expect(inserted.error).toBeNull();
  const [lights, tide] = (inserted.data ?? []).map((track) => track.id);
  const event = (type: string, track: string | undefined, days: number, country: string | null, embeddedOn: string | null = null) => ({
    type,
    track_id: track,
    artist_id: artist.id,
    user_id: riley,
    country,
    created_at: daysAgo(days),
    embedded_on: embeddedOn,
  });
  await recordSales([
    { track_id: lights!, amount: 10, user_id: riley, country: "GB", created_at: daysAgo(2) },
    { track_id: tide!, amount: 5, user_id: riley, country: "US", created_at: daysAgo(40) },
    { track_id: lights!, amount: 3, user_id: riley, country: "US", created_at: daysAgo(100) },
  ]);
  const written = await Promise.all([
    serviceClient
      .from("analytics_events")
      .insert([
        event("play", lights, 1, "GB", "https://blog.example"),
        event("play", lights, 2, "GB"),
        event("play", lights, 3, null),
        event("play", tide, 45, "US", "https://zine.example:8443"),
        event("download", tide, 35, "US"),
        event("download", lights, 50, "US"),
      ]),
  ]);
  expect(written.map((result) => result.error)).toEqual([null]);
});

describe("analytics", () => {
  it("shows the last 30 days by default, from one round trip after the session check", async () => {
    const { response, html } = await artist.visitor.get("/dashboard/artist/analytics");
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(/\b2 round trips\b/);
    const page = text(html);
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*>Last 30 days<\/a>/);
    // $10 now against $5 in the 30 days before; 3 plays against 1; no downloads against 1.
    expect(page).toMatch(/Revenue \$8\.80 \+100% against the 30 days before/);
    expect(page).toMatch(/Streams 3 \+200% against the 30 days before/);
    expect(page).toMatch(/Downloads 0 −100% against the 30 days before/);
    // The history, per day: 30 rows in the text alternative; the chart is an image with a name.
    expect(html.match(/<tr class="border-t border-stage-700"><th scope="row"/g)?.length).toBeGreaterThanOrEqual(30);
    expect(html).toMatch(/<svg[^>]*role="img"/);
    expect(page).toMatch(/Revenue per day/);
    // Top sellers and countries of the period.
    expect(page).toMatch(/Top sellers Item Sales Plays Revenue Harbour Lights Single 1 3 \$8\.80/);
    // one sale now against one in the 30 days before
    expect(page).toMatch(/Sales 1 0% against the 30 days before/);
    expect(page).toMatch(/Country Plays Downloads United Kingdom 2 0 Unknown 1 0/);
    // The sites whose embedded players were played, beside the countries.
    expect(page).toMatch(/Sites that embed your music Site Plays blog\.example 1(?! zine)/);
  });

  it("changes every figure with the period", async () => {
    const week = text((await artist.visitor.get("/dashboard/artist/analytics?period=7d")).html);
    // nothing in the week before: new, never a made-up +100%
    expect(week).toMatch(/Revenue \$8\.80 New against the 7 days before/);
    expect(week).toMatch(/Streams 3 New against the 7 days before/);

    const quarter = await artist.visitor.get("/dashboard/artist/analytics?period=90d");
    expect(quarter.html).toMatch(/<a[^>]*aria-current="page"[^>]*>Last 90 days<\/a>/);
    const page = text(quarter.html);
    // $15 against the $3 of the 90 days before: +400%; per week now.
    expect(page).toMatch(/Revenue \$13\.20 \+400% against the 90 days before/);
    expect(page).toMatch(/Streams 4 New against the 90 days before/);
    expect(page).toMatch(/Downloads 2 New against the 90 days before/);
    expect(page).toMatch(/Revenue per week/);
    expect(page).toMatch(/Country Plays Downloads United States 1 2 United Kingdom 2 0 Unknown 1 0/);
    expect(page).toMatch(/Sites that embed your music Site Plays blog\.example 1 zine\.example:8443 1/);

    const year = text((await artist.visitor.get("/dashboard/artist/analytics?period=1y")).html);
    expect(year).toMatch(/Revenue \$15\.84 New against the 365 days before/);
    expect(year).toMatch(/Top sellers Item Sales Plays Revenue Harbour Lights Single 2 3 \$11\.44 Low Tide Single 1 1 \$4\.40/);
  });

  it("falls back to 30 days for a period it does not know", async () => {
    const { response, html } = await artist.visitor.get("/dashboard/artist/analytics?period=forever");
    expect(response.status).toBe(200);
    expect(html).toMatch(/<a[^>]*aria-current="page"[^>]*>Last 30 days<\/a>/);
  });

  it("creates the artist's analytics row with its defaults on the first visit", async () => {
    const fresh = await newArtist("Analytics Newcomer");
    const before = await serviceClient.from("analytics").select("artist_id").eq("artist_id", fresh.id);
    expect(before.data).toEqual([]);
    const { response, html } = await fresh.visitor.get("/dashboard/artist/analytics");
    expect(response.status).toBe(200);
    const page = text(html);
    expect(page).toMatch(/Revenue \$0\.00 0% against the 30 days before/);
    expect(page).toMatch(/No sales in this period\./);
    expect(page).toMatch(/No plays or sales in this period\./);
    expect(page).toMatch(/No listeners in this period\./);
    expect(page).toMatch(/No plays in embedded players in this period\./);
    expect(page).not.toMatch(/Harbour Lights/);
    const after = await serviceClient.from("analytics").select("revenue, top_tracks").eq("artist_id", fresh.id).single();
    expect(after.data).toEqual({ revenue: { total: 0, trend: 0, history: [] }, top_tracks: [] });
  });

  it("labels the revenue chart in the artist's own currency", async () => {
    const seller = await newArtist("Pound Seller");
    const { data: settings } = await serviceClient
      .from("artist_payout_settings")
      .select("payment_settings")
      .eq("artist_id", seller.id)
      .single();
    await serviceClient
      .from("artist_payout_settings")
      .update({ payment_settings: { ...(settings!.payment_settings as object), default_currency: "GBP" } })
      .eq("artist_id", seller.id);
    const { data: song } = await serviceClient
      .from("tracks")
      .insert({
        artist_id: seller.id,
        title: "Sterling",
        genre: "Folk",
        price: 1,
        description: "x",
        release_date: daysAgo(200).slice(0, 10),
      })
      .select("id")
      .single();
    await recordSales([{ track_id: song!.id, amount: 10, user_id: riley, created_at: daysAgo(2) }], "GBP");
    const { html } = await seller.visitor.get("/dashboard/artist/analytics");
    const chart = html.match(/<svg[^>]*role="img"[^>]*aria-labelledby="([^"]+)"[\s\S]*?<\/svg>/g)?.find((svg) => svg.includes("£"));
    // the axis and each bar's title, in pounds
    expect(chart).toContain(">£8.80</text>");
    expect(chart).toContain(">£0.00</text>");
    expect(chart).toMatch(/<title>[^<]*: £8\.80<\/title>/);
    expect(chart).not.toContain("$");
  });

  it("asks a visitor to log in and answers a fan 403", async () => {
    const visitor = await new Visitor().get("/dashboard/artist/analytics?period=7d");
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(
      `/login?redirectTo=${encodeURIComponent("/dashboard/artist/analytics?period=7d")}`,
    );
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get("/dashboard/artist/analytics")).response.status).toBe(403);
  });

  it("is linked from the dashboard's tiles, beside Edit Profile", async () => {
    const { html } = await artist.visitor.get("/dashboard/artist");
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist\/analytics"/);
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist\/profile"/);
  });
});
