// A fan's collection and wishlist on their page, "Add to wishlist" on a release's page, what a fan keeps off
// their page, and "Supported by" on release and track pages, as a browser without JavaScript sees them:
// plain form posts, each answered with a redirect back or a reply in the page.
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, albumId, newArtist, newFan, serviceClient, signedIn, text, trackId } from "./support.ts";

const riley = "f0000000-0000-4000-8000-000000000001"; // the demo fan, 'rileyspins'
let demoFan: Visitor;

beforeAll(async () => {
  demoFan = await signedIn("fan@example.com", "fan-demo-pass");
});

/** A page as a visitor sees it now, not as the shared cache kept it a moment ago. */
const fresh = (path: string) => new Visitor().request(path, { headers: { "Cache-Control": "no-cache" } });

/** The part of a page under one heading (its section), as text. */
function section(html: string, id: string) {
  const start = html.indexOf(`id="${id}"`);
  if (start < 0) return "";
  const end = html.indexOf("</section>", start);
  return text(html.slice(start, end));
}

const releaseOf = async (track: string) =>
  (await serviceClient.from("tracks").select("release_id").eq("id", trackId(track)).single()).data!.release_id;

describe("the wishlist", () => {
  it("adds and removes an album and a single with forms that work without JavaScript, listed on the fan's page newest first", async () => {
    const fan = await newFan("wisher");
    const album = albumId("Headlights & Static");
    const single = await releaseOf("Burn the Map");
    const page = await fan.visitor.get(`/album/${album}`);
    expect(page.html).toContain(`action="/release/${album}/wishlist"`);
    expect(text(page.html)).toContain("Add to wishlist");

    const added = await fan.visitor.post(`/release/${album}/wishlist`, { intent: "add" });
    expect(added.response.status).toBe(303);
    expect(added.response.headers.get("location")).toBe(`/album/${album}`);
    expect(text((await fan.visitor.get(`/album/${album}`)).html)).toContain("Remove from wishlist");
    // Twice is still once.
    expect((await fan.visitor.post(`/release/${album}/wishlist`, { intent: "add" })).response.status).toBe(303);

    // A single's form comes from its track's page, and goes back there.
    const fromTrack = await fan.visitor.post(`/release/${single}/wishlist`, { intent: "add", track: trackId("Burn the Map") });
    expect(fromTrack.response.headers.get("location")).toBe(`/track/${trackId("Burn the Map")}`);
    expect(text((await fan.visitor.get(`/track/${trackId("Burn the Map")}`)).html)).toContain("Remove from wishlist");

    const shown = section((await fresh(`/fan/${fan.id}`)).html, "wishlist");
    expect(shown).toMatch(/Burn the Map.*Headlights & Static/);

    await fan.visitor.post(`/release/${album}/wishlist`, { intent: "remove" });
    const after = section((await fresh(`/fan/${fan.id}`)).html, "wishlist");
    expect(after).not.toContain("Headlights & Static");
    expect(after).toContain("Burn the Map");
  });

  it("offers a visitor to sign in and come back, refuses an artist, an unknown release and a bad intent", async () => {
    const album = albumId("Headlights & Static");
    const page = await fresh(`/album/${album}`);
    expect(page.html).toContain(`href="/login?redirectTo=%2Falbum%2F${album}"`);
    expect(text(page.html)).toContain("Sign in to add to your wishlist");
    const visitor = await new Visitor().post(`/release/${album}/wishlist`, { intent: "add" });
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=%2Falbum%2F${album}`);

    const artist = await newArtist("Wishless Artist");
    expect((await artist.visitor.post(`/release/${album}/wishlist`, { intent: "add" })).response.status).toBe(403);
    expect(text((await artist.visitor.get(`/album/${album}`)).html)).not.toContain("wishlist");

    const fan = await newFan("wishcheck");
    expect((await fan.visitor.post(`/release/${crypto.randomUUID()}/wishlist`, { intent: "add" })).response.status).toBe(404);
    expect((await fan.visitor.post("/release/not-a-release/wishlist", { intent: "add" })).response.status).toBe(404);
    const refused = await fan.visitor.post(`/release/${album}/wishlist`, { intent: "keep", fetcher: "1" });
    expect(refused.response.status).toBe(400);
    // With JavaScript the reply is read in place.
    const inPlace = await fan.visitor.post(`/release/${album}/wishlist`, { intent: "add", fetcher: "1" });
    expect(inPlace.response.status).toBe(200);
  });
});

describe("what a fan's page shows", () => {
  it("is linked from the fan's dashboard", async () => {
    expect((await demoFan.get("/dashboard/fan")).html).toContain(`href="/fan/${riley}#wishlist"`);
  });

  it("shows the demo fan's collection with covers linking to each release, and their wishlist", async () => {
    const { response, html } = await fresh(`/fan/${riley}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(/\b1 round trip\b/);
    const { data: owned } = await serviceClient.from("purchases").select("track:tracks(release_id)").eq("user_id", riley);
    // Many purchases to one track: an object each (the generated types cannot tell).
    const releases = new Set(owned!.map((row) => (row.track as unknown as { release_id: string }).release_id));
    const collection = html.slice(html.indexOf('id="collection"'), html.indexOf('id="wishlist"'));
    for (const release of releases) expect(collection).toContain(`href="/album/${release}"`);
    expect(section(html, "collection")).toContain(`(${releases.size})`);
    const { count } = await serviceClient.from("wishlist").select("release_id", { count: "exact", head: true }).eq("fan_id", riley);
    expect(count).toBeGreaterThan(0);
    expect(section(html, "wishlist")).toContain(`(${count})`);
  });

  it("keeps the collection and the wishlist off the page when the fan says so (their profile's form), for others alone", async () => {
    const fan = await newFan("private-one");
    await fan.visitor.post(`/release/${albumId("Headlights & Static")}/wishlist`, { intent: "add" });
    const saved = await fan.visitor.post("/dashboard/fan/profile", { intent: "page", showCollection: "on" });
    expect(saved.response.status).toBe(200);
    expect(text(saved.html)).toContain("Saved. Your page shows what you chose.");
    const form = (await fan.visitor.get("/dashboard/fan/profile")).html;
    expect(form.match(/<input[^>]*name="showWishlist"[^>]*>/)![0]).not.toContain("checked");
    expect(form.match(/<input[^>]*name="showCollection"[^>]*>/)![0]).toContain("checked");

    const seen = await fresh(`/fan/${fan.id}`);
    expect(section(seen.html, "wishlist")).toContain("private-one keeps their wishlist private.");
    expect(section(seen.html, "wishlist")).not.toContain("Headlights & Static");
    const own = await fan.visitor.get(`/fan/${fan.id}`);
    expect(section(own.html, "wishlist")).toContain("Only you see your wishlist.");
    expect(section(own.html, "wishlist")).toContain("Headlights & Static");

    await fan.visitor.post("/dashboard/fan/profile", { intent: "page", showCollection: "on", showWishlist: "on" });
    expect(section((await fresh(`/fan/${fan.id}`)).html, "wishlist")).toContain("Headlights & Static");
  });

  it("hides a single purchase from the fan's page and its supporters from Purchased, and shows it again", async () => {
    // A release the demo fan paid for: their newest paid, unrefunded line.
    const { data: orders } = await serviceClient.from("orders").select("id").eq("buyer_id", riley).eq("state", "paid");
    const { data: line } = await serviceClient
      .from("order_lines")
      .select("item_id")
      .in(
        "order_id",
        orders!.map((order) => order.id),
      )
      .eq("kind", "track")
      .is("refunded_at", null)
      .limit(1)
      .single();
    const track = line!.item_id!;
    const { data: bought } = await serviceClient.from("tracks").select("release_id, title").eq("id", track).single();
    const release = bought!.release_id;
    const fanLink = `href="/fan/${riley}"`;
    expect((await fresh(`/track/${track}`)).html).toContain(fanLink);
    expect(section((await fresh(`/track/${track}`)).html, "supported-by")).toContain("rileyspins");

    const purchased = await demoFan.get("/dashboard/fan/purchased");
    expect(purchased.html).toContain(`name="releaseId" value="${release}"`);
    const hidden = await demoFan.post("/dashboard/fan/purchased", { releaseId: release, hide: "hide" });
    expect(hidden.response.status).toBe(200);
    expect(text(hidden.html)).toContain("Hidden from your page and from its supporters.");
    expect(text(hidden.html)).toContain("Show on my page");
    try {
      expect(section((await fresh(`/track/${track}`)).html, "supported-by")).not.toContain("rileyspins");
      const page = await fresh(`/fan/${riley}`);
      expect(page.html.slice(page.html.indexOf('id="collection"'), page.html.indexOf('id="wishlist"'))).not.toContain(
        `href="/album/${release}"`,
      );
      // The fan still sees it, marked.
      const own = await demoFan.get(`/fan/${riley}`);
      expect(own.html).toContain(`href="/album/${release}"`);
      expect(text(own.html)).toContain("Hidden from others");
    } finally {
      const shown = await demoFan.post("/dashboard/fan/purchased", { releaseId: release, hide: "show" });
      expect(shown.response.status).toBe(200);
    }
    expect(section((await fresh(`/track/${track}`)).html, "supported-by")).toContain("rileyspins");

    // Only what the fan owns, named as the form names it.
    const fan = await newFan("hider");
    expect((await fan.visitor.post("/dashboard/fan/purchased", { releaseId: release, hide: "hide" })).response.status).toBe(404);
    expect((await fan.visitor.post("/dashboard/fan/purchased", { releaseId: "nope", hide: "hide" })).response.status).toBe(400);
  });
});

