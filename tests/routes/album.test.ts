// The album page as a browser without JavaScript sees it, rendered by the built Worker against the demo
// data: its tracklist, price and Buy dialog, who may see an album still to come, where a single's
// release address leads, and the links that lead to it from the artist page and the track page.
import { afterAll, describe, expect, it } from "vitest";
import { Visitor, albumId, serviceClient, signedIn, text, title, trackId } from "./support.ts";

const emberRoad = "a1000000-0000-4000-8000-000000000001";
const paperLanterns = "a1000000-0000-4000-8000-000000000012";
const headlights = albumId("Headlights & Static");
const visitor = new Visitor();
const made: string[] = [];

afterAll(async () => {
  if (made.length > 0) await serviceClient.from("releases").delete().in("id", made);
});

describe("the album page", () => {
  it("shows the album, its artist, its tracks in order with their lengths, its own price, in one backend round trip", async () => {
    // Rendered afresh (another file's visit may have left it in the Workers cache, which answers without timings).
    const { response, html } = await visitor.request(`/album/${headlights}`, { headers: { "Cache-Control": "no-cache" } });
    expect(response.status).toBe(200);
    expect(title(html)).toBe("Headlights &amp; Static by Ember Road · Crate");
    expect(html).toMatch(/<h1[^>]*>Headlights &amp; Static<\/h1>/);
    expect(html).toContain(`href="/artist/${emberRoad}"`);
    const page = text(html);
    expect(page).toContain("By Ember Road · 4 tracks");
    // The album's own price, below the sum of its tracks' (4 × $1.29).
    expect(page).toContain("Buy Now - $4.49");
    expect(page).toMatch(/Release Date \w+ \d+, \d{4} Genre Rock Label Rust Belt Records/);
    const tracklist = /<ol aria-label="Tracks of Headlights &amp; Static"[\s\S]*?<\/ol>/.exec(html)![0];
    expect([...tracklist.matchAll(/href="\/track\/([^"]+)"[^>]*>([^<]+)</g)].map((match) => [match[1], match[2]])).toEqual(
      ["Open Highway", "Static on the Radio", "Gasoline Heart", "Porch Light"].map((name) => [trackId(name), name]),
    );
    expect(html).toContain('alt="Artwork for Headlights &amp; Static"');
    expect(response.headers.get("server-timing")).toMatch(/"1 round trip/);
  });

  it("costs the sum of its tracks when its artist set no price of its own, and opens Buy without JavaScript", async () => {
    const { html } = await visitor.get(`/album/${albumId("Small Victories")}?buy=1`);
    const page = text(html);
    expect(page).toContain("Buy Now - $3.87");
    expect(page).toContain("Complete Purchase");
    expect(page).toContain("Buy now Add to cart");
    expect(html).toMatch(/<dialog[^>]*open=""/);
  });

  it("is linked from its card on the artist page and from its tracks' album box", async () => {
    const artist = await visitor.get(`/artist/${emberRoad}`);
    expect(artist.html).toContain(`href="/album/${headlights}"`);
    const track = await visitor.get(`/track/${trackId("Porch Light")}`);
    expect(text(track.html)).toContain("From the album Headlights & Static Track 4");
    expect(track.html).toContain(`href="/album/${headlights}"`);
  });

  it("leads a single's release to its track, and answers Album not found for anything else", async () => {
    const { data } = await serviceClient.from("tracks").select("release_id").eq("id", trackId("Kites Over the Clyde")).single();
    const single = await visitor.get(`/album/${data!.release_id}`);
    expect(single.response.status).toBe(301);
    expect(single.response.headers.get("location")).toBe(`/track/${trackId("Kites Over the Clyde")}`);
    for (const path of ["/album/not-an-id", `/album/${crypto.randomUUID()}`, `/album/${trackId("Porch Light")}`]) {
      const missing = await visitor.get(path);
      expect(missing.response.status, path).toBe(404);
      expect(text(missing.html)).toContain("Album not found");
    }
  });

  it("keeps an album still to come to its artist, who sees it listed but not playable", async () => {
    const { data: album } = await serviceClient
      .from("releases")
      .insert({ artist_id: paperLanterns, kind: "album", title: "Next Winter" })
      .select("id")
      .single();
    made.push(album!.id);
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const { error } = await serviceClient.from("tracks").insert(
      ["Frost", "Thaw"].map((name, index) => ({
        release_id: album!.id,
        artist_id: paperLanterns,
        title: name,
        track_number: index + 1,
        genre: "Indie",
        price: 1.29,
        description: "Soon",
        release_date: soon,
      })),
    );
    expect(error).toBeNull();
    const path = `/album/${album!.id}`;
    expect((await visitor.get(path)).response.status).toBe(404);
    expect((await (await signedIn("fan@example.com", "fan-demo-pass")).get(path)).response.status).toBe(404);
    const own = await (await signedIn("artist@example.com", "artist-demo-pass")).get(path);
    expect(own.response.status).toBe(200);
    expect(text(own.html)).toContain("Next Winter");
    expect(own.html).not.toContain('aria-label="Play Frost"');
  });
});
