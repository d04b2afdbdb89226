// The upload form without JavaScript: a multipart POST to the route action, which judges every file by
// its bytes, stores them in the artist's own folder and publishes. A new artist signs up for these tests,
// so what they publish never changes the demo catalogue other tests read.
import { beforeAll, describe, expect, it } from "vitest";
import { pngOf, tinyPng, toneWav } from "../support/media.ts";
import { Visitor, inputValue, newArtist, serviceClient, signedIn, text } from "./support.ts";

let artist: Visitor;
let artistId: string;

beforeAll(async () => {
  ({ visitor: artist, id: artistId } = await newArtist("Upload Tester"));
});

const htmlPage = new TextEncoder().encode("<!doctype html><script>alert(document.cookie)</script>");

function form(
  fields: Record<string, string>,
  files: Record<string, { name: string; bytes: Uint8Array<ArrayBuffer>; type: string }[]> = {},
) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, list] of Object.entries(files))
    for (const file of list) body.append(name, new File([file.bytes], file.name, { type: file.type }));
  return body;
}

const details = { genre: "Folk", price: "1.49", releaseDate: "2026-01-05", description: "Recorded in the kitchen" };
const artwork = [{ name: "cover.png", bytes: tinyPng, type: "image/png" }];

async function storedObjects(bucket: "tracks" | "artwork") {
  const { data } = await serviceClient.storage.from(bucket).list(artistId);
  return data ?? [];
}

