// What the Workers cache may keep: never a render made for a session, however the request spelled its
// cookies; and nothing private, withdrawn or deleted outlives its change at any address that shows it.
import { describe, expect, it } from "vitest";
import {
  appUrl,
  cachedCopyOf,
  newArtist,
  serviceClient,
  sessionCookie,
  signedIn,
  storesMadeSoFarLanded,
  streamFinished,
  text,
  trackId,
} from "./support.ts";

/** The demo fan's private playlist ("Saturday kitchen"). */
const privatePlaylist = "/playlist/b1000000-0000-4000-8000-000000000002";

describe("a render made for a session", () => {
  it.each([
    ["a space before =", (name: string, value: string) => `${name} =${value}`],
    ["a tab before =", (name: string, value: string) => `${name}\t=${value}`],
    ["a space before the name", (name: string, value: string) => ` ${name}=${value}`],
    ["no space after the previous cookie's semicolon", (name: string, value: string) => `theme=dark;${name}=${value}`],
    ["spaces on both sides", (name: string, value: string) => `a=1 ;  ${name}  =  ${value}`],
  ])("with %s is the reader's alone: never stored, and the next visitor gets the public answer", async (_, spell) => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const name = sessionCookie(fan)!;
    const path = `${privatePlaylist}?spelling=${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const owner = await fetch(new URL(path, appUrl), { headers: { Cookie: spell(name, fan.cookies.get(name)!) } });
    const page = text(await owner.text());
    // The auth client reads the session whatever the spelling, so the owner sees their playlist, privately.
    expect(owner.status).toBe(200);
    expect(page).toContain("Saturday kitchen");
    expect(owner.headers.get("cache-control")).toBe("private, no-store");
    await storesMadeSoFarLanded();
    const next = await fetch(new URL(path, appUrl));
    expect(next.status).toBe(404);
    expect(next.headers.get("cf-cache-status")).toBeNull();
    expect(text(await next.text())).not.toContain("Saturday kitchen");
  });

  it("a public page rendered for a padded session cookie is not kept either; the visitor's own render is", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const name = sessionCookie(fan)!;
    const path = `/genres?padded=${Date.now()}`;
    const owner = await fetch(new URL(path, appUrl), { headers: { Cookie: `${name} =${fan.cookies.get(name)!}` } });
    await owner.text();
    expect(owner.headers.get("cache-control")).toBe("private, no-store");
    await storesMadeSoFarLanded();
    const next = await fetch(new URL(path, appUrl));
    await next.text();
    expect(next.headers.get("cf-cache-status")).toBeNull();
    expect(next.headers.get("cache-control")).toMatch(/^public/);
    expect((await cachedCopyOf(path))?.headers.get("cf-cache-status")).toBe("HIT");
  });
});

/** Every address that shows a thing: its page and `.data`, its embed in each size and theme, oEmbed for each URL form. */
function addressesOf(kind: "track" | "playlist", id: string): string[] {
  const page = `/${kind}/${id}`;
  const embed = `/embed/${kind}/${id}`;
  const oembed = (url: string, extra = "") => `/oembed?url=${encodeURIComponent(new URL(url, appUrl).href)}&format=json${extra}`;
  return [
    page,
    `${page}.data`,
    embed,
    `${embed}?size=compact`,
    `${embed}?theme=light`,
    `${embed}?size=compact&theme=light`,
    oembed(page),
    oembed(embed),
    oembed(page, "&maxwidth=400&maxheight=120"),
  ];
}

/** Asks for each address until this location's cache holds it. */
async function cachedAtEvery(paths: string[]) {
  for (const path of paths) expect((await cachedCopyOf(path))?.headers.get("cf-cache-status"), path).toBe("HIT");
}

/** What each address answers now: its status, whether the cache served it, and its text. */
async function answersAt(paths: string[]) {
  return Promise.all(
    paths.map(async (path) => {
      const response = await fetch(new URL(path, appUrl));
      return { path, status: response.status, hit: response.headers.get("cf-cache-status") === "HIT", body: await response.text() };
    }),
  );
}

describe("a change leaves every cache at once", () => {
  it("a playlist made private: its page, .data, every embed and oEmbed form and the sitemap answer afresh, and none shows it", async () => {
    const artist = await newArtist("Cache Keeper");
    const { response } = await artist.visitor.post("/playlists", { name: "Soon private", visibility: "public" });
    const path = response.headers.get("location")!;
    await artist.visitor.post(path, { intent: "add", trackId: trackId("Bicycle Bell") });
    const id = path.split("/").pop()!;
    const addresses = [...addressesOf("playlist", id), "/sitemap/playlists/1"];
    await cachedAtEvery(addresses);
    expect((await answersAt(["/sitemap/playlists/1"]))[0]!.body).toContain(id);

    const saved = await artist.visitor.post(path, { intent: "edit", name: "Soon private", visibility: "private" });
    expect(text(saved.html)).toContain("Playlist saved");
    for (const answer of await answersAt(addresses)) {
      expect(answer.hit, answer.path).toBe(false);
      expect(answer.body, answer.path).not.toContain("Soon private");
      if (!answer.path.startsWith("/sitemap")) expect(answer.status, answer.path).toBe(404);
    }
    expect((await answersAt(["/sitemap/playlists/1"]))[0]!.body).not.toContain(id);
  });

  it("a track moved to a future date, then deleted: its addresses and its artist's page drop it at once", async () => {
    const artist = await newArtist("Withdrawn Tracks");
    const path = `${artist.id}/${crypto.randomUUID()}.wav`;
    expect(
      (await serviceClient.storage.from("tracks").upload(path, new Blob([new Uint8Array(64)], { type: "audio/wav" }))).error,
    ).toBeNull();
    // Its stream made, as the rendition queue leaves it: a page whose audio is still being prepared is not kept.
    const stream = `${artist.id}/renditions/${crypto.randomUUID()}.128k.mp3`;
    expect(
      (await serviceClient.storage.from("tracks").upload(stream, new Blob([new Uint8Array(64)], { type: "audio/mpeg" }))).error,
    ).toBeNull();
    const { data: track } = await serviceClient
      .from("tracks")
      .insert({
        artist_id: artist.id,
        title: "Gone Soon",
        genre: "Indie",
        price: 1.5,
        description: "Here today",
        file_url: path,
      })
      .select("id")
      .single();
    await streamFinished(track!.id, { masterPath: path, path: stream });
    const addresses = [...addressesOf("track", track!.id), `/artist/${artist.id}`, `/embed/artist/${artist.id}`];
    await cachedAtEvery(addresses);

    const moved = await artist.visitor.post(`/dashboard/artist/tracks/${track!.id}`, {
      intent: "save",
      title: "Gone Soon",
      genre: "Indie",
      price: "1.50",
      releaseDate: `${new Date().getFullYear() + 1}-06-01`,
      description: "Here today",
    });
    expect(moved.response.status).toBe(303);
    for (const answer of await answersAt(addresses)) {
      expect(answer.hit, answer.path).toBe(false);
      expect(answer.body, answer.path).not.toContain("Gone Soon");
    }

    // Released again, cached again, then deleted.
    await serviceClient.from("tracks").update({ release_date: "2026-01-01" }).eq("id", track!.id);
    await fetch(new URL(`/track/${track!.id}`, appUrl), { headers: { "Cache-Control": "no-cache" } }).then((r) => r.text());
    await cachedAtEvery([`/track/${track!.id}`]);
    const deleted = await artist.visitor.post(`/dashboard/artist/tracks/${track!.id}`, { intent: "delete", confirm: "on" });
    expect(deleted.response.status).toBe(303);
    const [page] = await answersAt([`/track/${track!.id}`]);
    expect(page).toMatchObject({ status: 404, hit: false });
  });

  it("answers that can turn private live a minute at most in any shared cache, oEmbed included", async () => {
    const playlist = "b1000000-0000-4000-8000-000000000001";
    for (const path of [
      `/playlist/${playlist}`,
      `/embed/playlist/${playlist}`,
      ...addressesOf("playlist", playlist).slice(-1),
      "/sitemap.xml",
    ]) {
      const response = await fetch(new URL(path, appUrl), { headers: { "Cache-Control": "no-cache" } });
      const body = await response.text();
      expect(response.headers.get("cache-control"), path).toBe("public, s-maxage=60");
      if (path.startsWith("/oembed")) expect(JSON.parse(body).cache_age).toBe(60);
    }
  });
});
