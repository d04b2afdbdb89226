// Insert-to-screen latency of the artist dashboard's live Recent Activity, in Chromium against a running
// marketplace: the demo artist's dashboard is open (subscribed through Realtime), a comment on one of their
// tracks is written through the service role, and the time until it shows in the feed is taken, a few
// times in a row. The clock is this process's: from before the insert to the moment the text is on screen.
import { createClient } from "@supabase/supabase-js";
import { localDefaults } from "@crate/local-supabase";
import { launchBrowser, logIn } from "../../tests/e2e/support/browser.ts";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";

export const liveFeedTargetMs = 1000;
const demoArtist = { id: "a1000000-0000-4000-8000-000000000012", email: "artist@example.com", password: "artist-demo-pass" };
const demoFan = "f0000000-0000-4000-8000-000000000001";

export async function measureLiveFeed({ appUrl, supabaseUrl }: { appUrl: string; supabaseUrl: string }, runs = 10): Promise<number[]> {
  const service = createClient(supabaseUrl, localDefaults.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  // A released track: fans can comment only on those.
  const { data: track, error } = await service
    .from("tracks")
    .select("id")
    .eq("artist_id", demoArtist.id)
    .lte("release_date", new Date().toISOString().slice(0, 10))
    .order("title")
    .limit(1)
    .single();
  if (error || !track) throw new Error(`bench: no track of the demo artist (${error?.message})`);

  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ baseURL: appUrl })).newPage();
    const subscribed = new Promise<void>((resolve) =>
      page.on("websocket", (socket) =>
        socket.on("framereceived", ({ payload }) => {
          // The dashboard's own channel (the header's bell joins one of its own).
          if (String(payload).includes("phx_reply") && String(payload).includes("artist-activity")) resolve();
        }),
      ),
    );
    await page.goto("/login");
    await logIn(page, demoArtist.email, demoArtist.password);
    await page.waitForURL((url) => url.pathname === "/dashboard/artist");
    await subscribed;
    const feed = page.getByRole("region", { name: "Recent Activity" });
    const latencies: number[] = [];
    for (let run = 0; run < runs; run++) {
      const words = `Live feed bench ${run} ${Date.now().toString(36)}`;
      const started = performance.now();
      const inserted = await service.from("comments").insert({ track_id: track.id, user_id: demoFan, content: words });
      if (inserted.error) throw new Error(`bench: the comment was refused (${inserted.error.message})`);
      await feed.getByText(words).waitFor({ timeout: 10_000 });
      latencies.push(performance.now() - started);
    }
    await service.from("comments").delete().like("content", "Live feed bench %");
    return latencies;
  } finally {
    await browser.close();
  }
}

export function printLiveFeed(latencies: number[]): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const max = sorted.at(-1) ?? NaN;
  console.log(
    `\nLive Recent Activity (Chromium, the demo artist's dashboard): a comment inserted → on screen, ${latencies.length} runs: p50 ${p50.toFixed(0)} ms, max ${max.toFixed(0)} ms (target p50 ≤ ${liveFeedTargetMs} ms: ${p50 <= liveFeedTargetMs ? "met" : "not met"}).`,
  );
}

// Publish-to-bell latency: a new fan, who follows a new artist, has a page open (its bell subscribed
// through Realtime); the artist's release out today is written and the announcement job asked for, as
// publishing does right after it answers; the time until the fan's bell counts it is taken. The clock is
// this process's: from before the release is written to the moment the new count is on screen.
export async function measurePublishToBell(
  { appUrl, supabaseUrl, marketplaceSecret }: { appUrl: string; supabaseUrl: string; marketplaceSecret: string },
  runs = 10,
): Promise<number[]> {
  const service = createClient(supabaseUrl, localDefaults.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const stamp = Date.now().toString(36);
  const account = async (metadata: Record<string, unknown>) => {
    const email = `bell-bench-${metadata.role}-${stamp}@example.com`;
    const made = await service.auth.admin.createUser({ email, password: "a-long-password", email_confirm: true, user_metadata: metadata });
    if (made.error || !made.data.user) throw new Error(`bench: making an account failed (${made.error?.message})`);
    return { id: made.data.user.id, email };
  };
  const artist = await account({ role: "artist", artist_name: `Bell Bench ${stamp}`, paypal_email: "pay@example.com", genres: [] });
  const fan = await account({ role: "fan", username: `bellbench${stamp}`, favorite_genres: [] });
  const follows = await service.from("followers").insert({ artist_id: artist.id, fan_id: fan.id });
  if (follows.error) throw new Error(`bench: the fan could not follow the artist (${follows.error.message})`);
  const browser = await launchBrowser();
  try {
    const page = await (await browser.newContext({ baseURL: appUrl })).newPage();
    await page.goto("/login");
    await logIn(page, fan.email, "a-long-password");
    await page.waitForURL((url) => url.pathname === "/dashboard/fan");
    await page.goto("/discover");
    await page.locator("a[data-live]").waitFor({ state: "attached" });
    const latencies: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const started = performance.now();
      const track = await service.from("tracks").insert({
        artist_id: artist.id,
        title: `Bell bench ${run}`,
        genre: "Folk",
        price: 1,
        description: "A bench release",
        release_date: new Date().toISOString().slice(0, 10),
      });
      if (track.error) throw new Error(`bench: the release was refused (${track.error.message})`);
      const job = await fetch(new URL("/announcements", appUrl), {
        method: "POST",
        headers: { [marketplaceSecretHeader]: marketplaceSecret },
      });
      if (!job.ok) throw new Error(`bench: the announcement job answered ${job.status}`);
      await page.getByRole("link", { name: `Notifications, ${run} unread` }).waitFor({ timeout: 10_000 });
      latencies.push(performance.now() - started);
    }
    return latencies;
  } finally {
    await browser.close();
    // The bench's accounts go, with their releases, notices and mail items.
    await service.auth.admin.deleteUser(fan.id);
    await service.auth.admin.deleteUser(artist.id);
  }
}

export function printPublishToBell(latencies: number[]): void {
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  console.log(
    `\nPublish → bell (Chromium, a fan following an artist): a release out today written and announced → the fan's bell counts it, ${latencies.length} runs: p50 ${p50.toFixed(0)} ms, max ${(sorted.at(-1) ?? NaN).toFixed(0)} ms (target: within a second: ${p50 <= liveFeedTargetMs ? "met" : "not met"}).`,
  );
}
