// The artist-analytics Edge Function (supabase/functions/artist-analytics), run by Deno and called through
// the real supabase-js: an artist's own figures only, for each period, with trends against the period
// before; an empty artist; another artist's token; a fan; a visitor; and the rollups it reads, which the
// database keeps in step with every insert and delete of events and purchases, and the ledger's revenue.
import { FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopFunctions, startTestStack } from "@crate/local-supabase/testing";
import type { LocalStack } from "@crate/local-supabase";
import { recordPaidSales } from "../../scripts/lib/paid-sales.ts";
import { clientWith, createArtist, createFan, createTrack, signedInClient } from "./schema-fixtures.ts";

let local: LocalStack;
let visitor: SupabaseClient;
let artist: { id: string; client: SupabaseClient };
let other: { id: string; client: SupabaseClient };
let fan: { id: string; client: SupabaseClient };
let tracks: { first: string; second: string; others: string };

const day = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * day).toISOString();

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  visitor = clientWith(local, local.anonKey);
  artist = await signedInClient(local, createArtist(local.stack.db, "Figures Artist"));
  other = await signedInClient(local, createArtist(local.stack.db, "Other Artist"));
  fan = await signedInClient(local, createFan(local.stack.db, "figures_fan"));
  tracks = {
    first: await createTrack(local.stack.db, artist.id, { title: "First Light" }),
    second: await createTrack(local.stack.db, artist.id, { title: "Second Wind" }),
    others: await createTrack(local.stack.db, other.id, { title: "Not Yours" }),
  };
  const db = local.stack.db;
  // Plays: 5 of First Light in the last week (3 from Japan, 2 unknown), 2 of Second Wind 20 days ago
  // (Brazil), 4 of it 50 days ago (Brazil); the other artist's track: 100 plays today.
  await db.query(
    `insert into public.analytics_events (type, track_id, artist_id, country, created_at)
     select 'play', t.track, t.artist, t.country, now() - make_interval(days => t.days_ago)
     from (values ($1::uuid, $3::uuid, 'JP', 1), ($1, $3, 'JP', 2), ($1, $3, 'JP', 3), ($1, $3, null, 4), ($1, $3, null, 5),
                  ($2, $3, 'BR', 20), ($2, $3, 'BR', 20), ($2, $3, 'BR', 50), ($2, $3, 'BR', 50), ($2, $3, 'BR', 50), ($2, $3, 'BR', 50))
       as t(track, artist, country, days_ago)`,
    [tracks.first, tracks.second, artist.id],
  );
  await db.query(
    `insert into public.analytics_events (type, track_id, artist_id, country) select 'play', $1, $2, 'FR' from generate_series(1, 100)`,
    [tracks.others, other.id],
  );
  // Sales: $2.50 of First Light 2 days ago and $4 of Second Wind 40 days ago, each with its download;
  // $99 for the other artist. Revenue is the artist's 88% of each (the ledger's).
  await recordPaidSales(
    db,
    `select amount, track_id, $4::uuid as user_id, country, created_at
     from (values (2.5, $1::uuid, 'JP', now() - interval '2 days'), (4, $2, 'BR', now() - interval '40 days'), (99, $3, 'FR', now()))
       as s(amount, track_id, country, created_at)`,
    [tracks.first, tracks.second, tracks.others, fan.id],
  );
  await db.query(
    `insert into public.analytics_events (type, track_id, artist_id, user_id, country, created_at)
     select 'download', p.track_id, p.artist_id, p.user_id, p.country, p.created_at from public.purchases p`,
  );
});

afterAll(async () => {
  if (local) await stopFunctions(local.stack);
  await local?.close();
});

async function analytics(client: SupabaseClient, body: unknown) {
  const { data, error } = await client.functions.invoke("artist-analytics", { body: body as Record<string, unknown> });
  if (!error) return { status: 200, body: data };
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  return { status: response.status, body: await response.json() };
}

