// The public catalog as a browser without JavaScript sees it: every page rendered by the built Worker
// against the demo data, the follow and newsletter forms, the header search's resource route, the
// cache headers and how many backend round trips each render makes.
import { describe, expect, it } from "vitest";
import {
  appUrl,
  cachedCopyOf,
  inputValue,
  newArtist,
  serviceClient,
  signedIn,
  storesMadeSoFarLanded,
  text,
  title,
  Visitor,
} from "./support.ts";

const paperLanterns = "a1000000-0000-4000-8000-000000000012";
const lumenDrift = "a1000000-0000-4000-8000-000000000004";
const rileyspins = "f0000000-0000-4000-8000-000000000001";

/** A fresh render (past the Workers cache) and the backend round trips it reports. */
async function render(path: string, visitor?: Visitor) {
  if (visitor) {
    const { response, html } = await visitor.get(path);
    return { response, html, roundTrips: roundTrips(response) };
  }
  const response = await fetch(new URL(path, appUrl), { headers: { "Cache-Control": "no-cache" }, redirect: "manual" });
  return { response, html: await response.text(), roundTrips: roundTrips(response) };
}

function roundTrips(response: Response): number {
  const timing = response.headers.get("server-timing") ?? "";
  const match = timing.match(/(\d+) round trips?/);
  if (!match) throw new Error(`no round trips reported: ${timing}`);
  return Number(match[1]);
}

/** The opening tag of the element with this attribute (e.g. `aria-label="Play Now: Glow"`). */
function tagWith(html: string, attribute: string): string | undefined {
  return html.match(new RegExp(`<[a-z]+[^>]*${attribute.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^>]*>`))?.[0];
}

/** The level-3 headings (card titles) of a page, in order. */
function cardTitles(html: string): string[] {
  return [...html.matchAll(/<h3[^>]*>([\s\S]*?)<\/h3>/g)].map((match) => text(match[1]!).trim());
}

const publicCache = "public, s-maxage=60";

describe("caching and round trips", () => {
  const pages = [
    "/",
    "/discover",
    "/discover?filter=new&genre=Rock",
    "/genres",
    "/genres/R%26B",
    "/artists?q=jazz",
    `/artist/${paperLanterns}`,
    `/fan/${rileyspins}`,
  ];

  it.each(pages)("%s renders in one backend round trip and may be cached by shared caches", async (path) => {
    const { response, roundTrips } = await render(path);
    expect(response.status).toBe(200);
    expect(roundTrips).toBe(1);
    expect(response.headers.get("cache-control")).toBe(publicCache);
  });

  it("sends an address with a trailing slash to the one canonical address, query kept; data addresses are never indexed", async () => {
    for (const [path, canonical] of [
      [`/artist/${paperLanterns}/`, `/artist/${paperLanterns}`],
      ["/genres//?x=1", "/genres?x=1"],
      [`/fan/${rileyspins}/`, `/fan/${rileyspins}`],
    ] as const) {
      const response = await fetch(new URL(path, appUrl), { redirect: "manual" });
      expect(response.status, path).toBe(301);
      expect(response.headers.get("location"), path).toBe(canonical);
    }
    const data = await fetch(new URL(`/artist/${paperLanterns}.data?x=1`, appUrl));
    await data.text();
    expect(data.headers.get("x-robots-tag")).toBe("noindex");
    const robots = await (await fetch(new URL("/robots.txt", appUrl))).text();
    expect(robots).toContain("Disallow: /*.data\n");
  });

  it("serves a repeated anonymous request from the Workers cache, with no backend work", async () => {
    const path = `/genres?cache-check=${Date.now()}`;
    const first = await fetch(new URL(path, appUrl));
    await first.text();
    expect(first.headers.get("server-timing")).toMatch(/1 round trip/);
    const second = await cachedCopyOf(path);
    expect(second?.headers.get("cf-cache-status")).toBe("HIT");
    expect(second?.headers.get("server-timing")).toBeNull();
  });

  it("renders afresh for a request that says no-store, and keeps nothing of it", async () => {
    const path = `/genres?no-store-check=${Date.now()}`;
    const fresh = await fetch(new URL(path, appUrl), { headers: { "Cache-Control": "no-store" } });
    await fresh.text();
    expect(fresh.headers.get("server-timing")).toMatch(/1 round trip/);
    await storesMadeSoFarLanded();
    const next = await fetch(new URL(path, appUrl));
    await next.text();
    expect(next.headers.get("cf-cache-status")).toBeNull();
    expect(next.headers.get("server-timing")).toMatch(/1 round trip/);
  });

  it("renders signed-in pages privately, never from the cache: the session check plus one read", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    for (const path of ["/", `/artist/${paperLanterns}`, "/genres"]) {
      const { response, roundTrips } = await render(path, fan);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      expect(response.headers.get("cf-cache-status")).toBeNull();
      expect(roundTrips).toBe(2);
    }
  });
});

