// Playlists as a browser without JavaScript meets them: made from Your Playlists (with the track "New
// playlist..." brought), filled from the track menus' forms, reordered and emptied with buttons that post,
// edited and deleted; a public one a visitor opens (from the edge cache), a private one 404 to anyone
// else; every refusal in words beside its field. And the player's JSON source for a track.
import { beforeAll, describe, expect, it } from "vitest";
import { Visitor, cachedCopyOf, inputValue, newArtist, newFan, serviceClient, storesMadeSoFarLanded, text, trackId } from "./support.ts";

const bicycleBell = trackId("Bicycle Bell");
const harbourWall = trackId("Harbour Wall");
const satelliteTown = trackId("Satellite Town");

let fan: Awaited<ReturnType<typeof newFan>>;

beforeAll(async () => {
  fan = await newFan("playlister");
});

/** Makes a playlist through the form and answers its address. */
async function made(visitor: Visitor, fields: Record<string, string>) {
  const { response } = await visitor.post("/playlists", fields);
  expect(response.status).toBe(302);
  return response.headers.get("location")!;
}

/** The playlist page's track titles, in order. */
const titles = (html: string) =>
  [...html.matchAll(/<a[^>]*class="block truncate[^"]*font-semibold[^"]*"[^>]*>([^<]+)<\/a>/g)].map((match) => match[1]);

describe("making a playlist", () => {
  it("keeps what was typed and says why beside the field when the name is missing or too long", async () => {
    const empty = await fan.visitor.post("/playlists", { name: "  ", description: "For the drive", visibility: "public" });
    expect(empty.response.status).toBe(400);
    expect(text(empty.html)).toContain("Playlist name is required");
    expect(empty.html).toMatch(/<textarea[^>]*name="description"[^>]*>For the drive<\/textarea>/);
    expect(empty.html.match(/<input[^>]*value="public"[^>]*>/)?.[0]).toContain("checked");
    const long = await fan.visitor.post("/playlists", { name: "x".repeat(101) });
    expect(long.response.status).toBe(400);
    expect(text(long.html)).toContain("Playlist name can be at most 100 characters");
    expect(inputValue(long.html, "name")).toBe("x".repeat(101));
  });

  it("makes one with the track it was made for, lists it with its count, and in the sidebar", async () => {
    const form = await fan.visitor.get(`/playlists?add=${bicycleBell}`);
    expect(form.html).toContain(`<input type="hidden" name="trackId" value="${bicycleBell}"/>`);
    const path = await made(fan.visitor, { name: "Glasgow nights", visibility: "private", trackId: bicycleBell });
    expect(path).toMatch(/^\/playlist\/[0-9a-f-]{36}$/);
    const page = await fan.visitor.get(path);
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("cache-control")).toContain("no-store");
    expect(text(page.html)).toContain("Private playlist");
    expect(titles(page.html)).toEqual(["Bicycle Bell"]);
    const list = text((await fan.visitor.get("/playlists")).html);
    expect(list).toContain("Glasgow nights 1 track · Private");
    expect(page.html).toContain(`href="${path}"`);
  });
});

describe("a playlist's tracks", () => {
  let path: string;
  beforeAll(async () => {
    path = await made(fan.visitor, { name: "Road trip", visibility: "public" });
  });

  it("are added from the menus' forms, once each, said in words", async () => {
    for (const track of [bicycleBell, harbourWall, satelliteTown]) {
      const added = await fan.visitor.post(path, { intent: "add", trackId: track });
      expect(added.response.status).toBe(200);
      expect(text(added.html)).toContain("Added to Road trip");
    }
    const again = await fan.visitor.post(path, { intent: "add", trackId: harbourWall });
    expect(again.response.status).toBe(409);
    expect(text(again.html)).toContain("This track is already in Road trip");
    expect(titles((await fan.visitor.get(path)).html)).toEqual(["Bicycle Bell", "Harbour Wall", "Satellite Town"]);
  });

  it("move up and down and leave with buttons that post", async () => {
    expect((await fan.visitor.post(path, { intent: "move", trackId: satelliteTown, to: "1" })).response.status).toBe(200);
    expect(titles((await fan.visitor.get(path)).html)).toEqual(["Satellite Town", "Bicycle Bell", "Harbour Wall"]);
    const page = (await fan.visitor.get(path)).html;
    expect(page).toContain('aria-label="Move Bicycle Bell up"');
    expect(page).toContain('aria-label="Remove Harbour Wall from this playlist"');
    const removed = await fan.visitor.post(path, { intent: "remove", trackId: harbourWall });
    expect(text(removed.html)).toContain("Removed from this playlist");
    expect(titles((await fan.visitor.get(path)).html)).toEqual(["Satellite Town", "Bicycle Bell"]);
    const gone = await fan.visitor.post(path, { intent: "remove", trackId: harbourWall });
    expect(gone.response.status).toBe(404);
    expect(text(gone.html)).toContain("This track is no longer in this playlist");
  });

  it("are the owner's alone to change: another user and a visitor are refused, and nothing changes", async () => {
    const other = await newFan("notowner");
    const refused = await other.visitor.post(path, { intent: "add", trackId: harbourWall });
    expect(refused.response.status).toBe(403);
    expect(text(refused.html)).toContain("You can only add tracks to your own playlists");
    expect((await other.visitor.post(path, { intent: "move", trackId: bicycleBell, to: "1" })).response.status).toBe(404);
    const removed = await other.visitor.post(path, { intent: "remove", trackId: bicycleBell });
    expect(removed.response.status).toBe(403);
    expect(text(removed.html)).toContain("You can only change your own playlists");
    expect((await other.visitor.post(path, { intent: "edit", name: "Mine now" })).response.status).toBe(403);
    expect((await other.visitor.post(path, { intent: "delete", confirm: "on" })).response.status).toBe(403);
    const visitor = await new Visitor().post(path, { intent: "add", trackId: harbourWall });
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toContain("/login?redirectTo=");
    expect(titles((await fan.visitor.get(path)).html)).toEqual(["Satellite Town", "Bicycle Bell"]);
  });
});