describe("the upload form without JavaScript", () => {
  it("shows each message next to its field and keeps what was typed", async () => {
    const { response, html } = await artist.postMultipart(
      "/dashboard/artist/upload?type=single",
      form({ title: "", genre: "Folk", price: "0.5" }),
    );
    expect(response.status).toBe(400);
    const page = text(html);
    for (const message of [
      "Title is required",
      "Price must be at least 0.99",
      "Release date is required",
      "Description is required",
      "Please upload artwork",
      "Please upload at least one track",
    ]) {
      expect(page).toContain(message);
    }
    expect(inputValue(html, "price")).toBe("0.5");
    expect(html).toMatch(/<option value="Folk" selected="">/);
  });

  it("refuses an album price under the minimum next to its field, keeping it as typed", async () => {
    const { response, html } = await artist.postMultipart(
      "/dashboard/artist/upload?type=album",
      form({ albumTitle: "Cheap", albumPrice: "0.10", genre: "Folk", price: "1.29" }),
    );
    expect(response.status).toBe(400);
    expect(text(html)).toContain("Album price must be at least 0.99, or empty");
    expect(inputValue(html, "albumPrice")).toBe("0.10");
    expect(inputValue(html, "albumTitle")).toBe("Cheap");
  });

  it("takes one track only for a single", async () => {
    const audio = [1, 2].map((n) => ({ name: `take-${n}.wav`, bytes: toneWav(0.5), type: "audio/wav" }));
    const { html } = await artist.postMultipart(
      "/dashboard/artist/upload?type=single",
      form({ title: "Two Takes", ...details }, { audio, artwork }),
    );
    expect(text(html)).toContain("Only one track can be uploaded for singles");
  });

  it("judges files by their bytes: an HTML page named .mp3 or .png is refused, and nothing is stored", async () => {
    const before = { tracks: (await storedObjects("tracks")).length, artwork: (await storedObjects("artwork")).length };
    const { response, html } = await artist.postMultipart(
      "/dashboard/artist/upload?type=single",
      form(
        { title: "Not Audio", ...details },
        {
          audio: [{ name: "song.mp3", bytes: htmlPage, type: "audio/mpeg" }],
          artwork: [{ name: "cover.png", bytes: htmlPage, type: "image/png" }],
        },
      ),
    );
    expect(response.status).toBe(400);
    expect(text(html)).toContain("Invalid file type. Please upload MP3, WAV, AAC, or OGG files only.");
    expect(text(html)).toContain("Invalid file type. Please upload JPG, PNG, or WebP images only.");
    expect((await storedObjects("tracks")).length).toBe(before.tracks);
    expect((await storedObjects("artwork")).length).toBe(before.artwork);
  });

  it("publishes a single with its waveform, length and artwork size, and the track plays from the artist's own folder", async () => {
    const { response } = await artist.postMultipart(
      "/dashboard/artist/upload?type=single",
      form(
        { title: "Kitchen Song", ...details, allowPayMore: "on" },
        {
          audio: [{ name: "kitchen.wav", bytes: toneWav(0.5), type: "audio/wav" }],
          artwork: [{ name: "cover.png", bytes: pngOf(30, 20), type: "image/png" }],
        },
      ),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/dashboard/artist/tracks");
    const { data: track } = await serviceClient
      .from("tracks")
      .select(
        "title, price, allow_pay_more, file_url, artwork_url, artwork_width, artwork_height, peaks, duration_seconds, release:releases(kind)",
      )
      .eq("artist_id", artistId)
      .eq("title", "Kitchen Song")
      .single();
    expect(track).toMatchObject({ release: { kind: "single" }, price: 1.49, allow_pay_more: true, duration_seconds: 0.5 });
    // Read from the picture's own header, for link previews.
    expect(track).toMatchObject({ artwork_width: 30, artwork_height: 20 });
    expect(track!.file_url).toMatch(new RegExp(`^${artistId}/\\d+-[0-9a-f]{8}\\.wav$`));
    expect(track!.artwork_url).toContain(`/storage/v1/object/public/artwork/${artistId}/`);
    expect((track!.peaks as number[]).length).toBe(300);
    expect(Math.max(...(track!.peaks as number[]))).toBe(1);
  });

  it("publishes an album's tracks together, numbered in the order chosen and titled from their files", async () => {
    const audio = ["01_Morning.wav", "02_Evening.wav"].map((name) => ({ name, bytes: toneWav(0.25), type: "audio/wav" }));
    const { response } = await artist.postMultipart(
      "/dashboard/artist/upload?type=album",
      form({ albumTitle: "Small Hours", albumPrice: "1.99", ...details }, { audio, artwork }),
    );
    expect(response.status).toBe(303);
    const { data: album } = await serviceClient.from("releases").select("id").eq("artist_id", artistId).eq("title", "Small Hours").single();
    const { data: tracks } = await serviceClient
      .from("tracks")
      .select("title, track_number, release:releases(kind, title, price)")
      .eq("release_id", album!.id)
      .order("track_number");
    // One release, the album, with the price its artist set.
    const release = { kind: "album", title: "Small Hours", price: 1.99 };
    expect(tracks).toEqual([
      { title: "01 Morning", track_number: 1, release },
      { title: "02 Evening", track_number: 2, release },
    ]);
  });

  it("publishes merchandise with its picture, stock and shipping and no audio, and says what is wrong beside its field", async () => {
    const details = { title: "Tea Towel", price: "9.00", description: "Printed in Leeds", shippingHome: "2.50", shippingElsewhere: "" };
    const refused = await artist.postMultipart(
      "/dashboard/artist/upload?type=merch",
      form({ ...details, stock: "-3", shipsFrom: "XX" }, { artwork }),
    );
    expect(refused.response.status).toBe(400);
    expect(refused.html).toContain("Stock must be a whole number from 0 to 100,000, or empty");
    expect(refused.html).toContain("Please choose the country it ships from");
    expect(refused.html).toContain('value="-3"');
    const { response } = await artist.postMultipart(
      "/dashboard/artist/upload?type=merch",
      form({ ...details, stock: "12", shipsFrom: "GB" }, { artwork }),
    );
    expect(response.status).toBe(303);
    const { data: merch } = await serviceClient
      .from("merch")
      .select("title, price, image_url, stock, ships_from, shipping_home, shipping_elsewhere")
      .eq("artist_id", artistId)
      .single();
    expect(merch).toMatchObject({ title: "Tea Towel", price: 9, stock: 12, ships_from: "GB", shipping_home: 2.5, shipping_elsewhere: 0 });
    expect(merch!.image_url).toContain(`/artwork/${artistId}/`);
  });

  it("is for artists: a visitor is sent to log in and back, a fan gets 403", async () => {
    const visitor = await new Visitor().get("/dashboard/artist/upload?type=album");
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/dashboard/artist/upload?type=album")}`);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const posted = await fan.postMultipart(
      "/dashboard/artist/upload?type=merch",
      form({ title: "Bootleg", price: "5", description: "x" }, { artwork }),
    );
    expect(posted.response.status).toBe(403);
  });
});

