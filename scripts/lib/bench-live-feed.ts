// Insert-to-screen latency of the artist dashboard's live Recent Activity, in Chromium against a running
// marketplace: the demo artist's dashboard is open (subscribed through Realtime), a comment on one of their
// tracks is written through the service role, and the time until it shows in the feed is taken, a few
// times in a row. The clock is this process's: from before the insert to the moment the text is on screen.
import { createClient } from "@supabase/supabase-js";
import { localDefaults } from "@crate/local-supabase";
import { launchBrowser, logIn } from "../../tests/e2e/support/browser.ts";

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
          if (String(payload).includes("phx_reply") && String(payload).includes("postgres_changes")) resolve();
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
