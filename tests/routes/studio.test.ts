// The artist's studio as a browser without JavaScript sees it: Your Tracks (and its library alias), a
// track's edit page and its deletion, and who may open them. Tracks these tests change are their own,
// written through the service role, so the demo catalogue other tests read stays as it is.
import { afterAll, describe, expect, it } from "vitest";
import { Visitor, inputValue, serviceClient, signedIn, streamFinished, streamState, text, trackId } from "./support.ts";

const paperLanterns = "a1000000-0000-4000-8000-000000000012";
const created: string[] = [];

const artist = () => signedIn("artist@example.com", "artist-demo-pass");

/** A track of the demo artist's own, with an audio object in their folder. */
async function ownTrack(title: string) {
  const path = `${paperLanterns}/${crypto.randomUUID()}.wav`;
  const upload = await serviceClient.storage.from("tracks").upload(path, new Blob([new Uint8Array(64)], { type: "audio/wav" }));
  expect(upload.error).toBeNull();
  const { data, error } = await serviceClient
    .from("tracks")
    .insert({ artist_id: paperLanterns, title, genre: "Indie", price: 1.5, description: "For the studio tests", file_url: path })
    .select("id")
    .single();
  expect(error).toBeNull();
  created.push(data!.id);
  return { id: data!.id, path };
}

/** An album of the demo artist's with two tracks of theirs, made as the operator would. */
async function ownAlbum(title: string) {
  const { data: album, error } = await serviceClient
    .from("releases")
    .insert({ artist_id: paperLanterns, kind: "album", title })
    .select("id")
    .single();
  expect(error).toBeNull();
  const tracks = [];
  for (const [index, name] of ["First Side", "Second Side"].entries()) {
    const track = await ownTrack(`${title}: ${name}`);
    await serviceClient
      .from("tracks")
      .update({ release_id: album!.id, track_number: index + 1 })
      .eq("id", track.id);
    tracks.push(track);
  }
  return { id: album!.id, tracks };
}

afterAll(async () => {
  await serviceClient.from("tracks").delete().in("id", created);
});

describe("the artist dashboard", () => {
  it("leads to the studio's screens: the spec's six tiles, in its order, and View All Tracks", async () => {
    const { html } = await (await artist()).get("/dashboard/artist");
    const tiles = [
      ["/dashboard/artist/upload", "Upload Music"],
      ["/dashboard/artist/media", "Media Manager"],
      ["/dashboard/artist/store", "Store Settings"],
      ["/dashboard/artist/analytics", "Analytics"],
      ["/dashboard/artist/payments", "Payment Settings"],
      ["/dashboard/artist/profile", "Edit Profile"],
    ];
    const found = tiles.map(([path, name]) => html.search(new RegExp(`<a[^>]*href="${path}"[^>]*><span[^>]*>${name}</span>`)));
    expect(found.every((at) => at >= 0)).toBe(true);
    expect(found).toEqual([...found].sort((a, b) => a - b));
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist\/tracks"[^>]*>View All Tracks<\/a>/);
  });
});

