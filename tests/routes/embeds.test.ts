// The embeddable players and oEmbed as other sites meet them: framable (only they), plain HTML with a
// script of their own and no Crate session either way, "This track is not available" (or its kind's words, 404) for anything
// a visitor may not play; oEmbed's answers and refusals; and the Share menu's link and embed codes,
// shown as text to copy without JavaScript.
import { describe, expect, it } from "vitest";
import { Visitor, albumId, appUrl, newFan, serviceClient, signedIn, text, trackId } from "./support.ts";

const origin = new URL(appUrl).origin;
const paperLanterns = "a1000000-0000-4000-8000-000000000012";
const lastBusHome = "b1000000-0000-4000-8000-000000000001";
const saturdayKitchen = "b1000000-0000-4000-8000-000000000002";
const kites = trackId("Kites Over the Clyde");
const northernLine = trackId("Northern Line");
const porchLight = trackId("Porch Light");
const headlights = albumId("Headlights & Static");

const visitor = new Visitor();
const directive = (response: Response, name: string) =>
  (response.headers.get("content-security-policy") ?? "").split(/;\s*/).find((part) => part.startsWith(`${name} `));

/** The tracks the embed hands its script, in order. */
const embedTracks = (html: string) =>
  JSON.parse(/<script type="application\/json" data-tracks="[^"]*">([\s\S]*?)<\/script>/.exec(html)![1]!) as {
    id: string;
    title: string;
    peaks: number[] | null;
  }[];