describe("home", () => {
  it("features no account made minutes ago, though it published last", async () => {
    const newcomer = `Newcomer ${Date.now().toString(36)}`;
    const artist = await newArtist(newcomer);
    const { error } = await serviceClient
      .from("tracks")
      .insert({ artist_id: artist.id, title: "Out This Minute", genre: "Rock", price: 1, description: "Brand new" });
    expect(error).toBeNull();
    const { html } = await render("/");
    expect(html).toContain("Featured artist: ");
    expect(html).not.toContain(`Featured artist: ${newcomer}`);
  });

  it("shows the news, the featured artist with their latest release, the artist rows and every genre", async () => {
    const { html } = await render("/");
    const page = text(html);
    // Every active news item goes to the banner (the page shows one at a time, newest first, and another
    // suite may add a newer one meanwhile); an inactive one never does.
    expect(html).toContain("Featured artist: The Paper Lanterns");
    expect(html).not.toContain("Scheduled maintenance");
    // The newest release of an artist of 30 days or more, with 5 followers or more, is featured.
    expect(page).toMatch(/Featured Artist \S/);
    expect(page).toMatch(/New Releases \S/);
    expect(tagWith(html, 'aria-label="Play Now:')).toMatch(/href="\/track\/[0-9a-f-]{36}"/);
    expect(html).toContain('href="/discover?filter=new"');
    expect(page).toMatch(/Popular Artists Start Digging (T )?The Paper Lanterns/);
    // 6 in the demo; tests running beside this one may publish more.
    expect(page).toMatch(/Indie \d+ tracks View All/);
    expect(html).toContain('href="/genres/R%26B"');
    expect(html).toContain('href="/genres/Hip%20Hop"');
    expect(page).not.toContain("Northern Line");
    expect(page).not.toContain("Unable to load artists");
  });

  it("thanks a newsletter subscriber without keeping anything, and checks the address", async () => {
    const visitor = new Visitor();
    const refused = await visitor.post("/?index", { email: "not-an-email" });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Please enter a valid email address");
    expect(inputValue(refused.html, "email")).toBe("not-an-email");
    expect(refused.response.headers.get("cache-control")).toBe("no-store");

    const empty = await visitor.post("/?index", { email: "" });
    expect(text(empty.html)).toContain("Email is required");

    const thanked = await visitor.post("/?index", { email: "listener@example.com" });
    expect(thanked.response.status).toBe(200);
    expect(text(thanked.html)).toContain("Thanks for subscribing! 🎵");
  });
});

describe("discover", () => {
  it("lists every artist, most followed first, with their cards", async () => {
    const { html } = await render("/discover");
    expect(text(html)).toContain("Discover Artists");
    const names = cardTitles(html);
    // The 12 demo artists, and any that tests running beside this one have signed up.
    expect(names.length).toBeGreaterThanOrEqual(12);
    expect(names[0]).toBe("The Paper Lanterns");
    expect(html).toContain(`href="/artist/${paperLanterns}"`);
  });

  it("filters by text over name and short description, and by any chosen genre, from the URL", async () => {
    expect(cardTitles((await render("/discover?genre=Jazz&genre=Metal")).html).sort()).toEqual(["Harbor Street Quartet", "Iron Tide"]);
    expect(cardTitles((await render("/discover?q=GLASGOW")).html)).toEqual(["The Paper Lanterns"]);
    // Genres are chips here, not text: "hip hop" is in nobody's name or description.
    const none = await render("/discover?q=hip+hop");
    expect(cardTitles(none.html)).toEqual([]);
    expect(text(none.html)).toContain("No artists found matching your criteria");
    const chosen = await render("/discover?q=glasgow&genre=Indie");
    expect(tagWith(chosen.html, 'id="discover-q"')).toContain('value="glasgow"');
    expect(chosen.html).toMatch(/<input[^>]*checked=""[^>]*value="Indie"/);
  });

  it("shows the newest artists first with ?filter=new", async () => {
    // The demo's three newest artists, in order (accounts other tests sign up may come before them).
    const names = cardTitles((await render("/discover?filter=new")).html);
    const positions = ["Hattie Monroe", "Lumen Drift", "Clara Lindqvist"].map((name) => names.indexOf(name));
    expect(positions[0]).toBeGreaterThanOrEqual(0);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(names.indexOf("The Paper Lanterns")).toBeGreaterThan(positions[2]!);
  });
});

