// The fan space as a browser without JavaScript sees it: the dashboard's real counts, library and
// recommendations; Purchased, Following, Recently Played, Liked Songs and Your Playlists; Payment Settings
// and Edit Profile; the Like toggle on a track page. Each with the demo fan's data and with a new fan's
// empty lists, behind its guard (a visitor logs in; an artist gets 403 on the fan's pages).
import { beforeAll, describe, expect, it } from "vitest";
import { tinyPng } from "../support/media.ts";
import { Visitor, inputValue, newFan, serviceClient, signedIn, text, trackId } from "./support.ts";

const riley = "f0000000-0000-4000-8000-000000000001"; // the demo fan, 'rileyspins'
let demoFan: Visitor;

beforeAll(async () => {
  demoFan = await signedIn("fan@example.com", "fan-demo-pass");
});

const count = async (query: PromiseLike<{ count: number | null }>) => (await query).count ?? 0;

describe("the fan dashboard", () => {
  it("shows the demo fan's real counts, their library and artists to discover, from one read", async () => {
    const { response, html } = await demoFan.get("/dashboard/fan");
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(/\b2 round trips\b/);
    const page = text(html);
    expect(html).toMatch(/<h1[^>]*>Your Music<\/h1>/);
    const purchases = await count(serviceClient.from("purchases").select("id", { count: "exact", head: true }).eq("user_id", riley));
    const following = await count(serviceClient.from("followers").select("id", { count: "exact", head: true }).eq("fan_id", riley));
    const recent = await count(
      serviceClient
        .from("analytics_events")
        .select("id", { count: "exact", head: true })
        .eq("user_id", riley)
        .eq("type", "play")
        .gte("created_at", new Date(Date.now() - 30 * 86_400_000).toISOString()),
    );
    expect(purchases).toBeGreaterThan(0);
    expect(page).toContain(`Purchased Tracks ${purchases}`);
    expect(page).toContain(`Following ${following}`);
    expect(page).toContain(`Recently Played ${recent} in the last 30 days`);
    for (const path of [
      "/dashboard/fan/purchased",
      "/dashboard/fan/following",
      "/dashboard/fan/recent",
      "/dashboard/fan/payments",
      "/dashboard/fan/profile",
    ]) {
      expect(html).toContain(`href="${path}"`);
    }
    expect(page).not.toContain("Your library is empty");
    // Recommendations are artists the fan does not follow yet.
    const followed = (await serviceClient.from("followers").select("artist_id").eq("fan_id", riley)).data!.map((row) => row.artist_id);
    const recommended = [...html.matchAll(/href="\/artist\/([0-9a-f-]{36})"/g)].map((match) => match[1]);
    expect(recommended.some((id) => !followed.includes(id))).toBe(true);
  });

  it("shows a new fan the empty library, and recommendations from their favourite genres", async () => {
    const fan = await newFan("emptyfan", ["Jazz"]);
    const page = text((await fan.visitor.get("/dashboard/fan")).html);
    expect(page).toContain("Purchased Tracks 0");
    expect(page).toContain("Your library is empty");
    expect(page).toContain("Find Music");
    expect(page).toContain("Harbor Street Quartet");
    expect(page).not.toContain("Recommendations coming soon");

    const plain = await newFan("nogenres");
    const nothing = text((await plain.visitor.get("/dashboard/fan")).html);
    expect(nothing).toContain("Nothing to recommend yet");
    expect(nothing).toContain("Browse Artists");
  });

  it("sends a visitor to log in and answers an artist 403, on every fan page", async () => {
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    for (const path of [
      "/dashboard/fan",
      "/dashboard/fan/purchased",
      "/dashboard/fan/following",
      "/dashboard/fan/recent",
      "/dashboard/fan/payments",
      "/dashboard/fan/profile",
      "/dashboard/fan/settings",
    ]) {
      const visitor = await new Visitor().get(path);
      expect(visitor.response.status).toBe(302);
      expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      const denied = await artist.get(path);
      expect(denied.response.status).toBe(403);
      expect(denied.html).toContain('href="/dashboard/artist"');
    }
  });
});