describe("embeds", () => {
  it("may be framed by any site, while every other page refuses frames", async () => {
    const embed = await visitor.get(`/embed/track/${kites}`);
    expect(embed.response.status).toBe(200);
    expect(directive(embed.response, "frame-ancestors")).toBe("frame-ancestors *");
    expect(embed.response.headers.get("x-frame-options")).toBeNull();
    for (const path of [`/track/${kites}`, "/about", `/artist/${paperLanterns}`, `/playlist/${lastBusHome}`, "/oembed?url=x"]) {
      const page = await visitor.get(path);
      expect(page.response.headers.get("x-frame-options"), path).toBe("DENY");
      if (page.response.headers.get("content-type")?.startsWith("text/html")) {
        expect(directive(page.response, "frame-ancestors"), path).toBe("frame-ancestors 'none'");
      }
    }
  });

  it.each(["/embed", "/embed/", `/embed/track/${kites}/extra`, "/embed/login", `/embed/widget/${kites}`, `/embed/track/${kites}/`])(
    "%s names no player: a plain 404 (or the way to the player) that no site may frame",
    async (path) => {
      const { response, html } = await visitor.get(path);
      if (response.status === 301) {
        expect(response.headers.get("location")).toBe(path.replace(/\/$/, ""));
        return;
      }
      expect(response.status).toBe(404);
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      expect(html).not.toContain("<form");
      expect(html).not.toContain("Sign in");
      if (response.headers.get("content-type")?.startsWith("text/html")) {
        expect(directive(response, "frame-ancestors")).toBe("frame-ancestors 'none'");
      }
    },
  );

  it("is plain HTML with its own script, not the app, cached at the edge, and neither reads nor sets a session", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const { response, html } = await fan.get(`/embed/track/${kites}`);
    expect(response.headers.get("cache-control")).toMatch(/^public/);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(html).toContain('<script src="/embed-player.js" defer="">');
    expect(html).not.toContain("/assets/entry.client");
    expect(html).not.toContain("__reactRouterContext");
    // Nothing of the signed-in fan reaches the frame.
    expect(text(html)).not.toMatch(/Log out|Your Playlists|Dashboard/);
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(embedTracks(html).map((track) => track.title)).toEqual(["Kites Over the Clyde"]);
    expect(html).toContain('aria-label="Play Kites Over the Clyde"');
    expect(html).toContain(`href="${origin}/track/${kites}?buy=1" target="_blank" rel="noopener">Buy £1.29</a>`);
  });

  it("plays a whole album from its address (or any of its tracks', as before), an artist's latest releases and a public playlist in its order", async () => {
    for (const id of [headlights, porchLight]) {
      const album = await visitor.get(`/embed/album/${id}`);
      expect(embedTracks(album.html).map((track) => track.title)).toEqual([
        "Open Highway",
        "Static on the Radio",
        "Gasoline Heart",
        "Porch Light",
      ]);
      expect(text(album.html)).toContain("Headlights & Static");
      // Its title leads to the album's page.
      expect(album.html).toContain(`href="${origin}/album/${headlights}"`);
    }
    const artist = await visitor.get(`/embed/artist/${paperLanterns}`);
    const artistTracks = embedTracks(artist.html).map((track) => track.title);
    expect(artistTracks).toContain("Kites Over the Clyde");
    expect(artistTracks).not.toContain("Northern Line");
    expect(artistTracks.length).toBeLessThanOrEqual(10);
    const playlist = await visitor.get(`/embed/playlist/${lastBusHome}`);
    expect(embedTracks(playlist.html).map((track) => track.title)).toEqual([
      "Satellite Town",
      "Rain on the El",
      "Bicycle Bell",
      "Mesquite Moon",
      "Harbour Wall",
    ]);
  });

  it("draws a playlist's first waveform before anything plays", async () => {
    const fan = await newFan(`waveform_${Date.now().toString(36)}`);
    const peaks = [0.25, 0.5, 1, 0.5];
    // The route suite's demo tracks have no stored waveform: this one is given one.
    await serviceClient.from("tracks").update({ peaks }).eq("id", trackId("Harbour Wall"));
    const { data: made } = await serviceClient
      .from("playlists")
      .insert({ owner_id: fan.id, name: "Waves", is_public: true })
      .select("id")
      .single();
    await serviceClient.from("playlist_tracks").insert(
      [trackId("Harbour Wall"), trackId("Bicycle Bell")].map((track_id, position) => ({
        playlist_id: made!.id,
        track_id,
        position: position + 1,
      })),
    );
    const tracks = embedTracks((await visitor.get(`/embed/playlist/${made!.id}`)).html);
    expect(tracks.map((track) => track.peaks)).toEqual([peaks, null]);
  });

  it("chooses its size and theme by query, and answers the rest with the large dark player", async () => {
    const compact = await visitor.get(`/embed/playlist/${lastBusHome}?size=compact&theme=light`);
    expect(compact.html).toContain('data-theme="light"');
    expect(compact.html).toContain('<body class="compact">');
    expect(compact.html).not.toContain('aria-label="Tracks"');
    const large = await visitor.get(`/embed/playlist/${lastBusHome}?size=huge&theme=<b>`);
    expect(large.html).toContain('data-theme="dark"');
    expect(large.html).toContain('<body class="large">');
    expect(large.html).toContain('aria-label="Tracks"');
  });

  it("says in its own heading what is not available (404) for unreleased, private or unknown (deleted) things, even to their owner", async () => {
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    const owner = await signedIn("fan@example.com", "fan-demo-pass");
    for (const [who, path, message] of [
      [artist, `/embed/track/${northernLine}`, "This track is not available"],
      [owner, `/embed/playlist/${saturdayKitchen}`, "This playlist is not available"],
      [visitor, `/embed/playlist/00000000-0000-4000-8000-000000000000`, "This playlist is not available"],
      [visitor, `/embed/track/00000000-0000-4000-8000-000000000000`, "This track is not available"],
      [visitor, `/embed/album/${kites}`, "This album is not available"],
      [visitor, `/embed/track/not-an-id`, "This track is not available"],
      [visitor, `/embed/comments/${kites}`, "This player is not available"],
    ] as const) {
      const { response, html } = await who.get(path);
      expect(response.status, path).toBe(404);
      expect(html, path).toContain(`<h1 class="title">${message}</h1>`);
    }
    const { html } = await visitor.get(`/embed/track/${kites}`);
    expect(html).toMatch(/<h1 class="titles"><span class="now"><a class="title"[^>]*>Kites Over the Clyde<\/a>/);
  });
});