describe("genres", () => {
  it("lists genres with their artist and track counts, by combined count", async () => {
    const { html } = await render("/genres");
    expect(text(html)).toContain("Music Genres");
    const cards = [...html.matchAll(/<h2[^>]*>([^<]+)<\/h2><p[^>]*>([\s\S]*?)<\/p>/g)].map((match) => {
      const [, artists, tracks] = text(match[2]!).match(/(\d+) artists? · (\d+) tracks?/) ?? [];
      return { genre: match[1]!, total: Number(artists) + Number(tracks) };
    });
    expect(cards.length).toBeGreaterThanOrEqual(12);
    expect(cards.map((card) => card.total)).toEqual([...cards.map((card) => card.total)].sort((a, b) => b - a));
    expect(html).toContain('href="/genres/R%26B"');
  });

  it("lists a genre's artists by their track count in it, for URL-encoded genres too", async () => {
    const rnb = await render("/genres/R%26B");
    expect(title(rnb.html)).toContain("R&amp;B Artists");
    expect(text(rnb.html)).toContain("R&B Artists");
    expect(cardTitles(rnb.html)).toEqual(["Sienna Brooks"]);
    expect(text(rnb.html)).toContain("3 R&B tracks");

    // The spec's read: profiles whose genres name it, with or without tracks in it, most tracks first.
    const pop = await render("/genres/Pop");
    const popArtists = cardTitles(pop.html);
    expect(popArtists[0]).toBe("Mara Vale");
    expect(text(pop.html)).toContain("5 Pop tracks");
    const { data: taggedPop } = await serviceClient.from("artist_profiles").select("artist_name").contains("genres", ["Pop"]);
    for (const { artist_name } of taggedPop ?? []) expect(popArtists).toContain(artist_name);
    expect(text(pop.html)).toContain("0 Pop tracks");

    const hipHop = await render("/genres/Hip%20Hop");
    expect(cardTitles(hipHop.html)).toEqual(["Ozi Reyes"]);
  });

  it("answers 404 for a genre the catalog does not have", async () => {
    for (const path of ["/genres/Nope", "/genres/Polka"]) {
      const { response, html } = await render(path);
      expect(response.status, path).toBe(404);
      expect(text(html), path).toContain("Genre not found");
    }
  });

  it("moves an address in another case to the genre as the catalog spells it", async () => {
    for (const [asked, canonical] of [
      ["/genres/r%26b", "/genres/R%26B"],
      ["/genres/HIP%20HOP", "/genres/Hip%20Hop"],
    ]) {
      const { response } = await new Visitor().get(asked);
      expect(response.status).toBe(301);
      expect(response.headers.get("location")).toBe(canonical);
    }
  });
});

describe("artists", () => {
  it("lists every artist by followers with counts and genres", async () => {
    const { html } = await render("/artists");
    expect(html).toContain('placeholder="Search artists by name, description, or genre..."');
    const names = cardTitles(html);
    // The 12 demo artists, and any that tests running beside this one have signed up.
    expect(names.length).toBeGreaterThanOrEqual(12);
    expect(names[0]).toBe("The Paper Lanterns");
    // (its tracks out, and the two of Tidewater, on pre-order, which everyone sees)
    expect(text(html)).toMatch(
      /The Paper Lanterns Jangly indie pop from Glasgow about small towns and big skies\. 1\d followers · 8 tracks Indie Pop/,
    );
  });

  it("searches name, short description and genre, ignoring case", async () => {
    expect(cardTitles((await render("/artists?q=LANTERNS")).html)).toEqual(["The Paper Lanterns"]);
    expect(cardTitles((await render("/artists?q=bronx")).html)).toEqual(["Ozi Reyes"]);
    expect(cardTitles((await render("/artists?q=hip%20hop")).html)).toEqual(["Ozi Reyes"]);
    const none = await render("/artists?q=polka");
    expect(text(none.html)).toContain("No artists found matching your search");
    expect(tagWith(none.html, 'id="artists-q"')).toContain('value="polka"');
  });
});

