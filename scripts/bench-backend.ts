// `npm run bench:backend`: throughput and latency of the local backend (supabase/local) for a few typical
// requests, on embedded PGlite (in memory) and on a throwaway PostgreSQL 15 server (lib/postgres.ts).
// Figures only: nothing passes or fails.
//
// The stack's HTTP server runs in this process; the load comes from a child process (this script with
// --load-generator), so the client never shares the server's event loop. The client sends a fixed number
// of requests per scenario (after a warm-up), `concurrency` at a time, with fetch's keep-alive connection
// pool, over loopback only; a scenario also stops at its time limit, so the whole bench stays within
// about three minutes. Requests/s = completed requests / wall time; p50/p99 = per-request latency.
// A first row measures a bare node:http server, the load generator's ceiling on this machine. Sign-in runs
// with the stack's /token rate limit lifted.
import { randomBytes } from "node:crypto";
import { fork, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import pg from "pg";
import { encodeWav } from "@crate/local-supabase/media";
import { startLocalStack, type LocalStack } from "@crate/local-supabase";
import { seedAnalyticsScale, seedFanScale } from "./lib/bench-analytics.ts";
import { largeTables, seedCatalogScale } from "./lib/bench-catalog.ts";
import { seedAnnouncementScale } from "./lib/bench-announcements.ts";
import { signJwt } from "@crate/local-supabase/testing";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./lib/postgres.ts";
import { marketplaceSecretHeader } from "../app/lib/http/backend-env.ts";

// `npm run bench:backend -- --analytics`: the analytics scale figures alone; `-- --catalog`: the public
// pages' backend calls at 100× the demo data alone.
const analyticsOnly = process.argv.includes("--analytics");
const catalogOnly = process.argv.includes("--catalog");
// `-- --announcements`: 200 releases out today announced to 10,000 followers (time, notices, queue messages).
const announcementsOnly = process.argv.includes("--announcements");
const catalogTargetMs = 20;
const analyticsTargetMs = 150;
const analyticsPeriods = ["7d", "30d", "90d", "1y"] as const;
const concurrency = 10;
const warmup = { requests: 200, ms: 5_000 };
const measured = { requests: 3_000, ms: 8_000 };
type Load = { warmup: { requests: number; ms: number }; measured: { requests: number; ms: number }; concurrency: number };
const throughput: Load = { warmup, measured, concurrency };
/** Latency as one person waits for it: one request at a time. */
const oneAtATime: Load = { warmup: { requests: 5, ms: 10_000 }, measured: { requests: 40, ms: 20_000 }, concurrency: 1 };
const target = { scenario: "REST GET one row (by primary key)", backend: "PostgreSQL 15", requestsPerSecond: 2_000 };

type RequestSpec = { method: string; url: string; headers: Record<string, string>; body?: string; expect: number };
type Job = { request: RequestSpec; requests: number; ms: number; concurrency: number };
type JobResult = { completed: number; failed: number; firstFailure?: string; wallMs: number; latenciesMs: number[] };

if (process.argv.includes("--load-generator")) {
  loadGenerator();
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------------
// The load generator (child process): runs one job per message and answers with its timings.

function loadGenerator(): void {
  process.on("message", async (job: Job) => {
    process.send?.(await runJob(job));
  });
  process.on("disconnect", () => process.exit(0));
}

async function runJob({ request, requests, ms, concurrency }: Job): Promise<JobResult> {
  const latenciesMs: number[] = [];
  let started = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const begin = performance.now();
  const deadline = begin + ms;
  const client = async () => {
    while (started < requests && performance.now() < deadline) {
      started++;
      const t = performance.now();
      try {
        const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
        const text = await response.text();
        if (response.status !== request.expect) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
        latenciesMs.push(performance.now() - t);
      } catch (error) {
        failed++;
        firstFailure ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return { completed: latenciesMs.length, failed, firstFailure, wallMs: performance.now() - begin, latenciesMs };
}

// ---------------------------------------------------------------------------------------------------
// The bench (parent process)

type Row = {
  backend: string;
  scenario: string;
  requests: number;
  failed: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  note?: string;
};

async function main(): Promise<void> {
  let postgres: ThrowawayPostgres | undefined;
  let local: LocalStack | undefined;
  const generator = fork(import.meta.filename, ["--load-generator"], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const rows: Row[] = [];
  let analyticsRows: AnalyticsRow[] = [];
  let catalogRows: CatalogRow[] = [];
  let exitCode = 0;
  try {
    console.log(
      `Load generator: a separate Node process (pid ${generator.pid}), ${concurrency} concurrent keep-alive fetches over loopback.`,
    );
    console.log(
      `The stack's HTTP server is one Node event loop in this process (PGlite runs inside it too; PostgreSQL in its own processes).`,
    );
    console.log(
      `Per scenario: ${warmup.requests} warm-up requests, then ${measured.requests} measured (at most ${measured.ms / 1000} s). ${availableParallelism()} CPUs on this machine.\n`,
    );

    if (!analyticsOnly && !catalogOnly && !announcementsOnly) {
      rows.push(await benchBaseline(generator));

      console.log("PGlite (in memory): starting the stack…");
      local = await startLocalStack({ port: 0, memory: true, seed: true, seedMedia: false, tokenRateLimit: { perFiveMinutes: 1e9 } });
      rows.push(...(await benchStack("PGlite", local, generator)));
      await local.close();
      local = undefined;
    }

    console.log("PostgreSQL 15 (throwaway server): starting the server and the stack…");
    postgres = await startThrowawayPostgres();
    const databaseUrl = new URL(postgres.url);
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query("create database bench");
    await admin.end();
    databaseUrl.pathname = "/bench";
    local = await startLocalStack({
      port: 0,
      dataDir: null,
      databaseUrl: databaseUrl.toString(),
      seed: true,
      seedMedia: false,
      tokenRateLimit: { perFiveMinutes: 1e9 },
    });
    if (catalogOnly) {
      catalogRows = await benchCatalog(local, generator);
    } else if (announcementsOnly) {
      await benchAnnouncements(local);
    } else {
      if (!analyticsOnly) rows.push(...(await benchStack("PostgreSQL 15", local, generator)));
      analyticsRows = await benchAnalytics(local, generator);
      rows.push(...(await benchFanLists(local, generator)));
    }
  } catch (error) {
    console.error(error);
    exitCode = 1;
  } finally {
    generator.disconnect();
    await local?.close();
    await postgres?.stop();
  }
  if (rows.length > 0) printTable(rows);
  if (analyticsRows.length > 0) printAnalytics(analyticsRows);
  if (catalogRows.length > 0) printCatalog(catalogRows);
  process.exit(exitCode);
}

// The harness's ceiling on this machine: a bare node:http server answering a fixed JSON body.
async function benchBaseline(generator: ChildProcess): Promise<Row> {
  const body = JSON.stringify([{ id: 1, title: "baseline" }]);
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    return await measure(generator, "baseline", "bare node:http, fixed JSON (no stack)", { method: "GET", url, headers: {}, expect: 200 });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function measure(generator: ChildProcess, backend: string, scenario: string, request: RequestSpec, load = throughput): Promise<Row> {
  await job(generator, { request, ...load.warmup, concurrency: load.concurrency });
  const result = await job(generator, { request, ...load.measured, concurrency: load.concurrency });
  const sorted = result.latenciesMs.sort((a, b) => a - b);
  const row: Row = {
    backend,
    scenario,
    requests: result.completed,
    failed: result.failed,
    rps: result.completed / (result.wallMs / 1000),
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    note: result.firstFailure,
  };
  const figure = load.concurrency === 1 ? `p50 ${row.p50.toFixed(1)} ms` : `${row.rps.toFixed(0)} req/s`;
  console.log(`  ${scenario}: ${figure}${row.failed ? ` (${row.failed} failed: ${row.note})` : ""}`);
  return row;
}

async function benchStack(backend: string, local: LocalStack, generator: ChildProcess): Promise<Row[]> {
  const { url, anonKey } = local;
  const { db } = local.stack;
  const anon = { apikey: anonKey, authorization: `Bearer ${anonKey}` };

  const signIn = async (email: string, password: string) => {
    const response = await fetch(`${url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { ...anon, "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    if (!response.ok) throw new Error(`sign-in as ${email}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as { access_token: string; user: { id: string } };
  };
  const fan = await signIn("fan@example.com", "fan-demo-pass");
  const artist = await signIn("artist@example.com", "artist-demo-pass");

  const track = (
    await db.query<{ id: string }>("select id from public.tracks where artist_id = $1 order by created_at, id limit 1", [artist.user.id])
  ).rows[0];
  if (!track) throw new Error("the seed has no track by the demo artist");

  // A small audio object in the artist's folder, uploaded as the artist (the app's upload path).
  const audioPath = `${artist.user.id}/bench.wav`;
  const upload = await fetch(`${url}/storage/v1/object/tracks/${audioPath}`, {
    method: "POST",
    headers: { apikey: anonKey, authorization: `Bearer ${artist.access_token}`, "content-type": "audio/wav", "x-upsert": "true" },
    body: wav(),
  });
  if (!upload.ok) throw new Error(`upload: HTTP ${upload.status} ${await upload.text()}`);

  const scenarios: { scenario: string; request: RequestSpec }[] = [
    {
      scenario: "REST select one row + embed (anon)",
      request: {
        method: "GET",
        url: `${url}/rest/v1/tracks?select=id,title,price,artist:artist_profiles(artist_name)&id=eq.${track.id}`,
        headers: anon,
        expect: 200,
      },
    },
    {
      scenario: target.scenario,
      request: { method: "GET", url: `${url}/rest/v1/tracks?select=*&id=eq.${track.id}`, headers: anon, expect: 200 },
    },
    {
      scenario: "REST insert a comment (fan's JWT)",
      request: {
        method: "POST",
        url: `${url}/rest/v1/comments`,
        headers: {
          apikey: anonKey,
          authorization: `Bearer ${fan.access_token}`,
          "content-type": "application/json",
          prefer: "return=minimal",
        },
        body: JSON.stringify({ content: "Benchmark comment", track_id: track.id }),
        expect: 201,
      },
    },
    {
      scenario: "Sign-in (password grant)",
      request: {
        method: "POST",
        url: `${url}/auth/v1/token?grant_type=password`,
        headers: { ...anon, "content-type": "application/json" },
        body: JSON.stringify({ email: "fan@example.com", password: "fan-demo-pass" }),
        expect: 200,
      },
    },
    {
      scenario: "Signed URL for track audio (artist)",
      request: {
        method: "POST",
        url: `${url}/storage/v1/object/sign/tracks/${audioPath}`,
        headers: { apikey: anonKey, authorization: `Bearer ${artist.access_token}`, "content-type": "application/json" },
        body: JSON.stringify({ expiresIn: 3600 }),
        expect: 200,
      },
    },
  ];
  const rows: Row[] = [];
  for (const { scenario, request } of scenarios) rows.push(await measure(generator, backend, scenario, request));
  return rows;
}

// ---------------------------------------------------------------------------------------------------
// Analytics at scale (issue: one artist with 1,000,000 plays and 100,000 purchases among 1,000 artists,
// the artist-analytics Edge Function's p50 at most 150 ms for each period), beside an artist with 100
// events. One request at a time: the figure is the latency an artist waits for, not throughput.

type CatalogRow = { row: Row; seqScans: string[] };

/**
 * Each public page's backend call as the Worker sends it (a visitor's anon key), one at a time, at 100×
 * the demo data; with the sequential scans of large tables it caused (pg_stat_user_tables, read before
 * and after).
 */
async function benchCatalog(local: LocalStack, generator: ChildProcess): Promise<CatalogRow[]> {
  console.log(
    "The catalog at 100×: writing 10,000 artists, 100,000 tracks (and a prolific artist's 2,000), 100,000 fans, 1,000,000 follows, 400,000 purchases, 5,000,000 plays…",
  );
  const scale = await seedCatalogScale(local.stack.db, console.log);
  console.log(`  written in ${scale.seconds.toFixed(0)} s`);
  const headers = { apikey: local.anonKey, authorization: `Bearer ${local.anonKey}` };
  const fanToken = signJwt(
    { role: "authenticated", aud: "authenticated", sub: scale.fan, exp: Math.floor(Date.now() / 1000) + 3600 },
    local.stack.config.jwtSecret,
  );
  const rest = (path: string, expect = 200): RequestSpec => ({ method: "GET", url: `${local.url}/rest/v1/${path}`, headers, expect });
  const rpc = (name: string, body: Record<string, unknown>): RequestSpec => ({
    method: "POST",
    url: `${local.url}/rest/v1/rpc/${name}`,
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
    expect: 200,
  });
  const calls: [string, RequestSpec][] = [
    ["home: home_page()", rpc("home_page", {})],
    ["discover: text", rpc("artist_directory", { search: "artist 12", include_genres: false })],
    ["discover: genres", rpc("artist_directory", { search: "", include_genres: false, any_genres: ["Jazz", "Metal"] })],
    ["discover: newest", rpc("artist_directory", { search: "", include_genres: false, newest: true })],
    ["genres: genre_counts", rest("genre_counts?select=genre,artist_count,track_count&order=total_count.desc,genre.asc")],
    ["genre artists: genre_page('Jazz')", rpc("genre_page", { genre: "Jazz" })],
    ["artists: search 'lantern'", rpc("artist_directory", { search: "lantern" })],
    ["artists: all, most followed, page 2", rpc("artist_directory", { search: "", page: 2 })],
    ["artist: artist_page (most followed)", rpc("artist_page", { artist_id: scale.popularArtist })],
    ["artist: artist_page (2,000 tracks), page 2", rpc("artist_page", { artist_id: scale.prolificArtist, release_page: 2 })],
    ["fan: fan_page", rpc("fan_page", { fan_id: scale.fan })],
    // Signed in as the bench's fan (10 follows, 4 purchases, 50 likes, 200 plays): their dashboard with
    // the recommendations; a release page's "fans who bought this also bought" of the most bought release.
    [
      "fan dashboard: fan_dashboard() with recommendations",
      { ...rpc("fan_dashboard", {}), headers: { ...headers, authorization: `Bearer ${fanToken}`, "content-type": "application/json" } },
    ],
    ["release: also_bought (the most bought release)", rpc("also_bought", { release_id: scale.boughtRelease })],
    ["release: supported_by (the most bought release)", rpc("supported_by", { release_id: scale.boughtRelease })],
    [
      "track: the track with its artist",
      rest(
        `tracks?select=id,title,release:releases(id,kind,title),track_number,genre,subgenre,price,description,label,release_date,artwork_url,peaks,duration_seconds,artist:artist_profiles(id,artist_name,profile_image_url)&id=eq.${scale.popularTrack}`,
      ),
    ],
    [
      "track: its comments",
      rest(
        `track_comments?select=id,user_id,content,created_at,author_name&track_id=eq.${scale.popularTrack}&order=created_at.desc,id.asc&limit=5`,
      ),
    ],
    [
      "header search: 'scale art'",
      rest(
        "artist_profiles?select=id,artist_name,profile_image_url,genres&artist_name=ilike.*scale%20art*&order=follower_count.desc,artist_name.asc&limit=8",
      ),
    ],
  ];
  const seqScans = async () => {
    const { rows } = await local.stack.db.query<{ relname: string; seq_scan: string }>(
      "select relname, seq_scan from pg_stat_user_tables where schemaname in ('public', 'private') and relname = any($1)",
      [largeTables],
    );
    return new Map(rows.map((row) => [row.relname, Number(row.seq_scan)]));
  };
  const results: CatalogRow[] = [];
  for (const [scenario, request] of calls) {
    const before = await seqScans();
    const row = await measure(generator, "PostgreSQL 15, 100×", scenario, request, oneAtATime);
    // PostgreSQL's backends report their scans at most once a second: wait for the last report (a bench,
    // not a test), then read afresh.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await local.stack.db.query("select pg_stat_clear_snapshot()");
    const after = await seqScans();
    const scanned = [...after].filter(([table, count]) => count > (before.get(table) ?? 0)).map(([table]) => table);
    results.push({ row, seqScans: scanned });
  }
  return results;
}

/**
 * The announcement job at scale: 200 releases out today, one of them followed by 10,000 fans, announced
 * by the job's calls as the Worker makes them (50 releases a call, through the marketplace's secret), each
 * call timed; then the notices written and the mails made (each one queue message).
 */
async function benchAnnouncements(local: LocalStack): Promise<void> {
  console.log("Announcements: writing 200 artists, 10,000 fans and their follows, 200 releases out today…");
  const scale = await seedAnnouncementScale(local.stack.db, console.log);
  const secret = randomBytes(32).toString("hex");
  await local.stack.db.query("select private.trust_marketplace_secret($1)", [secret]);
  const call = async () => {
    const started = performance.now();
    const response = await fetch(`${local!.url}/rest/v1/rpc/announce_releases`, {
      method: "POST",
      headers: {
        apikey: local!.anonKey,
        authorization: `Bearer ${local!.anonKey}`,
        "content-type": "application/json",
        [marketplaceSecretHeader]: secret,
      },
      body: JSON.stringify({ max_releases: 50 }),
    });
    if (!response.ok) throw new Error(`announce_releases answered ${response.status}: ${await response.text()}`);
    const answer = (await response.json()) as { announced: string[]; mails: string[]; more: boolean };
    return { ms: performance.now() - started, announced: answer.announced.length, mails: answer.mails.length, more: answer.more };
  };
  const calls: { ms: number; announced: number; mails: number }[] = [];
  for (let made = 0; made < 20; made++) {
    const done = await call();
    calls.push(done);
    if (!done.more) break;
  }
  const again = await call();
  const { rows } = await local.stack.db.query<{ notices: string; items: string; mails: string; biggest: string; waiting: string }>(
    `select (select count(*) from public.notifications where kind = 'release') as notices,
       (select count(*) from private.announcement_items) as items,
       (select count(*) from private.mails where kind = 'releases') as mails,
       (select max(n) from (select count(*) as n from private.announcement_items where mail_id is not null group by mail_id) m) as biggest,
       (select count(distinct email) from private.announcement_items where mail_id is null) as waiting`,
  );
  const figures = rows[0]!;
  const total = calls.reduce((sum, done) => sum + done.ms, 0);
  console.log(
    `\nAnnouncing ${scale.releases} releases out today to their followers (one release followed by ${scale.followers.toLocaleString("en-US")} fans; the first 100 fans follow all ${scale.releases}), as the job calls announce_releases (at most 50 releases and 2,500 people a call, a big audience told over several; the marketplace's role has a 3 s statement timeout):`,
  );
  console.log("| call | releases announced | mails made (queue messages) | ms |");
  console.log("|---|---|---|---|");
  calls.forEach((done, index) => console.log(`| ${index + 1} | ${done.announced} | ${done.mails} | ${done.ms.toFixed(0)} |`));
  console.log(`| the job run again | ${again.announced} | ${again.mails} | ${again.ms.toFixed(0)} |`);
  console.log(
    `In all ${(total / 1000).toFixed(1)} s: ${Number(figures.notices).toLocaleString("en-US")} notifications and ${Number(figures.items).toLocaleString("en-US")} mail items; ${Number(figures.mails).toLocaleString("en-US")} mails now (one queue message each, the largest telling of ${figures.biggest} releases), and ${figures.waiting} addresses whose other releases wait for one digest an hour on (at most one release mail an hour): one message an address, not one a release.`,
  );
}

function printCatalog(rows: CatalogRow[]): void {
  console.log(
    `\nThe public pages' backend calls at 100× the demo data (goal: p50 within ${catalogTargetMs} ms, no sequential scan of a large table)`,
  );
  console.log("| call | p50 ms | p95 ms | within goal | sequential scans |");
  console.log("|---|---|---|---|---|");
  for (const { row, seqScans } of rows) {
    const ok = row.p50 <= catalogTargetMs && seqScans.length === 0 && row.failed === 0;
    console.log(
      `| ${row.scenario} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${ok ? "yes" : "no"} | ${seqScans.join(", ") || "none"} |`,
    );
  }
}

type AnalyticsRow = { period: string; big: Row; small: Row };

async function benchAnalytics(local: LocalStack, generator: ChildProcess): Promise<AnalyticsRow[]> {
  console.log("Analytics at scale: writing 1,000 artists, 1.25 million plays and 100,000 purchases with their downloads…");
  const started = performance.now();
  const { big, small } = await seedAnalyticsScale(local.stack.db, local.stack.config.jwtSecret);
  console.log(`  written in ${((performance.now() - started) / 1000).toFixed(0)} s (rollups kept by the database's triggers)`);
  const call = (token: string, period: string): RequestSpec => ({
    method: "POST",
    url: `${local.url}/functions/v1/artist-analytics`,
    headers: { apikey: local.anonKey, authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ period }),
    expect: 200,
  });
  const latency = (scenario: string, request: RequestSpec) => measure(generator, "PostgreSQL 15", scenario, request, oneAtATime);
  const rows: AnalyticsRow[] = [];
  for (const period of analyticsPeriods) {
    rows.push({
      period,
      big: await latency(`analytics ${period}, ${big.label}`, call(big.token, period)),
      small: await latency(`analytics ${period}, ${small.label}`, call(small.token, period)),
    });
  }
  return rows;
}

/** The fan space's reads, as the fan's pages send them, for a fan with 10,000 plays and 1,000 purchases. */
async function benchFanLists(local: LocalStack, generator: ChildProcess): Promise<Row[]> {
  const fan = await seedFanScale(local.stack.db, local.stack.config.jwtSecret);
  const headers = { apikey: local.anonKey, authorization: `Bearer ${fan.token}` };
  const track = "track:tracks(id,title,artwork_url,artwork_small_url,artist:artist_profiles(id,artist_name))";
  const since = new Date(Date.now() - 30 * 86_400_000).toISOString();
  const reads: [string, RequestSpec][] = [
    [
      "fan_dashboard() (counts, library, recommendations)",
      {
        method: "POST",
        url: `${local.url}/rest/v1/rpc/fan_dashboard`,
        headers: { ...headers, "content-type": "application/json" },
        body: "{}",
        expect: 200,
      },
    ],
    [
      "Purchased: newest 50 with the count",
      {
        method: "GET",
        url: `${local.url}/rest/v1/purchases?select=id,amount,created_at,${track}&user_id=eq.${fan.id}&order=created_at.desc&limit=50`,
        headers: { ...headers, prefer: "count=exact" },
        // A page of a longer list, with its count: PostgREST's Partial Content.
        expect: 206,
      },
    ],
    [
      "Recently Played: last 30 days, newest 30",
      {
        method: "GET",
        url: `${local.url}/rest/v1/analytics_events?select=id,created_at,${track}&user_id=eq.${fan.id}&type=eq.play&created_at=gte.${since}&order=created_at.desc&limit=30`,
        headers,
        expect: 200,
      },
    ],
    [
      "Liked Songs: newest 50 with the count",
      {
        method: "GET",
        url: `${local.url}/rest/v1/likes?select=created_at,${track}&user_id=eq.${fan.id}&order=created_at.desc&limit=50`,
        headers: { ...headers, prefer: "count=exact" },
        // A page of a longer list, with its count: PostgREST's Partial Content.
        expect: 206,
      },
    ],
  ];
  const rows: Row[] = [];
  for (const [scenario, request] of reads)
    rows.push(await measure(generator, "PostgreSQL 15", `fan with 10k plays: ${scenario}`, request, oneAtATime));
  return rows;
}

function printAnalytics(rows: AnalyticsRow[]): void {
  console.log(`\nartist-analytics Edge Function on PostgreSQL 15, one request at a time (JWT check, Deno, PostgREST, artist_analytics()):`);
  console.log("period  artist with 1M plays, 100k sales: p50 / p99 ms   artist with 100 events: p50 / p99 ms");
  for (const { period, big, small } of rows) {
    const cell = (row: Row) => `${row.p50.toFixed(1)} / ${row.p99.toFixed(1)}${row.failed ? ` (${row.failed} failed)` : ""}`;
    console.log(`${period.padEnd(6)}  ${cell(big).padStart(43)}   ${cell(small).padStart(37)}`);
  }
  const worst = Math.max(...rows.map((row) => row.big.p50));
  console.log(`Target (issue): p50 ≤ ${analyticsTargetMs} ms for each period → worst measured p50 ${worst.toFixed(1)} ms`);
}

function job(generator: ChildProcess, job: Job): Promise<JobResult> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code})`));
    generator.once("exit", onExit);
    generator.once("message", (result) => {
      generator.off("exit", onExit);
      resolve(result as JobResult);
    });
    generator.send(job);
  });
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
}

// A tenth of a second of silence: a valid WAV file the tracks bucket accepts.
const wav = () => encodeWav(new Float32Array(800), 8000);

function printTable(rows: Row[]): void {
  const header = ["backend", "scenario", "requests", "req/s", "p50 ms", "p99 ms"];
  const lines = rows.map((row) => [
    row.backend,
    row.scenario,
    row.failed ? `${row.requests} (+${row.failed} failed)` : String(row.requests),
    row.rps.toFixed(0),
    row.p50.toFixed(2),
    row.p99.toFixed(2),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  const format = (cells: string[]) => cells.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join("  ");
  console.log(`\n${format(header)}\n${widths.map((w) => "-".repeat(w)).join("  ")}`);
  for (const line of lines) console.log(format(line));

  const goal = rows.find((row) => row.backend === target.backend && row.scenario === target.scenario);
  if (goal) {
    console.log(
      `\nTarget (issue): ${target.scenario} on ${target.backend} ≥ ${target.requestsPerSecond.toLocaleString("en")} req/s on one core` +
        ` → measured ${goal.rps.toFixed(0)} req/s (p50 ${goal.p50.toFixed(2)} ms, p99 ${goal.p99.toFixed(2)} ms)`,
    );
  }
}