describe("an embed inside a sandbox (a frame whose origin is null, as WordPress frames one)", () => {
  it("draws its icons from its own markup, never a sprite it would have to fetch", async () => {
    const { html } = await visitor.get(`/embed/album/${headlights}`);
    expect(html).toContain('<symbol id="play"');
    expect(html).toContain('<symbol id="pause"');
    const uses = [...html.matchAll(/<use href="([^"]*)"/g)].map((match) => match[1]);
    expect(uses).toEqual(["#play"]);
  });

  it("carries a pass for its play reports, naming the framing site where its request named one", async () => {
    const pass = async (headers: Record<string, string>) =>
      /<html[^>]*data-embed="([^"]+)"/.exec((await visitor.request(`/embed/track/${kites}`, { headers })).html)?.[1];
    const own = await pass({});
    expect(own).toMatch(/^\.[\w-]{43}$/);
    const framed = await pass({ Referer: "https://blog.example.com/post", "Sec-Fetch-Dest": "iframe" });
    expect(Buffer.from(framed!.split(".")[0]!, "base64url").toString()).toBe("https://blog.example.com");
    // Only a frame's load names a site: a page's script fetching the embed (or a request without Fetch
    // Metadata) mints no pass for its own site, whatever its Referer.
    const fetched: Record<string, string>[] = [
      { Referer: "https://blog.example.com/post", "Sec-Fetch-Dest": "empty" },
      { Referer: "https://blog.example.com/post" },
    ];
    for (const headers of fetched) {
      expect((await pass(headers))!.split(".")[0]).toBe("");
    }
  });

  it("asks for its track's audio from a frame of no origin: the answer is readable by any site, without credentials", async () => {
    // Tracks here have no audio file (the browser suite plays real ones in WordPress's frame): the answer
    // that says so must reach the frame as well as a URL would.
    const listener = crypto.randomUUID();
    const { response, html } = await new Visitor().request(`/track/${kites}/source?${new URLSearchParams({ listener })}`, {
      headers: { Origin: "null", "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors" },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(JSON.parse(html)).toEqual({ error: "This track does not have an audio file", missing: true });
  });
});