describe("artist-analytics", () => {
  it("gives the last 7 days per day: totals, trends, history, top sellers and countries", async () => {
    const { status, body } = await analytics(artist.client, { period: "7d" });
    expect(status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(body).toMatchObject({ period: "7d", bucket: "day", to: today, from: daysAgo(6).slice(0, 10) });
    // nothing in the week before: new, no percentage
    expect(body.revenue).toEqual({ total: 2.2, trend: null });
    expect(body.streams).toEqual({ total: 5, trend: null });
    expect(body.downloads).toEqual({ total: 1, trend: null });
    expect(body.sales).toEqual({ total: 1, trend: null });
    expect(body.history).toHaveLength(7);
    expect(body.history.map((point: { plays: number }) => point.plays)).toEqual([0, 1, 1, 1, 1, 1, 0]);
    expect(body.history[6]).toMatchObject({ start: today, end: today });
    expect(body.topSellers).toEqual([
      {
        kind: "single",
        id: expect.any(String),
        track_id: tracks.first,
        title: "First Light",
        plays: 5,
        downloads: 1,
        sales: 1,
        revenue: 2.2,
      },
    ]);
    expect(body.geography).toEqual([
      { country: "JP", plays: 3, downloads: 1 },
      { country: null, plays: 2, downloads: 0 },
    ]);
  });

  it("changes every figure with the period, and trends compare with the period before", async () => {
    const month = (await analytics(artist.client, { period: "30d" })).body;
    expect(month.streams).toEqual({ total: 7, trend: 75 }); // 7 against the 4 of 31-60 days ago
    expect(month.revenue).toEqual({ total: 2.2, trend: -37.5 }); // $2.20 against $3.52
    expect(month.history).toHaveLength(30);

    const quarter = (await analytics(artist.client, { period: "90d" })).body;
    expect(quarter).toMatchObject({ bucket: "week", streams: { total: 11, trend: null }, revenue: { total: 5.72, trend: null } });
    expect(quarter.history).toHaveLength(13);
    expect(quarter.history.reduce((sum: number, point: { plays: number }) => sum + point.plays, 0)).toBe(11);
    expect(quarter.topSellers.map((item: { title: string }) => item.title)).toEqual(["Second Wind", "First Light"]);

    const year = (await analytics(artist.client, { period: "1y" })).body;
    expect(year.history).toHaveLength(53);
    expect(year.history[0].start).toBe(daysAgo(364).slice(0, 10));
  });

  it("counts sales as the ledger and Your Tracks do: an album once, merch too, a refund taken off", async () => {
    const db = local.stack.db;
    const seller = await signedInClient(local, createArtist(db, "Ledger Artist"));
    const { rows: albums } = await db.query<{ id: string }>(
      "insert into public.releases (artist_id, kind, title) values ($1, 'album', 'Night Album') returning id",
      [seller.id],
    );
    const album = albums[0]!.id;
    const { rows: albumTracks } = await db.query<{ id: string }>(
      `insert into public.tracks (artist_id, release_id, title, track_number, genre, price, description, release_date)
       select $1, $2, t.title, t.n, 'Rock', 4, 'A track', current_date - 10 from (values ('Night One', 1), ('Night Two', 2)) as t(title, n)
       returning id`,
      [seller.id, album],
    );
    const single = await createTrack(db, seller.id, { title: "Lone Single" });
    const refundedSingle = await createTrack(db, seller.id, { title: "Returned Single" });
    const { rows: merch } = await db.query<{ id: string }>(
      `insert into public.merch (artist_id, title, price, description, stock, ships_from)
       values ($1, 'Tour Tee', 15, 'Cotton', 10, 'GB') returning id`,
      [seller.id],
    );
    const tee = merch[0]!.id;
    // A paid order of one line as the checkout makes it: the album's purchases a track each, merch none.
    const sold = async (
      line: { kind: string; release?: string; merch?: string; title: string; quantity: number; amount: number; shipping: number },
      daysAgo: number,
      tracks: string[] = [],
    ) => {
      const total = line.amount + line.shipping;
      const share = Math.round(total * (line.kind === "merch" ? 0.92 : 0.88));
      const { rows } = await db.query<{ order_id: string; line_id: string }>(
        `with o as (
           insert into public.orders (buyer_id, buyer_email, currency, total_cents) values ($1, 'fan@example.test', 'USD', $2) returning id
         )
         insert into public.order_lines (order_id, artist_id, kind, item_id, title, quantity, amount_cents, shipping_cents,
           total_cents, artist_share_cents, crate_cents)
         select o.id, $3, $4, $5, $6, $7, $8, $9, $2, $10, $2 - $10 from o returning order_id, id as line_id`,
        [fan.id, total, seller.id, line.kind, line.release ?? line.merch, line.title, line.quantity, line.amount, line.shipping, share],
      );
      const { order_id, line_id } = rows[0]!;
      const paidAt = new Date(Date.now() - daysAgo * day).toISOString();
      for (const track of tracks) {
        await db.query("insert into public.purchases (amount, track_id, user_id, created_at, order_line_id) values ($1, $2, $3, $4, $5)", [
          line.amount / 100 / tracks.length,
          track,
          fan.id,
          paidAt,
          line_id,
        ]);
      }
      await db.query("update public.orders set state = 'paid', paid_at = $2 where id = $1", [order_id, paidAt]);
    };
    await sold(
      { kind: "album", release: album, title: "Night Album", quantity: 1, amount: 800, shipping: 0 },
      1,
      albumTracks.map((track) => track.id),
    );
    await sold({ kind: "merch", merch: tee, title: "Tour Tee", quantity: 2, amount: 3000, shipping: 500 }, 2);
    await recordPaidSales(
      db,
      `select 1.99 as amount, t.track_id, $3::uuid as user_id, null as country, now() - interval '3 days' as created_at
       from (values ($1::uuid), ($2::uuid)) as t(track_id)`,
      [single, refundedSingle, fan.id],
    );
    // Refunded as the marketplace refunds: the line marked, its purchase gone.
    await db.query("update public.order_lines set refunded_at = now() where item_id = $1", [refundedSingle]);
    await db.query("delete from public.purchases where track_id = $1", [refundedSingle]);
    await db.query(
      `insert into public.analytics_events (type, track_id, artist_id, created_at)
       select 'play', t.id, $1, now() - interval '1 day' from public.tracks t where t.release_id = $2`,
      [seller.id, album],
    );

    // Your Tracks' sales and revenue (the ledger's, all time: every sale here is in the last week).
    const { data: catalog } = await seller.client.rpc("studio_catalog");
    const items = [
      ...Object.values((catalog as { release_sales: Record<string, { sales: number; revenue: number }> }).release_sales),
      ...(catalog as { merch: { sales: number; revenue: number }[] }).merch,
    ];
    const ledgerSales = items.reduce((sum, item) => sum + item.sales, 0);
    const ledgerRevenue = Math.round(items.reduce((sum, item) => sum + item.revenue * 100, 0)) / 100;
    expect([ledgerSales, ledgerRevenue]).toEqual([3, 40.99]);

    const { body } = await analytics(seller.client, { period: "7d" });
    expect(body.sales.total).toBe(ledgerSales);
    expect(body.revenue.total).toBe(ledgerRevenue);
    // The best sellers, each counted as a line: the album once (with its tracks' plays), merch, the single.
    expect(body.topSellers).toEqual([
      { kind: "merch", id: tee, track_id: null, title: "Tour Tee", sales: 1, revenue: 32.2, plays: 0, downloads: 0 },
      { kind: "album", id: album, track_id: null, title: "Night Album", sales: 1, revenue: 7.04, plays: 2, downloads: 0 },
      { kind: "single", id: expect.any(String), track_id: single, title: "Lone Single", sales: 1, revenue: 1.75, plays: 0, downloads: 0 },
    ]);
    expect(body.topSellers.reduce((sum: number, item: { sales: number }) => sum + item.sales, 0)).toBe(body.sales.total);
  });

  it("gives each artist their own figures only", async () => {
    const { body } = await analytics(other.client, { period: "7d" });
    expect(body.streams.total).toBe(100);
    expect(body.revenue.total).toBe(87.12);
    expect(body.topSellers.map((item: { track_id: string }) => item.track_id)).toEqual([tracks.others]);
    expect(body.geography).toEqual([{ country: "FR", plays: 100, downloads: 1 }]);
  });

  it("gives an artist with nothing yet zeros, and creates their analytics row with its defaults", async () => {
    const empty = await signedInClient(local, createArtist(local.stack.db, "Empty Artist"));
    const before = await local.stack.db.query("select 1 from public.analytics where artist_id = $1", [empty.id]);
    expect(before.rows).toHaveLength(0);
    const { status, body } = await analytics(empty.client, { period: "30d" });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      revenue: { total: 0, trend: 0 },
      streams: { total: 0, trend: 0 },
      topSellers: [],
      geography: [],
      embeds: [],
    });
    expect(body.history.every((point: { plays: number; revenue: number }) => point.plays === 0 && point.revenue === 0)).toBe(true);
    const after = await local.stack.db.query("select revenue, geography from public.analytics where artist_id = $1", [empty.id]);
    expect(after.rows).toEqual([{ revenue: { total: 0, trend: 0, history: [] }, geography: [] }]);
    // A second visit keeps the one row.
    await analytics(empty.client, { period: "7d" });
    expect((await local.stack.db.query("select 1 from public.analytics where artist_id = $1", [empty.id])).rows).toHaveLength(1);
  });

  it("refuses a fan, a visitor and a bad period", async () => {
    expect(await analytics(fan.client, { period: "30d" })).toEqual({ status: 403, body: { code: "not_an_artist" } });
    expect(await analytics(visitor, { period: "30d" })).toEqual({ status: 401, body: { code: "not_signed_in" } });
    expect(await analytics(artist.client, { period: "2y" })).toEqual({ status: 400, body: { code: "invalid_request" } });
    expect(await analytics(artist.client, {})).toEqual({ status: 400, body: { code: "invalid_request" } });
  });

  it("keeps the rollups readable by their artist only", async () => {
    const own = await artist.client.from("track_daily_stats").select("track_id");
    expect(own.error).toBeNull();
    expect(new Set(own.data?.map((row) => row.track_id))).toEqual(new Set([tracks.first, tracks.second]));
    expect((await other.client.from("country_daily_stats").select("country")).data?.map((row) => row.country)).toEqual(["FR"]);
    expect((await fan.client.from("track_daily_stats").select("track_id")).data).toEqual([]);
    expect((await visitor.from("track_daily_stats").select("track_id")).error?.code).toBe("42501");
    // Nobody writes them through the API, not even their artist.
    const forged = await artist.client
      .from("track_daily_stats")
      .insert({ artist_id: artist.id, track_id: tracks.first, day: "2026-01-01", plays: 1e6 });
    expect(forged.error?.code).toBe("42501");
    const inflated = await artist.client.from("country_daily_stats").update({ plays: 1e6 }).eq("artist_id", artist.id);
    expect(inflated.error?.code).toBe("42501");
    expect((await analytics(artist.client, { period: "7d" })).body.streams.total).toBe(5);
  });

  it("keeps the rollups in step when events go: a deleted track takes its figures with it", async () => {
    const db = local.stack.db;
    const track = await createTrack(db, artist.id, { title: "Short Lived" });
    await db.query(
      `insert into public.analytics_events (type, track_id, artist_id, country) select 'play', $1, $2, 'SE' from generate_series(1, 3)`,
      [track, artist.id],
    );
    expect((await analytics(artist.client, { period: "7d" })).body.streams.total).toBe(8);
    await db.query("delete from public.analytics_events where id = (select id from public.analytics_events where track_id = $1 limit 1)", [
      track,
    ]);
    expect((await analytics(artist.client, { period: "7d" })).body.geography).toContainEqual({ country: "SE", plays: 2, downloads: 0 });
    await db.query("delete from public.tracks where id = $1", [track]);
    const after = (await analytics(artist.client, { period: "7d" })).body;
    expect(after.streams.total).toBe(5);
    expect(after.geography.map((country: { country: string | null }) => country.country)).not.toContain("SE");
    expect((await db.query("select 1 from public.track_daily_stats where track_id = $1", [track])).rows).toHaveLength(0);
  });

  it("lists the sites that embed the artist's music by plays there, theirs alone, in step with the events", async () => {
    const db = local.stack.db;
    const track = await createTrack(db, artist.id, { title: "Travelling Song" });
    await db.query(
      `insert into public.analytics_events (type, track_id, artist_id, embedded_on, created_at)
       select 'play', $1, $2, t.origin, now() - make_interval(days => t.days_ago)
       from (values ('https://blog.example', 1), ('https://blog.example', 2), ('http://zine.example:8080', 3), ('https://old.example', 40))
         as t(origin, days_ago)`,
      [track, artist.id],
    );
    expect((await analytics(artist.client, { period: "30d" })).body.embeds).toEqual([
      { origin: "https://blog.example", plays: 2 },
      { origin: "http://zine.example:8080", plays: 1 },
    ]);
    expect((await analytics(artist.client, { period: "90d" })).body.embeds).toContainEqual({ origin: "https://old.example", plays: 1 });
    expect((await analytics(other.client, { period: "90d" })).body.embeds).toEqual([]);
    expect((await other.client.from("embed_daily_stats").select("origin")).data).toEqual([]);
    expect((await visitor.from("embed_daily_stats").select("origin")).error?.code).toBe("42501");
    const forged = await artist.client
      .from("embed_daily_stats")
      .insert({ artist_id: artist.id, day: "2026-01-01", origin: "https://x.example", plays: 9 });
    expect(forged.error?.code).toBe("42501");
    // Only another site's origin is stored: a page address, a script URL or a path is refused.
    for (const origin of ["https://blog.example/post", "javascript:alert(1)", "blog.example", "https://BLOG.example"]) {
      await expect(
        db.query(`insert into public.analytics_events (type, track_id, artist_id, embedded_on) values ('play', $1, $2, $3)`, [
          track,
          artist.id,
          origin,
        ]),
        origin,
      ).rejects.toMatchObject({ code: "23514" });
    }
    await db.query("delete from public.tracks where id = $1", [track]);
    expect((await analytics(artist.client, { period: "30d" })).body.embeds).toEqual([]);
  });
});