describe("the Media Manager", () => {
  const media = "/dashboard/artist/media";

  it("uploads an image judged by its bytes, lists it with its type and size, finds it and removes it after confirming", async () => {
    const refused = await artist.postMultipart(
      media,
      form({ intent: "upload" }, { file: [{ name: "cover.png", bytes: htmlPage, type: "image/png" }] }),
    );
    expect(refused.response.status).toBe(400);
    expect(text(refused.html)).toContain("Invalid file type. Please upload JPG, PNG, or WebP images only.");
    const tooLarge = await artist.postMultipart(
      media,
      form({ intent: "upload" }, { file: [{ name: "huge.png", bytes: new Uint8Array(5 * 1024 * 1024 + 1), type: "image/png" }] }),
    );
    expect(text(tooLarge.html)).toContain("File is too large. Maximum size is 5MB.");

    const before = (await storedObjects("artwork")).length;
    const uploaded = await artist.postMultipart(
      `${media}?view=list`,
      form({ intent: "upload" }, { file: [{ name: "photo.png", bytes: tinyPng, type: "image/png" }] }),
    );
    expect(uploaded.response.status).toBe(303);
    expect(uploaded.response.headers.get("location")).toBe(`${media}?view=list`);
    const objects = await storedObjects("artwork");
    expect(objects.length).toBe(before + 1);
    const name = objects
      .map((object) => object.name)
      .sort()
      .at(-1)!;

    const listed = await artist.get(`${media}?view=list&q=${encodeURIComponent(name.slice(0, 12))}`);
    expect(text(listed.html)).toContain(name);
    expect(text(listed.html)).toMatch(/PNG · 1 KB/);
    expect(listed.html).toContain(`alt="Preview of ${name}"`);
    expect(text((await artist.get(`${media}?q=no-such-file`)).html)).toContain("No files match your search");

    const unconfirmed = await artist.post(`${media}?remove=${name}`, { intent: "remove", name });
    expect(text(unconfirmed.html)).toContain("Tick the box to confirm you want to remove this file");
    const removed = await artist.post(`${media}?remove=${name}`, { intent: "remove", name, confirm: "on" });
    expect(removed.response.status).toBe(303);
    expect(removed.response.headers.get("location")).toBe(media);
    expect((await storedObjects("artwork")).some((object) => object.name === name)).toBe(false);
  });

  it("cannot reach another artist's files, and is for artists only", async () => {
    const [someone] = await storedObjects("artwork");
    const other = await signedIn("lumendrift@example.com", "demo-pass");
    const attempt = await other.post(media, { intent: "remove", name: someone!.name, confirm: "on" });
    expect(attempt.response.status).toBe(404);
    const traversal = await other.post(media, { intent: "remove", name: `../${artistId}/${someone!.name}`, confirm: "on" });
    expect(traversal.response.status).toBe(400);
    expect((await storedObjects("artwork")).some((object) => object.name === someone!.name)).toBe(true);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await fan.get(media)).response.status).toBe(403);
  });
});