describe("Your Tracks", () => {
  it("lists the artist's tracks, upcoming ones too, with plays, an Upload New Track link and their merch", async () => {
    const { response, html } = await (await artist()).get("/dashboard/artist/tracks");
    expect(response.status).toBe(200);
    const page = text(html);
    expect(html).toMatch(/<h1[^>]*>Your Tracks<\/h1>/);
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist\/upload"[^>]*>Upload New Track<\/a>/);
    expect(page).toContain("Bicycle Bell");
    expect(page).toContain("Northern Line");
    expect(page).toContain("Upcoming");
    expect(page).toMatch(/\d+ plays?/);
    expect(html).toContain(`href="/track/${trackId("Bicycle Bell")}"`);
    expect(page).toContain("Merchandise");
    // Back, without JavaScript, is a link to the artist's dashboard (with it, one step back).
    expect(html).toMatch(/<a[^>]*href="\/dashboard\/artist"[^>]*><span aria-hidden="true">←<\/span> Back<\/a>/);
  });

  it("filters by albums and singles through the address, and the library alias shows the same list", async () => {
    const visitor = await artist();
    const albums = text((await visitor.get("/dashboard/artist/tracks?filter=album")).html);
    expect(albums).toContain("Bicycle Bell");
    expect(albums).not.toContain("Burn the Map");
    const singles = text((await visitor.get("/dashboard/artist/tracks?filter=single")).html);
    expect(singles).not.toContain("Bicycle Bell");
    const library = await visitor.get("/dashboard/artist/library?filter=album");
    expect(library.response.status).toBe(200);
    expect(text(library.html)).toContain("Bicycle Bell");
  });

  it("sends a visitor to log in and back, and answers a fan 403 with the way to their own dashboard", async () => {
    const { response } = await new Visitor().get("/dashboard/artist/tracks?filter=album");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/dashboard/artist/tracks?filter=album")}`);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const denied = await fan.get("/dashboard/artist/tracks");
    expect(denied.response.status).toBe(403);
    expect(denied.html).toMatch(/href="\/dashboard\/fan"/);
  });
});