describe("artist page", () => {
  it("shows the artist's merch, and Buy opens the purchase dialog at its own address without JavaScript", async () => {
    const { html } = await new Visitor().get(`/artist/${paperLanterns}`);
    expect(html).toMatch(/<h2[^>]*>Merch<\/h2>/);
    // Priced in the artist's currency (The Paper Lanterns sell in pounds).
    const buy = html.match(/aria-label="Buy ([^"]+) - £[\d.]+" href="([^"]*\?buy=[0-9a-f-]{36})"/);
    expect(buy).not.toBeNull();
    const dialog = await new Visitor().get(buy![2]!);
    expect(dialog.html).toMatch(/<dialog[^>]*open=""/);
    expect(text(dialog.html)).toContain(`Complete Purchase ${buy![1]}`);
  });

  it("shows the profile, followers, links, releases grouped into albums and singles, and upcoming shows", async () => {
    const { html } = await render(`/artist/${paperLanterns}`);
    const page = text(html);
    expect(title(html)).toContain("The Paper Lanterns");
    expect(page).toMatch(/(\d+) followers/);
    const followers = Number(page.match(/(\d+) followers/)![1]);
    expect(page).toContain(`and ${followers - 5} more followers`);
    expect(html).toContain('href="/fan/f0000000-0000-4000-8000-000000000');
    // An artist who follows links to their artist page.
    expect(html).toContain('href="/artist/a1000000-0000-4000-8000-000000000008"');
    expect(page).toContain("Twitter @paperlanterns");
    expect(page).toContain("Instagram @thepaperlanterns");
    expect(html).toContain('href="https://thepaperlanterns.example/"');
    expect(page).toContain("About The Paper Lanterns are Iona");
    expect(page).toContain("Album · 2");
    // (the album's Share menu, its link and embed code, stands between its title and its tracks)
    expect(page).toMatch(
      /Small Town Satellites Share Link .*?1 Satellite Town .* 2 Bicycle Bell .* 3 Harbour Wall .* 4 All the Lights on Byres Road/,
    );
    expect(page).not.toContain("Northern Line");
    expect(tagWith(html, 'aria-label="Play Kites Over the Clyde"')).toMatch(/href="\/track\/[0-9a-f-]{36}"/);
    expect(page).toContain("Upcoming Shows");
    expect(page).toContain("Sneaky Pete's");
    expect(page).not.toContain("King Tut's Wah Wah Hut");
    expect(html).toContain('aria-label="Follow The Paper Lanterns"');
  });

  it("lists releases a page at a time: a page past the last says so and links to the newest, Buy keeps the page", async () => {
    const first = await render(`/artist/${paperLanterns}`);
    // The demo artist's releases fit on one page: no page links.
    expect(first.html).not.toContain('aria-label="Pages"');
    const past = await render(`/artist/${paperLanterns}?page=2`);
    expect(past.response.status).toBe(200);
    expect(past.roundTrips).toBe(1);
    const page = text(past.html);
    expect(page).toContain("No releases on this page");
    expect(page).toMatch(/The Paper Lanterns has \d+ releases, fewer than this page would start at/);
    expect(past.html).toMatch(new RegExp(`href="/artist/${paperLanterns}"[^>]*>Newest releases<`));
    expect(cardTitles(past.html)).not.toContain("Small Town Satellites");
    // Merch is the artist's whole store, on every page, and its Buy keeps the page the visitor is on.
    expect(past.html).toMatch(/aria-label="Buy [^"]+" href="[^"]*\?page=2&amp;buy=[0-9a-f-]{36}"/);
  });

  it("answers 404 'Artist not found' for an unknown id, a fan's id and a malformed id", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", rileyspins, "not-an-id"]) {
      const { response, html } = await render(`/artist/${id}`);
      expect(response.status).toBe(404);
      expect(text(html)).toContain("Artist not found");
    }
  });

  it("lets a fan follow and unfollow, the count moving by one each time", async () => {
    const fan = await signedIn("solandsound@example.com", "demo-pass");
    const count = async () => Number(text((await fan.get(`/artist/${lumenDrift}`)).html).match(/(\d+) followers?/)![1]);
    const before = await count();
    expect((await fan.get(`/artist/${lumenDrift}`)).html).toContain('aria-label="Follow Lumen Drift"');

    // Without JavaScript the form posts to the follow route and the browser comes back to the page.
    const followed = await fan.post(`/artist/${lumenDrift}/follow`, { intent: "follow", redirectTo: `/artist/${lumenDrift}` });
    expect(followed.response.status).toBe(303);
    expect(followed.response.headers.get("location")).toBe(`/artist/${lumenDrift}`);
    expect(followed.response.headers.get("cache-control")).toBe("private, no-store");
    expect((await fan.get(`/artist/${lumenDrift}`)).html).toContain('aria-label="Following Lumen Drift. Unfollow"');
    expect(await count()).toBe(before + 1);
    // Following again (a double submit) changes nothing.
    await fan.post(`/artist/${lumenDrift}/follow`, { intent: "follow" });
    expect(await count()).toBe(before + 1);
    expect(text((await fan.get(`/fan/f0000000-0000-4000-8000-000000000005`)).html)).toContain("Lumen Drift");

    // With JavaScript the fetcher reads the reply in place.
    const unfollowed = await fan.post(`/artist/${lumenDrift}/follow`, { intent: "unfollow", fetcher: "1" });
    expect(unfollowed.response.status).toBe(200);
    expect(JSON.parse(unfollowed.html)).toEqual({ fieldErrors: {}, formError: null, values: {} });
    expect((await fan.get(`/artist/${lumenDrift}`)).html).toContain('aria-label="Follow Lumen Drift"');
    expect(await count()).toBe(before);
  });

  it("sends a visitor who presses Follow to log in, and back to the artist afterwards", async () => {
    const visitor = new Visitor();
    const { response } = await visitor.post(`/artist/${lumenDrift}/follow`, { intent: "follow", redirectTo: `/artist/${lumenDrift}` });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`/artist/${lumenDrift}`)}`);
    // From the home page's featured artist, back to the home page.
    const fromHome = await visitor.post(`/artist/${lumenDrift}/follow`, { intent: "follow", redirectTo: "/" });
    expect(fromHome.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/")}`);
  });

  it("shows artists no Follow button on their own page, and the database refuses a self-follow", async () => {
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    const own = await artist.get(`/artist/${paperLanterns}`);
    expect(own.html).not.toContain('aria-label="Follow The Paper Lanterns"');
    // Their upcoming release shows to them only.
    expect(text(own.html)).toContain("Northern Line");
    const refused = await artist.post(`/artist/${paperLanterns}/follow`, { intent: "follow", fetcher: "1" });
    expect(refused.response.status).toBe(400);
    expect(JSON.parse(refused.html).formError).toBe("Data validation failed");
    // Without JavaScript the message itself comes back, never a page that pretends it worked.
    const refusedWithoutScript = await artist.post(`/artist/${paperLanterns}/follow`, { intent: "follow", redirectTo: "/" });
    expect(refusedWithoutScript.response.status).toBe(400);
    expect(refusedWithoutScript.html).toBe("Data validation failed");
  });

  it("refuses an unknown follow intent", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const { response } = await fan.post(`/artist/${lumenDrift}/follow`, { intent: "befriend" });
    expect(response.status).toBe(400);
  });
});

