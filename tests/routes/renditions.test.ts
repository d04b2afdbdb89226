// The operator's command route (`npm run renditions`): it queues streams only for a request carrying the
// Worker's own secret, and says how many it queued.
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { appUrl, marketplaceHeaders, newArtist, serviceClient } from "./support.ts";

const secret = inject("marketplaceSecret");

const queue = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(new URL("/renditions", appUrl), {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("/renditions", () => {
  it("answers nobody without the marketplace's secret: a visitor, a signed-in artist, a wrong secret", async () => {
    expect((await queue({ all: true })).status).toBe(401);
    expect((await queue({ all: true }, marketplaceHeaders(`${secret}x`))).status).toBe(401);
    const artist = await newArtist("Not The Operator");
    const { response } = await artist.visitor.request("/renditions", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ all: true }),
    });
    expect(response.status).toBe(401);
  });

  it("refuses a body that names no tracks", async () => {
    for (const body of [{}, { trackIds: [] }, { trackIds: ["not-a-track"] }, { all: false }]) {
      expect((await queue(body, marketplaceHeaders())).status, JSON.stringify(body)).toBe(400);
    }
  });

  it("queues the tracks it is given, and with --all every track without a stream of the current format", async () => {
    const artist = await newArtist("Backlog Artist");
    const { data: track } = await serviceClient
      .from("tracks")
      .insert({
        artist_id: artist.id,
        title: "Waiting",
        genre: "Indie",
        price: 1.5,
        description: "No stream yet",
        file_url: `${artist.id}/a.wav`,
      })
      .select("id")
      .single();
    const named = await queue({ trackIds: [track!.id] }, marketplaceHeaders());
    expect(await named.json()).toEqual({ queued: 1 });
    const all = await queue({ all: true }, marketplaceHeaders());
    expect(all.status).toBe(200);
    const { queued } = (await all.json()) as { queued: number };
    // Route tests run on the demo data without media, so the tracks with audio are the tests' own.
    const { count } = await serviceClient.from("tracks").select("id", { count: "exact", head: true }).not("file_url", "is", null);
    expect(queued).toBeGreaterThanOrEqual(1);
    expect(queued).toBeLessThanOrEqual(count ?? 0);
  });
});
