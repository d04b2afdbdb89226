// The track page as a browser without JavaScript sees it, rendered by the built Worker against the demo
// data (without generated media: tracks here have no audio file): the page, the purchase dialog, the
// comment forms and the play-recording resource route.
import { describe, expect, it } from "vitest";
import {
  Visitor,
  appUrl,
  heardTicket,
  listeningVisitor,
  serviceClient,
  signedIn,
  storesMadeSoFarLanded,
  text,
  title,
  trackId,
} from "./support.ts";

const fan = () => signedIn("fan@example.com", "fan-demo-pass");

describe("the track page", () => {
  it("shows an album track with its artist, tiles, the album box and the price, in one backend round trip", async () => {
    const { response, html } = await new Visitor().get(`/track/${trackId("Bicycle Bell")}`);
    expect(response.status).toBe(200);
    expect(title(html)).toBe("Bicycle Bell by The Paper Lanterns · Crate");
    const page = text(html);
    expect(html).toMatch(/<h1[^>]*>Bicycle Bell<\/h1>/);
    expect(html).toContain(`href="/artist/a1000000-0000-4000-8000-000000000012"`);
    expect(page).toContain("Chiming guitars and a bicycle bell, recorded in one go in the church hall.");
    expect(page).toMatch(/Genre Indie Subgenre Jangle Pop Release Date \w+ \d+, \d{4} Label Kelvin Records/);
    expect(page).toContain("From the album Small Town Satellites Track 2");
    // In its artist's currency (The Paper Lanterns sell in pounds).
    expect(page).toContain("Buy Now - £1.29");
    expect(html).toContain('alt="Artwork for Bicycle Bell"');
    // Its artwork, the page's largest paint, is asked for from the head, before the body shows it.
    const artwork = html.match(/<img src="([^"]+)" alt="Artwork for Bicycle Bell"/)?.[1];
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain(`<link rel="preload" href="${artwork}" as="image" fetchPriority="high"/>`);
    // The track, its comments, what its buyers also bought and who supports it, side by side.
    expect(response.headers.get("server-timing")).toMatch(/"1 round trips?, 5 requests"/);
  });

  it("is never kept in the edge cache while its audio cannot be played (here no track has an audio file)", async () => {
    const path = `/track/${trackId("Bicycle Bell")}?cache-check=${Date.now()}`;
    const first = await new Visitor().get(path);
    // The audio URL streams in after the headers, so only the cache's own store can leave the page out.
    expect(first.html).toContain("This track does not have an audio file");
    await storesMadeSoFarLanded();
    const again = await new Visitor().get(path);
    expect(again.response.headers.get("cf-cache-status")).toBeNull();
    expect(again.response.headers.get("server-timing")).toMatch(/1 round trip/);
  });

  it("shows a single without an album box, and prices with two decimals", async () => {
    const burnTheMap = text((await new Visitor().get(`/track/${trackId("Burn the Map")}`)).html);
    expect(burnTheMap).toContain("Buy Now - $1.49");
    expect(burnTheMap).not.toContain("From the album");
    expect(burnTheMap).not.toContain("Label");
    expect(text((await new Visitor().get(`/track/${trackId("Night Bus Home")}`)).html)).toContain("Buy Now - $0.99");
  });

  it("writes the release date in the reader's language", async () => {
    const { data } = await serviceClient.from("tracks").select("release_date").eq("id", trackId("Lowlight")).single();
    const [year, month, day] = (data!.release_date as string).split("-").map(Number) as [number, number, number];
    const german = new Intl.DateTimeFormat("de-DE", { dateStyle: "long", timeZone: "UTC" }).format(Date.UTC(year, month - 1, day));
    const response = await fetch(new URL(`/track/${trackId("Lowlight")}`, appUrl), {
      headers: { "Accept-Language": "de-DE,de;q=0.9,en;q=0.5" },
    });
    expect(text(await response.text())).toContain(`Release Date ${german}`);
  });

  it("says 'Track not found' with status 404 for a missing track, a malformed id and an unreleased track", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-track", trackId("Northern Line")]) {
      const { response, html } = await new Visitor().get(`/track/${id}`);
      expect(response.status).toBe(404);
      expect(text(html)).toContain("Track not found");
      expect(title(html)).toBe("Track not found · Crate");
    }
  });

  it("shows an unreleased track to its own artist", async () => {
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    const { response, html } = await artist.get(`/track/${trackId("Northern Line")}`);
    expect(response.status).toBe(200);
    expect(text(html)).toContain("Northern Line");
  });

  it("explains why a track without an audio file cannot be played", async () => {
    const page = text((await new Visitor().get(`/track/${trackId("Glow")}`)).html);
    expect(page).toContain("Unable to play track This track does not have an audio file");
  });

  it("answers the audio address (the browser's own player) with why there is nothing to play, never cached", async () => {
    for (const [id, message] of [
      [trackId("Glow"), "This track does not have an audio file"],
      [trackId("Northern Line"), "Track not found"],
      ["not-a-track", "Track not found"],
    ] as const) {
      const response = await fetch(new URL(`/track/${id}/audio`, appUrl), { redirect: "manual" });
      expect(response.status).toBe(404);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.text()).toContain(message);
    }
  });

  it("renders the purchase dialog open for ?buy=1, so Buy Now works without JavaScript", async () => {
    const path = `/track/${trackId("Glow")}`;
    expect((await new Visitor().get(path)).html).toMatch(/<a[^>]*href="\/track\/[^"]+\?buy=1"[^>]*>Buy Now - \$1\.29<\/a>/);
    const { html } = await new Visitor().get(`${path}?buy=1`);
    const dialog = html.match(/<dialog[^>]*>[\s\S]*?<\/dialog>/)?.[0] ?? "";
    expect(dialog).toMatch(/^<dialog open=""/);
    // In place, not sent after the page for a script to move in (React does so past a size, and without
    // JavaScript the dialog would stay hidden).
    expect(html.indexOf("<dialog")).toBeLessThan(html.indexOf("</main>"));
    // A visitor is asked to log in to buy it as a gift (a gift is followed from an account's Purchased).
    expect(text(dialog)).toMatch(
      /Complete Purchase Glow Mara Vale \$1\.29 .*Buy now Add to cart To buy it as a gift, log in first.* Close/,
    );
    expect(dialog).toContain(`href="/login?redirectTo=${encodeURIComponent(path)}"`);
    // Plain forms: to the cart (or straight to payment), and Close.
    expect(dialog).toMatch(/<form(?=[^>]*method="post")(?=[^>]*action="\/cart")/);
    expect(dialog).toMatch(/<form[^>]*method="dialog"/);
  });
});

