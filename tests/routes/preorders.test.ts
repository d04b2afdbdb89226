// Pre-orders without JavaScript, rendered by the built Worker: the artist puts an album dated ahead on
// pre-order from a track's edit page (its day and its instant downloads, as a plain form), the album page
// says so and sells it whole, a fan pays for it through the Stripe stand-in and gets the instant track at
// once and nothing else (the track download, the album's zip and the stream refuse the rest), the artist
// moves the day (the buyer is mailed) and withdraws it (the buyer refunded, the album hidden again).
import { beforeAll, describe, expect, inject, it } from "vitest";
import { toneWav } from "../support/media.ts";
import { readZip } from "../support/zip.ts";
import { mailsTo, newArtist, newFan, serviceClient, text, Visitor } from "./support.ts";

const { url: stripeUrl } = inject("stripe");

/** A day `days` from today, as `YYYY-MM-DD`. */
const dayAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const inWords = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });

let artist: Awaited<ReturnType<typeof newArtist>>;
const artistName = `Preorder Band ${Date.now().toString(36)}`;
let fan: Awaited<ReturnType<typeof newFan>>;
let albumId: string;
let instant: { id: string; bytes: Uint8Array };
let later: { id: string; bytes: Uint8Array };
const outOn = dayAhead(30);

/** A track of the album's with a master in the artist's folder, dated ahead, written as the operator would. */
async function albumTrack(title: string, trackNumber: number) {
  const bytes = toneWav(0.2);
  const path = `${artist.id}/${crypto.randomUUID()}.wav`;
  expect((await serviceClient.storage.from("tracks").upload(path, new Blob([bytes], { type: "audio/wav" }))).error).toBeNull();
  const { data, error } = await serviceClient
    .from("tracks")
    .insert({
      artist_id: artist.id,
      release_id: albumId,
      title,
      track_number: trackNumber,
      genre: "Rock",
      price: 1.29,
      description: "For the pre-order tests",
      file_url: path,
      release_date: dayAhead(20),
    })
    .select("id")
    .single();
  expect(error).toBeNull();
  return { id: data!.id as string, bytes };
}

/** Pays on the stand-in's page with the test card, then comes back to the return page. */
async function pay(visitor: Visitor) {
  const checkout = await visitor.post("/cart", { intent: "checkout", currency: "USD", followArtists: "", waiveWithdrawal: "on" });
  expect(checkout.response.status).toBe(303);
  const payUrl = checkout.response.headers.get("location")!;
  expect(payUrl.startsWith(stripeUrl)).toBe(true);
  const paid = await fetch(payUrl, {
    method: "POST",
    body: new URLSearchParams({ card: "4242424242424242", expiry: "12/34", cvc: "123", country: "US" }),
    redirect: "manual",
  });
  expect(paid.status).toBe(303);
  const back = new URL(paid.headers.get("location")!);
  return visitor.get(back.pathname + back.search);
}

beforeAll(async () => {
  artist = await newArtist(artistName);
  fan = await newFan(`earlybird${Date.now().toString(36)}`);
  const { data: album } = await serviceClient
    .from("releases")
    .insert({ artist_id: artist.id, kind: "album", title: "Not Yet" })
    .select("id")
    .single();
  albumId = album!.id;
  instant = await albumTrack("Taste Now", 1);
  later = await albumTrack("Wait For It", 2);
});

