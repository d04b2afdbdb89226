// Another site cannot change anything on a visitor's behalf: every POST a page of another origin could
// send (a form, or fetch with credentials) is refused before it takes effect, resource routes included,
// while the same POST from our own pages still works.
import { describe, expect, it } from "vitest";
import { Visitor, appUrl, heardTicket, listeningVisitor, serviceClient, sessionCookie, signedIn, trackId } from "./support.ts";

// What a browser sends with a POST from a page of another site: current browsers send both headers,
// older ones only Origin; a sandboxed frame or a privacy-minded redirect sends Origin: null.
const crossSite: Record<string, Record<string, string>> = {
  "another origin": { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
  "another origin (Origin only)": { Origin: "https://evil.example" },
  "another site (Sec-Fetch-Site only)": { "Sec-Fetch-Site": "cross-site" },
  "a sibling site": { Origin: "https://shop.evil.example", "Sec-Fetch-Site": "same-site" },
  "an opaque origin": { Origin: "null" },
};
const cases = Object.entries(crossSite);
const sameOrigin = () => ({ Origin: new URL(appUrl).origin, "Sec-Fetch-Site": "same-origin" });

// Refused by the Worker before any route runs, page actions and resource routes alike: 403, as docs/site.md says.
const refused = (response: Response) => expect(response.status).toBe(403);

// rileyspins, fan@example.com in the demo data.
const fanId = "f0000000-0000-4000-8000-000000000001";

describe("signing out (resource route)", () => {
  it.each(cases)("refuses a POST from %s and keeps the session", async (_, headers) => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const { response } = await fan.post("/logout", {}, headers);
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(sessionCookie(fan)).toBeDefined();
    expect((await fan.get("/dashboard/fan")).response.status).toBe(200);
  });

  it("signs out on a POST from our own page", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const { response } = await fan.post("/logout", {}, sameOrigin());
    expect(response.headers.get("location")).toBe("/");
    expect(sessionCookie(fan)).toBeUndefined();
  });
});

describe("recording a play (resource route)", () => {
  const track = trackId("Bicycle Bell");
  /** The track's plays, or one listener's (`user`: an account's, `null`: visitors'). */
  const plays = async (user?: string | null) => {
    let query = serviceClient
      .from("analytics_events")
      .select("id", { count: "exact", head: true })
      .eq("track_id", track)
      .eq("type", "play");
    if (user !== undefined) query = user === null ? query.is("user_id", null) : query.eq("user_id", user);
    const { count, error } = await query;
    expect(error).toBeNull();
    return count!;
  };

  it.each(cases)("refuses a POST from %s and records nothing", async (_, headers) => {
    const before = await plays();
    expect((await new Visitor().post(`/track/${track}/play`, {}, headers)).response.status).toBe(403);
    expect(await plays()).toBe(before);
  });

  /** The pass an embed of the track is served with (`referer`: the page framing it). */
  const embedPass = async (referer?: string) => {
    const { html } = await new Visitor().request(`/embed/track/${track}`, {
      headers: referer ? { Referer: referer, "Sec-Fetch-Dest": "iframe" } : {},
    });
    return /<html[^>]*data-embed="([^"]+)"/.exec(html)![1]!;
  };
  /** An embedded player's report from a frame sandboxed without an origin (as WordPress frames one). */
  const fromSandbox = { Origin: "null", "Sec-Fetch-Site": "cross-site" };

  it("takes an embedded player's report from a sandboxed frame with the pass its page was served with, readable by it", async () => {
    const before = await plays();
    const listener = crypto.randomUUID();
    const query = {
      listener,
      ticket: await heardTicket(track, `visitor:${listener}`),
      embed: await embedPass("https://blog.example.com/a"),
    };
    const { response } = await new Visitor().post(`/track/${track}/play?${new URLSearchParams(query)}`, {}, fromSandbox);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(await plays()).toBe(before + 1);
    // The same play again within 10 minutes is the same play: the honest-play rules are unchanged.
    expect((await new Visitor().post(`/track/${track}/play?${new URLSearchParams(query)}`, {}, fromSandbox)).response.status).toBe(204);
    expect(await plays()).toBe(before + 1);
  });

  it("refuses a cross-site report without a pass the Worker signed, and takes one with a pass only without cookies", async () => {
    const before = await plays();
    const listener = crypto.randomUUID();
    const ticket = await heardTicket(track, `visitor:${listener}`);
    const pass = await embedPass();
    const [site, signature] = pass.split(".");
    for (const embed of ["", `${site}.${"A".repeat(43)}`, `${Buffer.from("https://evil.example").toString("base64url")}.${signature}`]) {
      const { response } = await new Visitor().post(
        `/track/${track}/play?${new URLSearchParams({ listener, ticket, embed })}`,
        {},
        fromSandbox,
      );
      expect(response.status, embed).toBe(403);
    }
    expect(await plays()).toBe(before);
    // A signed-in fan's cookies do not come along: their own ticket is no one's there, and a visitor's play is a visitor's.
    const [fansBefore, visitorsBefore] = [await plays(fanId), await plays(null)];
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const asFan = { listener, ticket: await heardTicket(track, `user:${fanId}`), embed: pass };
    expect((await fan.post(`/track/${track}/play?${new URLSearchParams(asFan)}`, {}, fromSandbox)).response.status).toBe(403);
    expect(
      (await fan.post(`/track/${track}/play?${new URLSearchParams({ listener, ticket, embed: pass })}`, {}, fromSandbox)).response.status,
    ).toBe(204);
    expect([await plays(fanId), await plays(null)]).toEqual([fansBefore, visitorsBefore + 1]);
    // Any other state change from the sandbox is refused as ever, pass or none.
    expect((await fan.post(`/logout?${new URLSearchParams({ embed: pass })}`, {}, fromSandbox)).response.status).toBe(403);
  });

  it("records a play posted by our own player", async () => {
    const before = await plays();
    const { visitor, ticket } = await listeningVisitor(track);
    expect((await visitor.post(`/track/${track}/play?${new URLSearchParams({ ticket })}`, {}, sameOrigin())).response.status).toBe(204);
    expect(await plays()).toBe(before + 1);
  });
});