describe("supported by", () => {
  it("names an album's supporters, newest first, each linking to their page, in the page's one round trip", async () => {
    const { data: lines } = await serviceClient
      .from("order_lines")
      .select("item_id, orders(buyer_id, state)")
      .eq("kind", "track")
      .is("refunded_at", null)
      .in("item_id", [trackId("Open Highway"), trackId("Static on the Radio"), trackId("Gasoline Heart"), trackId("Porch Light")]);
    const orderOf = (line: { orders: unknown }) => line.orders as { buyer_id: string; state: string };
    const buyers = new Set(lines!.filter((line) => orderOf(line).state === "paid").map((line) => orderOf(line).buyer_id));
    expect(buyers.size).toBeGreaterThan(0);
    const { response, html } = await fresh(`/album/${albumId("Headlights & Static")}`);
    expect(response.headers.get("server-timing")).toMatch(/\b1 round trip\b/);
    const shown = html.slice(html.indexOf('id="supported-by"'), html.indexOf("</section>", html.indexOf('id="supported-by"')));
    const named = [...shown.matchAll(/href="\/fan\/([0-9a-f-]{36})"/g)].map((match) => match[1]);
    expect(named.length).toBe(Math.min(20, buyers.size));
    for (const id of named) expect(buyers.has(id!)).toBe(true);
    if (buyers.size > 20) expect(text(shown)).toContain(`and ${buyers.size - 20} more`);
  });
});