describe("the pre-order form", () => {
  it("puts an album dated ahead on pre-order with its instant downloads, refusing a day that has come", async () => {
    const editPath = `/dashboard/artist/tracks/${instant.id}`;
    const page = await artist.visitor.get(editPath);
    expect(page.response.status).toBe(200);
    expect(text(page.html)).toContain("Put on pre-order");
    expect(page.html).toContain('name="preorderDate"');

    // A day that has come is refused beside its field, what was typed kept.
    const today = new Date().toISOString().slice(0, 10);
    const refused = await artist.visitor.post(editPath, {
      intent: "preorder",
      releaseId: albumId,
      preorderDate: today,
      instant: [instant.id],
    });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("A pre-order's release date must be after today");
    expect(refused.html).toContain(`value="${today}"`);

    // Another artist's post changes nothing.
    const other = await newArtist(`Not The Owner ${Date.now().toString(36)}`);
    const theirs = await other.visitor.post(editPath, { intent: "preorder", releaseId: albumId, preorderDate: outOn, instant: [] });
    expect(theirs.response.status).toBe(403);
    expect((await serviceClient.from("releases").select("preorder").eq("id", albumId).single()).data!.preorder).toBe(false);

    const saved = await artist.visitor.post(editPath, {
      intent: "preorder",
      releaseId: albumId,
      preorderDate: outOn,
      instant: [instant.id],
    });
    expect(saved.response.status).toBe(303);
    expect((await serviceClient.from("releases").select("preorder").eq("id", albumId).single()).data!.preorder).toBe(true);
    const { data: tracks } = await serviceClient
      .from("tracks")
      .select("id, instant, release_date")
      .eq("release_id", albumId)
      .order("track_number");
    expect(tracks).toEqual([
      { id: instant.id, instant: true, release_date: outOn },
      { id: later.id, instant: false, release_date: outOn },
    ]);
    expect(text((await artist.visitor.get(editPath)).html)).toContain("Withdraw pre-order");

    // A track's own edit does not move a pre-order's day: its buyers would not be told.
    const alone = await artist.visitor.post(editPath, {
      intent: "save",
      title: "Taste Now",
      genre: "Rock",
      price: "1.29",
      releaseDate: dayAhead(40),
      description: "For the pre-order tests",
      albumTitle: "Not Yet",
      trackNumber: "1",
    });
    expect(alone.response.status).toBe(400);
    expect(text(alone.html)).toContain("This release is on pre-order: move its date in the Pre-order form below");
  });
});

describe("a pre-order's page and sale", () => {
  it("says when it is out, lists every track, and plays only the instant one", async () => {
    const page = await new Visitor().get(`/album/${albumId}`);
    expect(page.response.status).toBe(200);
    const words = text(page.html);
    expect(words).toContain(`Pre-order · out ${inWords(outOn)}`);
    expect(words).toContain("Wait For It");
    expect(words).toContain("Instant download");
    // The whole album's price: both tracks.
    expect(words).toContain("Buy Now - $2.58");
    // The stream is refused for the track not out, whatever the page shows.
    expect((await new Visitor().get(`/track/${later.id}/source`)).response.status).toBe(404);
    expect((await new Visitor().get(`/track/${instant.id}/source`)).response.status).not.toBe(404);
    // Its artist's page lists it, saying so too.
    expect(text((await new Visitor().get(`/artist/${artist.id}`)).html)).toContain(`Pre-order · out ${inWords(outOn)}`);
    const laterPage = text((await new Visitor().get(`/track/${later.id}`)).html);
    expect(laterPage).toContain(`You can listen to this track from ${inWords(outOn)}`);
  });

  it("sells it whole once: the instant track is the buyer's at once, the rest refused until its day", async () => {
    const added = await fan.visitor.post("/cart", { intent: "add", kind: "album", id: albumId, amount: "" });
    expect(added.response.status).toBe(303);
    const done = await pay(fan.visitor);
    expect(done.response.status).toBe(200);
    await expect
      .poll(async () => (await serviceClient.from("orders").select("state, total_cents").eq("buyer_id", fan.id).single()).data)
      .toEqual({ state: "paid", total_cents: 258 });
    const { data: purchases } = await serviceClient.from("purchases").select("track_id, amount").eq("user_id", fan.id);
    expect(purchases).toEqual([{ track_id: instant.id, amount: 2.58 }]);

    // The instant track downloads; the other does not, nor is it in the album's zip.
    const taken = await fan.visitor.download(`/track/${instant.id}/download`);
    expect(taken.response.status).toBe(200);
    expect(taken.bytes).toEqual(instant.bytes);
    const refused = await fan.visitor.download(`/track/${later.id}/download`);
    expect(refused.response.status).toBe(303);
    expect((await fan.visitor.get(refused.response.headers.get("location")!)).response.status).toBe(403);
    const zip = await fan.visitor.download(`/album/${albumId}/download`);
    expect(zip.response.status).toBe(200);
    expect(readZip(zip.bytes).map((file) => file.name.split("/").pop())).toEqual(["01 Taste Now.wav"]);

    // Bought, it is not sold to them again.
    const page = text((await fan.visitor.get(`/album/${albumId}`)).html);
    expect(page).toContain(`Pre-ordered: the rest is yours on ${inWords(outOn)}`);
    expect(page).not.toContain("Buy Now");
  });

  it("a release dated ahead that is not on pre-order stays hidden and unsold", async () => {
    const { data: hidden } = await serviceClient
      .from("tracks")
      .insert({ artist_id: artist.id, title: "Secret Single", genre: "Rock", price: 1, description: "Soon", release_date: dayAhead(9) })
      .select("id")
      .single();
    expect((await new Visitor().get(`/track/${hidden!.id}`)).response.status).toBe(404);
    const other = await newFan(`notyet${Date.now().toString(36)}`);
    await other.visitor.post("/cart", { intent: "add", kind: "track", id: hidden!.id, amount: "" });
    expect(text((await other.visitor.get("/cart")).html)).toContain("This is no longer for sale.");
  });
});