describe("editing a track", () => {
  it("shows the stored details, keeps what was typed next to each message, then saves", async () => {
    const track = await ownTrack("Studio Edit");
    const visitor = await artist();
    const form = await visitor.get(`/dashboard/artist/tracks/${track.id}`);
    expect(form.response.status).toBe(200);
    expect(inputValue(form.html, "title")).toBe("Studio Edit");
    expect(inputValue(form.html, "price")).toBe("1.50");

    const refused = await visitor.post(`/dashboard/artist/tracks/${track.id}`, {
      intent: "save",
      title: "  ",
      genre: "Indie",
      price: "0.5",
      releaseDate: "2026-01-10",
      description: "Kept as typed",
    });
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Title is required");
    expect(text(refused.html)).toContain("Price must be at least 0.99");
    expect(inputValue(refused.html, "price")).toBe("0.5");
    expect(refused.html).toContain("Kept as typed");

    const saved = await visitor.post(`/dashboard/artist/tracks/${track.id}`, {
      intent: "save",
      title: "Studio Edit (Remastered)",
      genre: "Pop",
      price: "2.25",
      releaseDate: "2026-01-10",
      description: "Cleaner drums",
      allowPayMore: "on",
    });
    expect(saved.response.status).toBe(303);
    expect(saved.response.headers.get("location")).toBe("/dashboard/artist/tracks");
    const { data } = await serviceClient
      .from("tracks")
      .select("title, genre, price, allow_pay_more, release_date")
      .eq("id", track.id)
      .single();
    expect(data).toEqual({
      title: "Studio Edit (Remastered)",
      genre: "Pop",
      price: 2.25,
      allow_pay_more: true,
      release_date: "2026-01-10",
    });
  });

  it("refuses what the catalog does not hold, each next to its field, and never shows the database's own words", async () => {
    // an album's track, so its number and its album's price are on the form too
    const {
      tracks: [track],
    } = await ownAlbum("Rules");
    await serviceClient.from("tracks").update({ title: "Held To The Rules" }).eq("id", track!.id);
    const visitor = await artist();
    const valid = { intent: "save", title: "Held", genre: "Indie", price: "1.50", releaseDate: "2026-01-10", description: "Fine" };
    const refusals: [Record<string, string>, string][] = [
      [{ genre: "NotAGenre" }, "Please choose a genre from the list"],
      [{ genre: "Zz<b>Probe</b>Genre" }, "Please choose a genre from the list"],
      [{ description: "d".repeat(5001) }, "Description can be at most 5000 characters"],
      [{ title: "t".repeat(201) }, "Title can be at most 200 characters"],
      [{ price: "99999999.99" }, "Price can be at most 1,000.00"],
      [{ price: "1e15" }, "Price can be at most 1,000.00"],
      [{ releaseDate: "0001-01-01" }, "Release date must be between 1900 and 2 years from today"],
      [{ releaseDate: "2024-02-30" }, "Release date must be a date"],
      [{ trackNumber: "1e10" }, "Track number must be a whole number from 1 to 100"],
      [{ albumPrice: "0.5" }, "Album price must be at least 0.99, or empty"],
      [{ albumPrice: "1.999" }, "Album price can have at most two decimals"],
    ];
    for (const [change, message] of refusals) {
      const { response, html } = await visitor.post(`/dashboard/artist/tracks/${track.id}`, { ...valid, ...change });
      expect(response.status, message).toBe(400);
      expect(text(html)).toContain(message);
      expect(text(html)).not.toContain("Database error");
      const [name, typed] = Object.entries(change)[0]!;
      if (name !== "description" && name !== "genre") expect(inputValue(html, name)).toBe(typed);
    }
    // A description of 2 MB is refused before it is read.
    const huge = await visitor.post(`/dashboard/artist/tracks/${track.id}`, { ...valid, description: "d".repeat(2 * 1024 * 1024) });
    expect(huge.response.status).toBe(413);
    const { data } = await serviceClient.from("tracks").select("title, genre, price, description").eq("id", track.id).single();
    expect(data).toEqual({ title: "Held To The Rules", genre: "Indie", price: 1.5, description: "For the studio tests" });
  });

  it("saves an album track with its album's title and price, which every track of the album then shows", async () => {
    const album = await ownAlbum("Studio Album");
    const [first, second] = album.tracks;
    const visitor = await artist();
    const form = await visitor.get(`/dashboard/artist/tracks/${first!.id}`);
    expect(inputValue(form.html, "albumTitle")).toBe("Studio Album");
    expect(inputValue(form.html, "albumPrice")).toBe("");
    const save = (albumPrice: string) =>
      visitor.post(`/dashboard/artist/tracks/${first!.id}`, {
        intent: "save",
        title: "Studio Album: First Side",
        genre: "Indie",
        price: "1.50",
        releaseDate: "2026-01-10",
        description: "For the studio tests",
        albumTitle: "Studio Album (Deluxe)",
        albumPrice,
        trackNumber: "1",
      });
    expect((await save("2.49")).response.status).toBe(303);
    const release = async () => (await serviceClient.from("releases").select("title, price").eq("id", album.id).single()).data;
    expect(await release()).toEqual({ title: "Studio Album (Deluxe)", price: 2.49 });
    const { data: titles } = await serviceClient.from("tracks").select("release:releases(title)").in("id", [first!.id, second!.id]);
    expect(titles).toEqual([{ release: { title: "Studio Album (Deluxe)" } }, { release: { title: "Studio Album (Deluxe)" } }]);
    // Emptied, the album costs the sum of its tracks again.
    expect((await save("")).response.status).toBe(303);
    expect(await release()).toEqual({ title: "Studio Album (Deluxe)", price: null });
  });

  it("is not another artist's to open or change", async () => {
    const track = await ownTrack("Not Yours");
    const other = await signedIn("lumendrift@example.com", "demo-pass");
    expect((await other.get(`/dashboard/artist/tracks/${track.id}`)).response.status).toBe(404);
    const post = await other.post(`/dashboard/artist/tracks/${track.id}`, {
      intent: "save",
      title: "Taken",
      genre: "Pop",
      price: "2",
      releaseDate: "2026-01-10",
      description: "x",
    });
    expect(post.response.status).toBe(404);
    const deletion = await other.post(`/dashboard/artist/tracks/${track.id}`, { intent: "delete", confirm: "on" });
    expect(deletion.response.status).toBe(404);
    const { data } = await serviceClient.from("tracks").select("title").eq("id", track.id).single();
    expect(data?.title).toBe("Not Yours");
  });
});