describe("oEmbed", () => {
  const oembed = (params: Record<string, string>) => visitor.get(`/oembed?${new URLSearchParams(params)}`);

  it("answers the rich type for a track with its iframe, title and author, within maxwidth", async () => {
    const { response, html } = await oembed({ url: `${origin}/track/${kites}`, format: "json", maxwidth: "400" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const body = JSON.parse(html);
    expect(body).toMatchObject({
      version: "1.0",
      type: "rich",
      provider_name: "Crate",
      title: "Kites Over the Clyde by The Paper Lanterns",
      author_name: "The Paper Lanterns",
      author_url: `${origin}/artist/${paperLanterns}`,
      width: 400,
      height: 164,
    });
    expect(body.html).toBe(
      // In WordPress's shape: the page's link in a wp-embedded-content blockquote (hidden but where
      // WordPress shows it), then the frame, as wide as its host allows up to maxwidth.
      `<blockquote class="wp-embedded-content" style="display:none"><a href="${origin}/track/${kites}">Kites Over the Clyde by The Paper Lanterns</a></blockquote>` +
        `<iframe src="${origin}/embed/track/${kites}" width="400" height="164" frameborder="0" style="border:0;border-radius:12px;width:100%;max-width:400px" title="Crate player: Kites Over the Clyde by The Paper Lanterns" loading="lazy" allow="autoplay"></iframe>`,
    );
  });

  it("answers for artists, playlists and embed addresses; a maxheight below the large player gives the compact strip", async () => {
    const artist = JSON.parse((await oembed({ url: `${origin}/artist/${paperLanterns}` })).html);
    expect(artist.title).toBe("Latest releases by The Paper Lanterns");
    const playlist = JSON.parse((await oembed({ url: `${origin}/playlist/${lastBusHome}`, maxheight: "130" })).html);
    expect(playlist.height).toBe(120);
    expect(playlist.html).toContain(`/embed/playlist/${lastBusHome}?size=compact`);
    for (const url of [`${origin}/embed/album/${porchLight}`, `${origin}/album/${headlights}`]) {
      const album = JSON.parse((await oembed({ url })).html);
      expect(album.title, url).toBe("Headlights & Static by Ember Road");
      expect(album.html, url).toContain(`/embed/album/`);
    }
  });

  it("never answers a player cut short: a maxheight picks the large player down to two rows of its list, then the compact strip, then none", async () => {
    const answer = async (url: string, maxheight: string) => {
      const { response, html } = await oembed({ url, maxheight });
      return response.status === 200
        ? (({ height, html: code }) => ({ height, compact: code.includes("size=compact") }))(JSON.parse(html))
        : response.status;
    };
    const track = `${origin}/track/${kites}`;
    expect(await answer(track, "164")).toEqual({ height: 164, compact: false });
    expect(await answer(track, "163")).toEqual({ height: 120, compact: true });
    expect(await answer(track, "120")).toEqual({ height: 120, compact: true });
    expect(await answer(track, "119")).toBe(404);
    // The album's four tracks need 312 px; its list scrolls in less, down to two rows.
    const album = `${origin}/album/${headlights}`;
    expect(await answer(album, "1000")).toEqual({ height: 312, compact: false });
    expect(await answer(album, "300")).toEqual({ height: 300, compact: false });
    expect(await answer(album, "238")).toEqual({ height: 238, compact: false });
    expect(await answer(album, "237")).toEqual({ height: 120, compact: true });
    expect(await answer(album, "60")).toBe(404);
    // Nor one squeezed past the narrowest it is made for.
    expect((await oembed({ url: track, maxwidth: "200" })).response.status).toBe(200);
    expect((await oembed({ url: track, maxwidth: "199" })).response.status).toBe(404);
  });

  it("refuses unknown and foreign URLs with 404 and xml with 501", async () => {
    for (const url of [
      "https://elsewhere.example/track/" + kites,
      `${origin}/about`,
      `${origin}/track/not-an-id`,
      `${origin}/track/${northernLine}`,
      `${origin}/playlist/${saturdayKitchen}`,
      "not a url",
    ]) {
      expect((await oembed({ url, format: "json" })).response.status, url).toBe(404);
    }
    expect((await visitor.get("/oembed")).response.status).toBe(404);
    expect((await oembed({ url: `${origin}/track/${kites}`, format: "xml" })).response.status).toBe(501);
  });

  it("is named by every embeddable public page, with a player card on track pages", async () => {
    const track = await visitor.get(`/track/${kites}`);
    const link = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(track.html)?.[1]?.replace(/&amp;/g, "&");
    expect(link).toBe(`${origin}/oembed?url=${encodeURIComponent(`${origin}/track/${kites}`)}&format=json`);
    expect((await visitor.get(new URL(link!).pathname + new URL(link!).search)).response.status).toBe(200);
    expect(track.html).toContain(`<meta name="twitter:card" content="player"/>`);
    expect(track.html).toContain(`<meta name="twitter:player" content="${origin}/embed/track/${kites}"/>`);
    for (const path of [`/artist/${paperLanterns}`, `/playlist/${lastBusHome}`]) {
      expect((await visitor.get(path)).html, path).toContain('type="application/json+oembed"');
    }
  });
});

describe("the Share menu without JavaScript", () => {
  it("shows the page's address and its embed codes as text to copy, an album's on its card", async () => {
    const { html } = await visitor.get(`/track/${porchLight}`);
    const fields = text(html);
    expect(html).toMatch(new RegExp(`<input[^>]*readOnly=""[^>]*value="${origin}/track/${porchLight}"`, "i"));
    expect(fields).toContain("Embed code for Headlights & Static");
    expect(html).toContain(`/embed/track/${porchLight}&quot;`);
    expect(html).toContain(`/embed/album/${headlights}&quot;`);
    // The album's code is sized for its four tracks and named for the album, not the track.
    const albumCode = html.match(new RegExp(`/embed/album/${headlights}&quot;[^>]*`))![0];
    expect(albumCode).toContain("height=&quot;312&quot;");
    expect(albumCode).toContain("title=&quot;Crate player: Headlights &amp;amp; Static by Ember Road&quot;");
    // An album's card on its artist's page shares the album: its page and its player.
    const artist = await visitor.get(`/artist/${"a1000000-0000-4000-8000-000000000001"}`);
    expect(artist.html).toMatch(new RegExp(`<input[^>]*value="${origin}/album/${headlights}"`, "i"));
    expect(artist.html).toContain(`/embed/album/${headlights}&quot;`);
    expect(artist.html).toContain(`/embed/artist/a1000000-0000-4000-8000-000000000001&quot;`);
    const privatePlaylist = await (await signedIn("fan@example.com", "fan-demo-pass")).get(`/playlist/${saturdayKitchen}`);
    expect(privatePlaylist.html).not.toContain("Embed code");
  });
});