describe("the fan's lists", () => {
  it("sends a page past the end of a list to its first page instead of failing", async () => {
    for (const path of ["/dashboard/fan/purchased", "/liked"]) {
      const { response } = await demoFan.get(`${path}?page=40`);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(path);
    }
  });

  it("lists the demo fan's purchases by release, newest first, with artwork, title, artist, amount and date", async () => {
    const { response, html } = await demoFan.get("/dashboard/fan/purchased");
    expect(response.status).toBe(200);
    expect(response.headers.get("server-timing")).toMatch(/\b2 round trips\b/);
    const { data } = await serviceClient
      .from("purchases")
      .select("amount, track:tracks(title)")
      .eq("user_id", riley)
      .order("created_at", { ascending: false })
      .limit(2);
    const [newest, next] = data!.map((row) => (row.track as unknown as { title: string }).title);
    const page = text(html);
    expect(page.indexOf(newest!)).toBeGreaterThan(-1);
    if (next && next !== newest) expect(page.indexOf(newest!)).toBeLessThan(page.indexOf(next));
    expect(page).toMatch(/\$\d+\.\d{2}/);
    // At 390 px a release's line wraps between its parts, so the amount is whole: never in a line cut short.
    expect(html).toMatch(/<span class="shrink-0 whitespace-nowrap">\$\d+\.\d{2}(<!-- -->)? ·<\/span>/);
    expect(html).not.toMatch(/<p class="[^"]*truncate[^"]*">(?:(?!<\/p>).)*\$\d+\.\d{2}/s);
  });

  it("marks what was refunded on Purchased: a wholly refunded order with no receipt to send again, a partly refunded one by its lines", async () => {
    const fan = await newFan(`refundee${Date.now().toString(36)}`);
    const { data: tracks } = await serviceClient
      .from("tracks")
      .select("id, artist_id, title")
      .eq("artist_id", (await serviceClient.from("tracks").select("artist_id").eq("id", trackId("Greenhouse")).single()).data!.artist_id)
      .order("title")
      .limit(2);
    const [kept, returned] = tracks!;
    // Two orders as the checkout makes them: one of two tracks, one refunded; one of a track, refunded.
    const order = async (lines: NonNullable<typeof tracks>, paidAt: string) => {
      const { data } = await serviceClient
        .from("orders")
        .insert({ buyer_id: fan.id, buyer_email: fan.email, currency: "GBP", total_cents: 99 * lines.length })
        .select("id")
        .single();
      const written = await serviceClient.from("order_lines").insert(
        lines.map((track) => ({
          order_id: data!.id,
          kind: "track",
          item_id: track.id,
          artist_id: track.artist_id,
          title: track.title,
          amount_cents: 99,
          total_cents: 99,
          artist_share_cents: 87,
          crate_cents: 12,
        })),
      );
      expect(written.error).toBeNull();
      expect((await serviceClient.from("orders").update({ state: "paid", paid_at: paidAt }).eq("id", data!.id)).error).toBeNull();
      return data!.id;
    };
    const partly = await order([kept!, returned!], new Date(Date.now() - 60_000).toISOString());
    const wholly = await order([returned!], new Date().toISOString());
    const refunded = await serviceClient
      .from("order_lines")
      .update({ refunded_at: new Date().toISOString() })
      .eq("item_id", returned!.id)
      .in("order_id", [partly, wholly]);
    expect(refunded.error).toBeNull();

    const { html } = await fan.visitor.get("/dashboard/fan/purchased");
    const orders = text(html).slice(text(html).indexOf("Your orders"));
    const reference = (id: string) => id.slice(0, 8).toUpperCase();
    const whollyShown = orders.slice(orders.indexOf(`Order ${reference(wholly)}`), orders.indexOf(`Order ${reference(partly)}`));
    const partlyShown = orders.slice(orders.indexOf(`Order ${reference(partly)}`));
    expect(whollyShown).toContain("Refunded");
    expect(whollyShown).not.toContain("Send the receipt again");
    expect(partlyShown).toContain(`${returned!.title} (refunded)`);
    expect(partlyShown).not.toContain(`${kept!.title} (refunded)`);
    expect(partlyShown).toContain("Send the receipt again");
    // No form to send the wholly refunded order's receipt again.
    expect(html).not.toContain(`value="${wholly}"`);
    expect(html).toContain(`value="${partly}"`);
  });

  it("lists followed artists with an Unfollow that works without JavaScript", async () => {
    const fan = await newFan("follower");
    const empty = await fan.visitor.get("/dashboard/fan/following");
    expect(text(empty.html)).toContain("Discover Artists");
    expect(empty.html).toMatch(/<a[^>]*href="\/discover"[^>]*>[^<]*Discover Artists/);

    const artistId = "a1000000-0000-4000-8000-000000000012";
    const followed = await fan.visitor.post(`/artist/${artistId}/follow`, { intent: "follow", redirectTo: "/artist/" + artistId });
    expect(followed.response.status).toBe(303);
    const list = await fan.visitor.get("/dashboard/fan/following");
    expect(text(list.html)).toContain("The Paper Lanterns");
    const unfollowed = await fan.visitor.post(`/artist/${artistId}/follow`, { intent: "unfollow", redirectTo: "/dashboard/fan/following" });
    expect(unfollowed.response.headers.get("location")).toBe("/dashboard/fan/following");
    expect(text((await fan.visitor.get("/dashboard/fan/following")).html)).not.toContain("The Paper Lanterns");
  });

  it("lists at most 30 plays of the last 30 days, newest first, at both addresses", async () => {
    const { html } = await demoFan.get("/dashboard/fan/recent");
    const rows = html.match(/<li class="flex items-center gap-4 p-3">/g) ?? [];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(30);
    expect(text(html)).toMatch(/\d+[mhd] ago|just now/);
    // /recent is the sidebar's: any signed-in user, an artist too.
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    expect((await artist.get("/recent")).response.status).toBe(200);
    const fan = await newFan("quietfan");
    expect(text((await fan.visitor.get("/recent")).html)).toContain("No recently played tracks");
    expect(text((await fan.visitor.get("/dashboard/fan/purchased")).html)).toContain("No purchased tracks yet");
  });

  it("shows Your Playlists to any signed-in user (a new one its empty state), and sends a visitor to log in", async () => {
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    expect(text((await artist.get("/playlists")).html)).toContain("Lanterns on the road 3 tracks · Public");
    const fan = await newFan("noplaylists");
    expect(text((await fan.visitor.get("/playlists")).html)).toContain("No playlists created yet");
    for (const path of ["/recent", "/liked", "/playlists"]) {
      expect((await new Visitor().get(path)).response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });
});

describe("liked songs", () => {
  it("likes and unlikes a track with a form that works without JavaScript, and lists likes newest first", async () => {
    const fan = await newFan("liker");
    expect(text((await fan.visitor.get("/liked")).html)).toContain("No liked songs yet");
    const first = trackId("Harbour Wall");
    const second = trackId("Bicycle Bell");
    const trackPage = await fan.visitor.get(`/track/${first}`);
    expect(trackPage.html).toMatch(/<button[^>]*aria-pressed="false"[^>]*aria-label="Like Harbour Wall"/);

    for (const id of [first, second]) {
      const liked = await fan.visitor.post(`/track/${id}/like`, { intent: "like" });
      expect(liked.response.status).toBe(303);
      expect(liked.response.headers.get("location")).toBe(`/track/${id}`);
    }
    // Twice is still one like.
    expect((await fan.visitor.post(`/track/${first}/like`, { intent: "like" })).response.status).toBe(303);
    expect((await fan.visitor.get(`/track/${first}`)).html).toMatch(/<button[^>]*aria-pressed="true"[^>]*aria-label="Like Harbour Wall"/);

    const list = text((await fan.visitor.get("/liked")).html);
    expect(list.indexOf("Bicycle Bell")).toBeGreaterThan(-1);
    expect(list.indexOf("Bicycle Bell")).toBeLessThan(list.indexOf("Harbour Wall"));

    await fan.visitor.post(`/track/${first}/like`, { intent: "unlike" });
    expect(text((await fan.visitor.get("/liked")).html)).not.toContain("Harbour Wall");
  });

  it("refuses a track the user cannot see, sends a visitor to log in, and never shows one user's likes to another", async () => {
    const fan = await newFan("sneaky");
    expect((await fan.visitor.post(`/track/${trackId("Northern Line")}/like`, { intent: "like" })).response.status).toBe(404);
    expect((await fan.visitor.post("/track/not-a-track/like", { intent: "like" })).response.status).toBe(404);
    const visitor = await new Visitor().post(`/track/${trackId("Harbour Wall")}/like`, { intent: "like" });
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(`/track/${trackId("Harbour Wall")}`)}`);
    const other = await newFan("otherliker");
    await other.visitor.post(`/track/${trackId("Greenhouse")}/like`, { intent: "like" });
    expect(text((await fan.visitor.get("/liked")).html)).not.toContain("Greenhouse");
  });
});

describe("the fan's payment settings", () => {
  it("saves the PayPal email and currency, and refuses a bad email keeping what was typed", async () => {
    const fan = await newFan("payer");
    const page = await fan.visitor.get("/dashboard/fan/payments");
    expect(page.response.status).toBe(200);
    const refused = await fan.visitor.post("/dashboard/fan/payments", { paypalEmail: "not-an-email", currency: "EUR" });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("PayPal email must be a valid email address");
    expect(inputValue(refused.html, "paypalEmail")).toBe("not-an-email");
    expect((await fan.visitor.post("/dashboard/fan/payments", { paypalEmail: "", currency: "YEN" })).response.status).toBe(400);

    // A new PayPal email takes the current password.
    const unproven = await fan.visitor.post("/dashboard/fan/payments", {
      paypalEmail: "payer@example.com",
      currency: "GBP",
      currentPassword: "wrong",
    });
    expect(unproven.response.status).toBe(400);
    expect(text(unproven.html)).toContain("Your current password is not right");
    expect(inputValue(unproven.html, "paypalEmail")).toBe("payer@example.com");
    const saved = await fan.visitor.post("/dashboard/fan/payments", {
      paypalEmail: "payer@example.com",
      currency: "GBP",
      currentPassword: fan.password,
    });
    expect(saved.response.status).toBe(200);
    expect(text(saved.html)).toContain("Payment settings saved");
    const { data } = await serviceClient.from("fan_payout_settings").select("payment_settings").eq("fan_id", fan.id).single();
    expect(data?.payment_settings).toEqual({ paypal_email: "payer@example.com", default_currency: "GBP" });
  });
});

describe("the fan's Edit Profile", () => {
  it("saves username, bio with emoji and genres, goes back to the dashboard, and the public page shows them", async () => {
    const fan = await newFan("editor");
    const form = await fan.visitor.get("/dashboard/fan/profile");
    expect(inputValue(form.html, "username")).toBe("editor");
    expect(text(form.html)).toContain("ideally square and at least 400×400 pixels");

    const refused = await fan.visitor.post("/dashboard/fan/profile", { username: " ", bio: "Kept 🎧", favoriteGenres: ["Jazz"] });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Username is required");
    expect(refused.html).toContain("Kept 🎧");

    const saved = await fan.visitor.post("/dashboard/fan/profile", {
      username: "editor-renamed",
      bio: "Night owl 🎧🌙",
      favoriteGenres: ["Jazz", "Folk"],
    });
    expect(saved.response.status).toBe(303);
    expect(saved.response.headers.get("location")).toBe("/dashboard/fan");
    const picture = new FormData();
    picture.set("intent", "picture");
    picture.set("picture", new File([tinyPng], "me.png", { type: "image/png" }));
    expect((await fan.visitor.postMultipart("/dashboard/fan/profile", picture)).response.status).toBe(303);

    const publicPage = await new Visitor().get(`/fan/${fan.id}`);
    const shown = text(publicPage.html);
    expect(shown).toContain("editor-renamed");
    expect(shown).toContain("Night owl 🎧🌙");
    expect(shown).toContain("Jazz");
    const { data } = await serviceClient.from("fan_profiles").select("profile_image_url").eq("id", fan.id).single();
    expect(publicPage.html).toContain(data!.profile_image_url!);
  });
});