describe("who sees a playlist", () => {
  it("a visitor opens a public one from the edge cache, plays its released tracks; a private one is 404 to anyone else", async () => {
    const artist = await newArtist("Playlist Keeper");
    const path = await made(artist.visitor, { name: "Shared mix", visibility: "public" });
    await artist.visitor.post(path, { intent: "add", trackId: bicycleBell });
    const first = await new Visitor().get(path);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("cache-control")).toContain("public");
    expect(text(first.html)).toContain("By Playlist Keeper");
    expect(titles(first.html)).toEqual(["Bicycle Bell"]);
    // Owner's controls are the owner's: a visitor sees none.
    expect(first.html).not.toContain("Delete playlist");
    await storesMadeSoFarLanded();
    expect((await cachedCopyOf(path))?.status).toBe(200);

    // Made private, the cached copy goes with the change, and others get 404.
    const saved = await artist.visitor.post(path, { intent: "edit", name: "Shared mix", visibility: "private" });
    expect(text(saved.html)).toContain("Playlist saved");
    expect((await new Visitor().get(path)).response.status).toBe(404);
    expect((await fan.visitor.get(path)).response.status).toBe(404);
    expect(text((await fan.visitor.get(path)).html)).toContain("Playlist not found");
    expect((await artist.visitor.get(path)).response.status).toBe(200);
  });

  it("edits keep what was typed beside the field, and deleting asks for the box first", async () => {
    const path = await made(fan.visitor, { name: "To delete" });
    const bad = await fan.visitor.post(path, { intent: "edit", name: "", description: "kept" });
    expect(bad.response.status).toBe(400);
    expect(text(bad.html)).toContain("Playlist name is required");
    expect(bad.html).toMatch(/<textarea[^>]*name="description"[^>]*>kept<\/textarea>/);
    const unticked = await fan.visitor.post(path, { intent: "delete" });
    expect(unticked.response.status).toBe(400);
    expect(text(unticked.html)).toContain("Tick the box to confirm you want to delete this playlist");
    const deleted = await fan.visitor.post(path, { intent: "delete", confirm: "on" });
    expect(deleted.response.status).toBe(302);
    expect(deleted.response.headers.get("location")).toBe("/playlists");
    expect((await fan.visitor.get(path)).response.status).toBe(404);
  });

  it("a fan may have at most 200 playlists, and is told so", async () => {
    const full = await newFan("collector");
    const { error } = await serviceClient
      .from("playlists")
      .insert(Array.from({ length: 200 }, (_, n) => ({ owner_id: full.id, name: `Mix ${n + 1}` })));
    expect(error).toBeNull();
    const refused = await full.visitor.post("/playlists", { name: "One more" });
    expect(refused.response.status).toBe(409);
    expect(text(refused.html)).toContain("You can have at most 200 playlists");
    expect(inputValue(refused.html, "name")).toBe("One more");
  });
});