describe("moving and withdrawing a pre-order", () => {
  it("moves its day and mails its buyer", async () => {
    const moved = dayAhead(45);
    const saved = await artist.visitor.post(`/dashboard/artist/tracks/${instant.id}`, {
      intent: "preorder",
      releaseId: albumId,
      preorderDate: moved,
      instant: [instant.id],
    });
    expect(saved.response.status).toBe(303);
    const day = new Date(`${moved}T00:00:00Z`).toLocaleDateString("en-GB", { dateStyle: "long", timeZone: "UTC" });
    await expect
      .poll(async () => (await mailsTo(fan.email)).map((mail) => mail.subject), { timeout: 10_000 })
      .toContain(`Not Yet moved to ${day}`);
    const { count } = await serviceClient
      .from("notifications")
      .select("id", { count: "exact", head: true })
      .eq("user_id", fan.id)
      .eq("kind", "moved");
    expect(count).toBe(1);
    expect(text((await fan.visitor.get("/notifications")).html)).toContain(
      `which you pre-ordered from ${artistName}, moved to ${inWords(moved)}`,
    );
  });

  it("withdraws it once confirmed: the buyer refunded in full and mailed, the album hidden again", async () => {
    const editPath = `/dashboard/artist/tracks/${instant.id}`;
    const unconfirmed = await artist.visitor.post(editPath, { intent: "withdraw-preorder", releaseId: albumId });
    expect(unconfirmed.response.status).toBe(400);
    expect(text(unconfirmed.html)).toContain("Tick the box to confirm every buyer is refunded");

    const withdrawn = await artist.visitor.post(editPath, { intent: "withdraw-preorder", releaseId: albumId, confirm: "on" });
    expect(withdrawn.response.status).toBe(200);
    expect(text(withdrawn.html)).toContain("Every buyer (1) is refunded and told by email.");
    const { data: order } = await serviceClient.from("orders").select("id").eq("buyer_id", fan.id).single();
    const { data: line } = await serviceClient.from("order_lines").select("refunded_at").eq("order_id", order!.id).single();
    expect(line!.refunded_at).not.toBeNull();
    expect((await serviceClient.from("purchases").select("id").eq("user_id", fan.id)).data).toEqual([]);
    await expect
      .poll(async () => (await mailsTo(fan.email)).map((mail) => mail.subject), { timeout: 10_000 })
      .toContain("Your refund for Not Yet");
    expect((await new Visitor().get(`/album/${albumId}`)).response.status).toBe(404);
    // Withdrawn again, nothing is refunded twice.
    const again = await artist.visitor.post(editPath, { intent: "withdraw-preorder", releaseId: albumId, confirm: "on" });
    expect(text(again.html)).toContain("No buyer is waiting for a refund.");
  });
});