describe("a track's stream", () => {
  const reason = "the WAV file's header is not readable";
  async function failedStream(title: string) {
    const track = await ownTrack(title);
    await streamFinished(track.id, { failure: reason });
    return track;
  }

  it("shows Failed with its reason and Retry in Your Tracks, and Retry (a plain form) prepares it again", async () => {
    const track = await failedStream("Studio Failed Stream");
    const visitor = await artist();
    const list = await visitor.get("/dashboard/artist/tracks");
    expect(text(list.html)).toContain(`Stream: Failed: ${reason}`);
    expect(list.html).toContain('aria-label="Retry the stream of Studio Failed Stream"');

    const retried = await visitor.post("/dashboard/artist/tracks", { intent: "retry-stream", trackId: track.id });
    expect(retried.response.status).toBe(303);
    expect(retried.response.headers.get("location")).toBe("/dashboard/artist/tracks");
    expect(await streamState(track.id)).toBe("preparing");
    expect(text((await visitor.get("/dashboard/artist/tracks")).html)).toContain("Stream: Preparing the stream");
  });

  it("shows the same on the edit page, whose Retry comes back to it", async () => {
    const track = await failedStream("Studio Failed Edit");
    const visitor = await artist();
    const page = await visitor.get(`/dashboard/artist/tracks/${track.id}`);
    expect(text(page.html)).toContain(`Stream: Failed: ${reason}`);
    const retried = await visitor.post(`/dashboard/artist/tracks/${track.id}`, { intent: "retry-stream", trackId: track.id });
    expect(retried.response.status).toBe(303);
    expect(retried.response.headers.get("location")).toBe(`/dashboard/artist/tracks/${track.id}`);
    expect(await streamState(track.id)).toBe("preparing");
  });

  it("is not another artist's to retry", async () => {
    const track = await failedStream("Studio Failed Elsewhere");
    const other = await signedIn("emberroad@example.com", "demo-pass");
    const retried = await other.post("/dashboard/artist/tracks", { intent: "retry-stream", trackId: track.id });
    expect(retried.response.status).toBe(303);
    expect(await streamState(track.id)).toBe("failed");
    expect(text((await (await artist()).get("/dashboard/artist/tracks")).html)).toContain(`Stream: Failed: ${reason}`);
  });
});

describe("deleting a track", () => {
  it("asks for the confirmation box, then deletes the track and its audio file", async () => {
    const track = await ownTrack("Studio Delete");
    const visitor = await artist();
    const unconfirmed = await visitor.post(`/dashboard/artist/tracks/${track.id}`, { intent: "delete" });
    expect(unconfirmed.response.status).toBe(400);
    expect(text(unconfirmed.html)).toContain("Tick the box to confirm you want to delete this track");

    const deleted = await visitor.post(`/dashboard/artist/tracks/${track.id}`, { intent: "delete", confirm: "on" });
    expect(deleted.response.status).toBe(303);
    expect((await serviceClient.from("tracks").select("id").eq("id", track.id)).data).toEqual([]);
    const folder = await serviceClient.storage.from("tracks").list(paperLanterns, { search: track.path.split("/")[1] });
    expect(folder.data).toEqual([]);
  });

  it("refuses to delete a track someone has bought, and says why", async () => {
    const { data: sold } = await serviceClient.from("purchases").select("track_id").eq("artist_id", paperLanterns).limit(1).single();
    const visitor = await artist();
    const refused = await visitor.post(`/dashboard/artist/tracks/${sold!.track_id}`, { intent: "delete", confirm: "on" });
    expect(refused.response.status).toBe(409);
    expect(text(refused.html)).toContain("This track has been bought, so it cannot be deleted");
    expect((await serviceClient.from("tracks").select("id").eq("id", sold!.track_id)).data).toHaveLength(1);
  });
});