describe("the player's source for a track", () => {
  // Tracks here have no audio file (the browser suite plays real ones); the answer says so, as JSON.
  it("answers why a track cannot be played as JSON, never cached; 404 for an unknown track or a bad id", async () => {
    const { response, html } = await new Visitor().get(`/track/${bicycleBell}/source`);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(JSON.parse(html)).toEqual({ error: "This track does not have an audio file", missing: true });
    const unknown = await new Visitor().get("/track/00000000-0000-4000-8000-000000000000/source");
    expect(unknown.response.status).toBe(404);
    expect(JSON.parse(unknown.html)).toMatchObject({ error: expect.any(String) });
    expect((await new Visitor().get("/track/not-an-id/source")).response.status).toBe(404);
  });
});

describe("work that grows with what the page shows, not with what the viewer owns", () => {
  it("draws no playlist in a track row's menu: without JavaScript the menu leads to Your Playlists, where each one adds the track", async () => {
    const owner = await newFan("manylists");
    const names = Array.from({ length: 30 }, (_, n) => `Shelf ${n + 1}`);
    const { error } = await serviceClient.from("playlists").insert(names.map((name) => ({ owner_id: owner.id, name })));
    expect(error).toBeNull();
    const { html } = await owner.visitor.get("/artist/a1000000-0000-4000-8000-000000000012");
    // The sidebar lists them once; no track row carries a form for each.
    expect(html.match(/name="intent" value="add"/g) ?? []).toEqual([]);
    expect(html).toContain(`href="/playlists?add=${harbourWall}"`);
    const choose = await owner.visitor.get(`/playlists?add=${harbourWall}`);
    expect(choose.html.match(/name="intent" value="add"/g)).toHaveLength(30);
    const shelf = /action="(\/playlist\/[0-9a-f-]{36})"/.exec(choose.html.slice(choose.html.indexOf('id="add-to-playlist"')))![1]!;
    const added = await owner.visitor.post(shelf, { intent: "add", trackId: harbourWall });
    expect(text(added.html)).toMatch(/Added to Shelf \d+/);
  });

  it("shows a long playlist a hundred tracks a page, with links to the others that work without JavaScript", async () => {
    const owner = await newFan("longlist");
    const { data: playlist } = await serviceClient
      .from("playlists")
      .insert({ owner_id: owner.id, name: "Everything", is_public: true })
      .select("id")
      .single();
    const artist = await newArtist("Prolific Lister");
    const { data: tracks } = await serviceClient
      .from("tracks")
      .insert(
        Array.from({ length: 150 }, (_, n) => ({
          artist_id: artist.id,
          title: `Take ${n + 1}`,
          genre: "Indie",
          price: 1,
          description: "x",
          release_date: "2026-01-01",
        })),
      )
      .select("id");
    expect(tracks!.length).toBeGreaterThan(100);
    expect(
      (await serviceClient.from("playlist_tracks").insert(tracks!.map((track) => ({ playlist_id: playlist!.id, track_id: track.id }))))
        .error,
    ).toBeNull();
    const path = `/playlist/${playlist!.id}`;
    const first = await new Visitor().get(path);
    expect(titles(first.html)).toHaveLength(100);
    expect(text(first.html)).toContain(`${tracks!.length} tracks`);
    expect(first.html).toContain(`href="${path}?page=2"`);
    const second = await owner.visitor.get(`${path}?page=2`);
    expect(titles(second.html)).toHaveLength(tracks!.length - 100);
    // The owner's controls name places in the whole playlist: the first on page 2 is the 101st.
    expect(second.html).toMatch(/<input type="hidden" name="to" value="100"\/>/);
    const past = await new Visitor().get(`${path}?page=9`);
    expect(titles(past.html)).toHaveLength(tracks!.length - 100);
  });
});

describe("signed audio URLs", () => {
  it("gives one listener at most 120 a minute, then answers 429 in words", async () => {
    const listener = await newFan("greedy");
    const unknown = "00000000-0000-4000-8000-00000000abcd";
    // The limiter counts in fixed minutes, so the 121st may fall into the next one: then 120 more go by.
    const statuses: number[] = [];
    while (statuses.length < 245 && statuses.at(-1) !== 429) {
      statuses.push((await listener.visitor.get(`/track/${unknown}/source`)).response.status);
    }
    const granted = statuses.indexOf(429);
    expect(granted).toBeGreaterThanOrEqual(120);
    expect(granted).toBeLessThanOrEqual(240);
    expect(statuses.slice(0, granted).every((status) => status === 404)).toBe(true);
    const refused = await listener.visitor.get(`/track/${unknown}/audio`);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get("retry-after")).toBe("60");
    expect(JSON.parse((await listener.visitor.get(`/track/${unknown}/source`)).html)).toMatchObject({
      error: "Too many tracks asked for at once. Please wait a minute and try again.",
    });
  });
});