describe("page actions, as a form and as a JavaScript request", () => {
  const artist = "a1000000-0000-4000-8000-000000000009";
  const follows = async () => {
    const { count, error } = await serviceClient
      .from("followers")
      .select("id", { count: "exact", head: true })
      .eq("artist_id", artist)
      .eq("fan_id", fanId);
    expect(error).toBeNull();
    return count!;
  };

  it.each(cases)("refuses a follow from %s", async (_, headers) => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect(await follows()).toBe(0);
    refused((await fan.post(`/artist/${artist}/follow`, { intent: "follow" }, headers)).response);
    refused((await fan.post(`/artist/${artist}/follow.data`, { intent: "follow" }, headers)).response);
    expect(await follows()).toBe(0);
  });

  it.each(cases)("refuses a comment from %s", async (_, headers) => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const content = `Posted from elsewhere ${crypto.randomUUID()}`;
    refused((await fan.post(`/track/${trackId("Bicycle Bell")}`, { intent: "comment", content }, headers)).response);
    refused((await fan.post(`/track/${trackId("Bicycle Bell")}.data`, { intent: "comment", content }, headers)).response);
    const { count } = await serviceClient.from("comments").select("id", { count: "exact", head: true }).eq("content", content);
    expect(count).toBe(0);
  });

  it.each(cases)("refuses a sign-in from %s (no session is set)", async (_, headers) => {
    const visitor = new Visitor();
    refused((await visitor.post("/login", { email: "fan@example.com", password: "fan-demo-pass" }, headers)).response);
    refused((await visitor.post("/login.data", { email: "fan@example.com", password: "fan-demo-pass" }, headers)).response);
    expect(sessionCookie(visitor)).toBeUndefined();
  });

  it("still takes a follow posted from our own page", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.post(`/artist/${artist}/follow`, { intent: "follow", fetcher: "1" }, sameOrigin())).response.status).toBe(200);
    expect(await follows()).toBe(1);
    expect((await fan.post(`/artist/${artist}/follow`, { intent: "unfollow", fetcher: "1" }, sameOrigin())).response.status).toBe(200);
    expect(await follows()).toBe(0);
  });
});