describe("replacing a published track's files without JavaScript", () => {
  /** A single and a two-track album of the tester's, published through the form: the ids of their tracks. */
  async function published(title: string, kind: "single" | "album") {
    const audio = (kind === "album" ? ["a.wav", "b.wav"] : ["one.wav"]).map((name) => ({ name, bytes: toneWav(0.5), type: "audio/wav" }));
    const fields = kind === "album" ? { albumTitle: title, ...details } : { title, ...details };
    const { response } = await artist.postMultipart(`/dashboard/artist/upload?type=${kind}`, form(fields, { audio, artwork }));
    expect(response.status).toBe(303);
    const { data: release } = await serviceClient.from("releases").select("id").eq("artist_id", artistId).eq("title", title).single();
    const { data } = await serviceClient
      .from("tracks")
      .select("id, file_url, artwork_url")
      .eq("release_id", release!.id)
      .order("track_number");
    return data!;
  }
  const editPath = (trackId: string) => `/dashboard/artist/tracks/${trackId}`;
  const replace = (as: Visitor, trackId: string, files: Parameters<typeof form>[1]) =>
    as.postMultipart(editPath(trackId), form({ intent: "replace-files" }, files));

  it("replaces a single's audio: the new file plays and downloads, its length is the new one's, the old master is gone", async () => {
    const [track] = await published("Second Take", "single");
    const { response } = await replace(artist, track!.id, { audio: [{ name: "retake.wav", bytes: toneWav(2.5), type: "audio/wav" }] });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(editPath(track!.id));
    const { data: now } = await serviceClient.from("tracks").select("file_url, duration_seconds, artwork_url").eq("id", track!.id).single();
    expect(now).toMatchObject({ duration_seconds: 2.5, artwork_url: track!.artwork_url });
    expect(now!.file_url).not.toBe(track!.file_url);
    const names = (await storedObjects("tracks")).map((object) => `${artistId}/${object.name}`);
    expect(names).toContain(now!.file_url);
    expect(names).not.toContain(track!.file_url);
    // The edit page says what plays now.
    expect(text((await artist.get(editPath(track!.id))).html)).toContain("Audio now: WAV · 0:02");
  });

  it("gives an album's new artwork to every one of its tracks, and keeps their audio", async () => {
    const tracks = await published("Cover Change", "album");
    const { response } = await replace(artist, tracks[1]!.id, { artwork: [{ name: "new.png", bytes: pngOf(50, 50), type: "image/png" }] });
    expect(response.status).toBe(303);
    const { data: now } = await serviceClient
      .from("tracks")
      .select("file_url, artwork_url, artwork_width")
      .in(
        "id",
        tracks.map((track) => track.id),
      );
    expect(new Set(now!.map((track) => track.artwork_url)).size).toBe(1);
    expect(now![0]!.artwork_url).not.toBe(tracks[0]!.artwork_url);
    expect(now![0]!.artwork_width).toBe(50);
    expect(now!.map((track) => track.file_url).sort()).toEqual(tracks.map((track) => track.file_url).sort());
  });

  it("says what is wrong beside its field, stores nothing, and changes nothing", async () => {
    const [track] = await published("Kept As Is", "single");
    const before = (await storedObjects("tracks")).length;
    const nothing = await replace(artist, track!.id, {});
    expect(nothing.response.status).toBe(400);
    expect(text(nothing.html)).toContain("Please choose a new audio file or new artwork");
    const html = await replace(artist, track!.id, {
      audio: [{ name: "song.wav", bytes: htmlPage, type: "audio/wav" }],
      artwork: [{ name: "cover.png", bytes: htmlPage, type: "image/png" }],
    });
    expect(html.response.status).toBe(400);
    expect(text(html.html)).toContain("Invalid file type. Please upload MP3, WAV, AAC, or OGG files only.");
    expect(text(html.html)).toContain("Invalid file type. Please upload JPG, PNG, or WebP images only.");
    expect((await storedObjects("tracks")).length).toBe(before);
    const { data: now } = await serviceClient.from("tracks").select("file_url").eq("id", track!.id).single();
    expect(now!.file_url).toBe(track!.file_url);
  });

  it("is the track's artist's alone: another artist finds no such track, a fan gets 403, a visitor logs in", async () => {
    const [track] = await published("Not Yours", "single");
    const audio = [{ name: "takeover.wav", bytes: toneWav(0.5), type: "audio/wav" }];
    const { visitor: other } = await newArtist("Replacing Stranger");
    expect((await replace(other, track!.id, { audio })).response.status).toBe(404);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await replace(fan, track!.id, { audio })).response.status).toBe(403);
    const visitor = await replace(new Visitor(), track!.id, { audio });
    expect(visitor.response.headers.get("location")).toContain("/login?redirectTo=");
    const { data: now } = await serviceClient.from("tracks").select("file_url").eq("id", track!.id).single();
    expect(now!.file_url).toBe(track!.file_url);
  });
});