describe("comments", () => {
  it("lists a track's comments newest first with who wrote them and when, and offers visitors a way to log in", async () => {
    const path = `/track/${trackId("Bicycle Bell")}`;
    const { html } = await new Visitor().get(path);
    const page = text(html);
    expect(page).toContain("Comments (3)");
    expect(page.indexOf("The Paper Lanterns Artist 5h ago")).toBeLessThan(page.indexOf("midnight_marco 3d ago"));
    expect(page.indexOf("midnight_marco 3d ago")).toBeLessThan(page.indexOf("priya_plays 16d ago"));
    expect(html).toContain(`href="/login?redirectTo=${encodeURIComponent(`${path}#comments`)}"`);
    expect(html).not.toContain('name="content"');
  });

  it("sends a visitor who posts to log in first, and saves nothing", async () => {
    const path = `/track/${trackId("Greenhouse")}`;
    const { response } = await new Visitor().post(path, { intent: "comment", content: "Sneaky" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    const { count } = await serviceClient.from("comments").select("id", { count: "exact", head: true }).eq("content", "Sneaky");
    expect(count).toBe(0);
  });

  it("lets a fan post a comment and delete it", async () => {
    const visitor = await fan();
    const path = `/track/${trackId("Greenhouse")}`;
    const words = `Tomatoes and tunes ${Date.now()}`;
    const posted = await visitor.post(path, { intent: "comment", content: `  ${words}  ` });
    expect(posted.response.status).toBe(302);
    expect(posted.response.headers.get("location")).toBe(`${path}#comments`);

    const { html } = await visitor.get(path);
    expect(text(html)).toContain(`rileyspins just now ${words}`);
    const { data } = await serviceClient.from("comments").select("id").eq("content", words).single();
    expect(html).toContain(`value="${data!.id}"`);

    const deleted = await visitor.post(path, { intent: "delete-comment", commentId: data!.id });
    expect(deleted.response.headers.get("location")).toBe(`${path}#comments`);
    expect(text((await visitor.get(path)).html)).not.toContain(words);
  });

  it("shows whom a reply answers, linked to their page", async () => {
    const visitor = await fan();
    const path = `/track/${trackId("Greenhouse")}`;
    const { data: answered } = await serviceClient
      .from("track_comments")
      .select("id, user_id, author_name")
      .eq("track_id", trackId("Greenhouse"))
      .like("content", "Give Iona%")
      .single();
    const words = `Her gran deserves it ${Date.now()}`;
    const posted = await visitor.post(path, { intent: "comment", content: words, replyTo: answered!.id });
    expect(posted.response.status).toBe(302);

    const { html } = await new Visitor().get(path);
    expect(text(html)).toContain(`rileyspins just now in reply to ${answered!.author_name} ${words}`);
    expect(html).toMatch(new RegExp(`in reply to(<!-- -->)? <a [^>]*href="/fan/${answered!.user_id}"`));
  });

  it("refuses an empty or too long comment next to the field, keeping what was typed", async () => {
    const visitor = await fan();
    const path = `/track/${trackId("Greenhouse")}`;
    const empty = await visitor.post(path, { intent: "comment", content: "   " });
    expect(empty.response.status).toBe(400);
    expect(text(empty.html)).toContain("Please write a comment first");

    const long = `Long ${"la ".repeat(700)}`;
    const tooLong = await visitor.post(path, { intent: "comment", content: long });
    expect(tooLong.response.status).toBe(400);
    expect(text(tooLong.html)).toContain("Comments can be at most 2,000 characters");
    expect(tooLong.html).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*>Long la la/);
  });

  it("deletes only your own comments", async () => {
    const visitor = await fan();
    const path = `/track/${trackId("Bicycle Bell")}`;
    const { data } = await serviceClient
      .from("comments")
      .select("id")
      .eq("track_id", trackId("Bicycle Bell"))
      .neq("user_id", "f0000000-0000-4000-8000-000000000001")
      .limit(1)
      .single();
    const { response, html } = await visitor.post(path, { intent: "delete-comment", commentId: data!.id });
    expect(response.status).toBe(403);
    expect(text(html)).toContain("You can only delete your own comments");
    expect((await serviceClient.from("comments").select("id").eq("id", data!.id)).data).toHaveLength(1);
  });

  it("pages with Show more, and names an author without a profile 'Unknown User'", async () => {
    const path = `/track/${trackId("Tramlines")}`;
    const administrator = await signedIn("admin@example.com", "admin-demo-pass");
    for (let n = 1; n <= 5; n++) {
      expect((await administrator.post(path, { intent: "comment", content: `Tram number ${n}` })).response.status).toBe(302);
    }
    // A sixth within the minute is one too many from one user on one track; it is written as the backend's operator.
    const tooFast = await administrator.post(path, { intent: "comment", content: "Tram number 6" });
    expect(tooFast.response.status).toBe(429);
    expect(text(tooFast.html)).toContain("You are commenting too fast. Please wait a minute and try again.");
    expect(tooFast.html).toMatch(/<textarea[^>]*name="content"[^>]*>Tram number 6<\/textarea>/);
    const { data: fifth } = await serviceClient.from("comments").select("user_id, track_id").eq("content", "Tram number 5").single();
    expect((await serviceClient.from("comments").insert({ ...fifth!, content: "Tram number 6" })).error).toBeNull();
    const first = await new Visitor().get(path);
    const firstPage = text(first.html);
    expect(firstPage).toContain("Comments (6)");
    expect(firstPage).toContain("Unknown User just now Tram number 6");
    expect(firstPage).not.toContain("Tram number 1");
    expect(first.html).toContain(`href="${path}?comments=10#comment-6"`);

    const more = text((await new Visitor().get(`${path}?comments=10`)).html);
    expect(more).toContain("Tram number 1");
    expect(more).not.toContain("Show more");
  });
});

describe("recording plays", () => {
  const playsOf = async (id: string, userId: string | null) => {
    const query = serviceClient.from("analytics_events").select("id", { count: "exact", head: true }).eq("track_id", id).eq("type", "play");
    const { count } = await (userId ? query.eq("user_id", userId) : query.is("user_id", null));
    return count ?? 0;
  };

  const demoFanId = "f0000000-0000-4000-8000-000000000001";
  const played = (visitor: Visitor, id: string, query: Record<string, string>, headers: Record<string, string> = {}) =>
    visitor.post(`/track/${id}/play?${new URLSearchParams(query)}`, {}, headers);

  it("records a visitor's play with the ticket its URL came with, and a fan's as theirs", async () => {
    const id = trackId("Harbour Wall");
    const visitorsBefore = await playsOf(id, null);
    const { visitor, ticket } = await listeningVisitor(id);
    expect((await played(visitor, id, { ticket })).response.status).toBe(204);
    expect(await playsOf(id, null)).toBe(visitorsBefore + 1);

    const fansBefore = await playsOf(id, demoFanId);
    expect((await played(await fan(), id, { ticket: await heardTicket(id, `user:${demoFanId}`) })).response.status).toBe(204);
    expect(await playsOf(id, demoFanId)).toBe(fansBefore + 1);
  });

  it("counts no play without a ticket, with a forged one or another listener's, nor one reported sooner than 5 s after its URL", async () => {
    const id = trackId("Harbour Wall");
    const before = await playsOf(id, null);
    const { visitor, ticket } = await listeningVisitor(id);
    expect((await played(visitor, id, {})).response.status).toBe(403);
    expect((await played(visitor, id, { ticket: ticket.replace(/.$/, (last) => (last === "A" ? "B" : "A")) })).response.status).toBe(403);
    expect(
      (await played(visitor, id, { ticket: await heardTicket(trackId("Bicycle Bell"), `visitor:${crypto.randomUUID()}`) })).response.status,
    ).toBe(403);
    // Rotating the listener id: the ticket is the other listener's.
    const rotated = new Visitor();
    rotated.cookies.set("listener", crypto.randomUUID());
    expect((await played(rotated, id, { ticket })).response.status).toBe(403);
    // A ticket given with the URL just now, reported at once.
    const listener = crypto.randomUUID();
    const early = new Visitor();
    early.cookies.set("listener", listener);
    expect((await played(early, id, { ticket: await heardTicket(id, `visitor:${listener}`, 1000) })).response.status).toBe(409);
    expect(await playsOf(id, null)).toBe(before);
  });

  it("counts a listener's repeated reports once", async () => {
    const id = trackId("Harbour Wall");
    const before = await playsOf(id, null);
    const { visitor, ticket } = await listeningVisitor(id);
    for (let i = 0; i < 5; i++) expect((await played(visitor, id, { ticket })).response.status).toBe(204);
    expect(await playsOf(id, null)).toBe(before + 1);

    const demoFan = await fan();
    const fanBefore = await playsOf(id, demoFanId);
    const fanTicket = await heardTicket(id, `user:${demoFanId}`);
    for (let i = 0; i < 5; i++) await played(demoFan, id, { ticket: fanTicket });
    expect(await playsOf(id, demoFanId)).toBeLessThanOrEqual(fanBefore + 1);
  });

  it("knows an embedded player's listener by the id it names (it sends no cookies), and sets no cookie for it", async () => {
    const id = trackId("Harbour Wall");
    const listener = crypto.randomUUID();
    const ticket = await heardTicket(id, `visitor:${listener}`);
    const before = await playsOf(id, null);
    for (let i = 0; i < 3; i++) {
      const { response } = await played(new Visitor(), id, { listener, ticket });
      expect(response.status).toBe(204);
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(await playsOf(id, null)).toBe(before + 1);
  });

  it("records the country Cloudflare located the listener in: unknown locally, and never taken from a header", async () => {
    const id = trackId("Bicycle Bell");
    const { visitor, ticket } = await listeningVisitor(id);
    const reported = await played(visitor, id, { ticket }, { "CF-IPCountry": "FR" });
    expect(reported.response.status).toBe(204);
    const { data } = await serviceClient
      .from("analytics_events")
      .select("country")
      .eq("track_id", id)
      .is("user_id", null)
      .order("created_at", { ascending: false })
      .limit(1)
      .single();
    expect(data).toEqual({ country: null });
  });

  it("records the site that framed an embedded player, as its embed request named it and the server signed it; nothing else", async () => {
    const id = trackId("Greenhouse");
    const latestEmbedding = async () => {
      const { data } = await serviceClient
        .from("analytics_events")
        .select("embedded_on")
        .eq("track_id", id)
        .is("user_id", null)
        .order("created_at", { ascending: false })
        .limit(1)
        .single();
      return data?.embedded_on;
    };
    /** The pass an embed's page carries when framed by `referer`. */
    const framedBy = async (referer: string) => {
      const { html } = await new Visitor().request(`/embed/track/${id}`, { headers: { Referer: referer, "Sec-Fetch-Dest": "iframe" } });
      return /<html[^>]*data-embed="([^"]+)"/.exec(html)![1]!;
    };
    const play = async (embed: string | null) => {
      const { visitor, ticket } = await listeningVisitor(id);
      return played(visitor, id, { ticket, ...(embed ? { embed } : {}) });
    };
    const blog = await framedBy("https://blog.example.com/2026/11/a-song-i-love");
    expect((await play(blog)).response.status).toBe(204);
    expect(await latestEmbedding()).toBe("https://blog.example.com");
    // Each framing site has its own copy of the page, so none is another's.
    const zine = await framedBy("https://Zine.example.org:8443/reviews/1?x");
    expect(zine).not.toBe(blog);
    expect((await play(zine)).response.status).toBe(204);
    expect(await latestEmbedding()).toBe("https://zine.example.org:8443");
    // A look-alike is kept as its punycode.
    // (a browser names the host in its Referer as the URL parser spells it: punycode)
    expect((await play(await framedBy(new URL("https://\u0440\u0430\u0443\u0440\u0430l.com/").href))).response.status).toBe(204);
    expect(await latestEmbedding()).toMatch(/^https:\/\/xn--[a-z0-9-]+\.com$/);
    // What is no real public site gives the pass no site; what the server did not sign counts as Crate's own.
    for (const referer of ["https://localhost:3000/", "http://127.0.0.1/", "https://..", "https://intranet/", new URL(appUrl).origin]) {
      const pass = await framedBy(referer);
      expect(pass.split(".")[0], referer).toBe("");
      expect((await play(pass)).response.status, referer).toBe(204);
      expect(await latestEmbedding(), referer).toBeNull();
    }
    for (const forged of ["https://blog.example.com", `${blog.split(".")[0]}.${"A".repeat(43)}`, "javascript:alert(1)"]) {
      expect((await play(forged)).response.status, forged).toBe(204);
      expect(await latestEmbedding(), forged).toBeNull();
    }
  });

  it("records nothing for a track the listener cannot see", async () => {
    const unreleased = trackId("Northern Line");
    const { visitor, ticket } = await listeningVisitor(unreleased);
    expect((await played(visitor, unreleased, { ticket })).response.status).toBe(404);
    expect((await new Visitor().post("/track/not-a-track/play", {})).response.status).toBe(404);
    expect(await playsOf(trackId("Northern Line"), null)).toBe(0);
  });
});