describe("fan page", () => {
  it("shows the fan, their favourite genres and the artists they follow", async () => {
    const { html } = await render(`/fan/${rileyspins}`);
    const page = text(html);
    expect(page).toContain("rileyspins");
    expect(page).toContain("Following 6 artists");
    expect(page).toContain("Record-shop Saturdays");
    expect(page).toMatch(/Favorite genres Indie Folk Electronic/);
    expect(html).toContain(`href="/artist/${paperLanterns}"`);
  });

  it("answers 404 'Fan not found' for an unknown id and an artist's id", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", paperLanterns, "nope"]) {
      const { response, html } = await render(`/fan/${id}`);
      expect(response.status).toBe(404);
      expect(text(html)).toContain("Fan not found");
    }
  });
});

describe("header search", () => {
  const search = async (q: string) => {
    const response = await fetch(new URL(`/search/artists?${new URLSearchParams({ q })}`, appUrl));
    expect(response.headers.get("content-type")).toContain("application/json");
    return (await response.json()) as { query: string; artists: { id: string; artist_name: string; genres: string[] }[] };
  };

  it("matches part of the artist name, ignoring case, after trimming", async () => {
    const result = await search("  lAnT ");
    expect(result.query).toBe("lAnT");
    expect(result.artists.map((artist) => artist.artist_name)).toEqual(["The Paper Lanterns"]);
    expect(result.artists[0]!.genres).toEqual(["Indie", "Pop"]);
  });

  it("gives nothing for an empty query, treats % and _ literally, and returns at most 10", async () => {
    expect((await search("   ")).artists).toEqual([]);
    expect((await search("%")).artists).toEqual([]);
    expect((await search("_")).artists).toEqual([]);
    expect((await search("e")).artists.length).toBe(10);
  });

  it("is rendered as a search form that works without JavaScript", async () => {
    const { html } = await render("/about");
    expect(html).toMatch(/<form[^>]*action="\/artists"[^>]*role="search"|<form[^>]*role="search"[^>]*action="\/artists"/);
  });
});
