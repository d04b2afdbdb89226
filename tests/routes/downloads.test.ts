// Downloads as a browser without JavaScript takes them, rendered by the built Worker: every role tries
// every download address (a track's file, an album's zip), a buyer's downloads are counted once, the
// files come whole and named, and the pages that offer them (Purchased, the track and album pages) say
// "You own this" to a buyer. The made formats (MP3, FLAC) are made by the test marketplace's own
// rendition queue the first time they are asked for: the page says "Preparing your download" until they
// are, and the files carry their tags (read back by music-metadata) and decode to the master's samples.
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { parseBuffer } from "music-metadata";
import { beforeAll, describe, expect, it } from "vitest";
import { tinyPng, toneWav } from "../support/media.ts";
import { readZip } from "../support/zip.ts";
import { Visitor, newArtist, newFan, serviceClient, signedIn, supabaseUrl, text } from "./support.ts";

type Made = {
  artist: Awaited<ReturnType<typeof newArtist>>;
  artistName: string;
  albumId: string;
  tracks: { id: string; bytes: Uint8Array }[];
  single: { id: string; bytes: Uint8Array };
  /** A single whose title holds what file names and headers get wrong. */
  named: { id: string; bytes: Uint8Array };
};
let made: Made;
let buyer: Awaited<ReturnType<typeof newFan>>;
let otherFan: Awaited<ReturnType<typeof newFan>>;

/** A track of the new artist's with a master in their folder, written as the operator would. */
async function trackWithMaster(artistId: string, fields: Record<string, unknown>) {
  const bytes = toneWav(0.2);
  const path = `${artistId}/${crypto.randomUUID()}.wav`;
  const upload = await serviceClient.storage.from("tracks").upload(path, new Blob([bytes], { type: "audio/wav" }));
  expect(upload.error).toBeNull();
  const { data, error } = await serviceClient
    .from("tracks")
    .insert({ artist_id: artistId, genre: "Rock", price: 1.29, description: "For the download tests", file_url: path, ...fields })
    .select("id")
    .single();
  expect(error).toBeNull();
  return { id: data!.id as string, bytes };
}

beforeAll(async () => {
  const artistName = `Download Band ${Date.now().toString(36)}`;
  const artist = await newArtist(artistName);
  const { data: album } = await serviceClient
    .from("releases")
    .insert({ artist_id: artist.id, kind: "album", title: "Take: Home" })
    .select("id")
    .single();
  // The album's cover, which its files carry.
  const cover = `${artist.id}/cover.png`;
  expect((await serviceClient.storage.from("artwork").upload(cover, new Blob([tinyPng], { type: "image/png" }))).error).toBeNull();
  const artwork = { artwork_url: `${supabaseUrl}/storage/v1/object/public/artwork/${cover}`, artwork_width: 1, artwork_height: 1 };
  const tracks = [
    await trackWithMaster(artist.id, {
      release_id: album!.id,
      title: "First/Side",
      track_number: 1,
      release_date: "2024-05-01",
      ...artwork,
    }),
    await trackWithMaster(artist.id, { release_id: album!.id, title: "Second Side", track_number: 2 }),
  ];
  const single = await trackWithMaster(artist.id, { title: "Lone Single" });
  const named = await trackWithMaster(artist.id, { title: 'Honey & Smoke / "Étude" (Live) ☀' });
  buyer = await newFan(`buyer${Date.now().toString(36)}`);
  otherFan = await newFan(`browser${Date.now().toString(36)}`);
  const { error } = await serviceClient
    .from("purchases")
    .insert([...tracks, single, named].map((track) => ({ amount: 1.29, track_id: track.id, user_id: buyer.id })));
  expect(error).toBeNull();
  made = { artist, artistName, albumId: album!.id, tracks, single, named };
});

/** A download address refused: it sends the reader to the download page, which answers as a page. */
async function refusedAt(visitor: Visitor, path: string) {
  const refused = await visitor.get(path);
  expect(refused.response.status).toBe(303);
  const page = refused.response.headers.get("location")!;
  expect(page).toMatch(/^\/download\/(track|album)\//);
  return visitor.get(page);
}

const downloadsOf = async (trackId: string) =>
  (await serviceClient.from("analytics_events").select("id", { count: "exact", head: true }).eq("type", "download").eq("track_id", trackId))
    .count;

describe("a track's file", () => {
  it("comes whole to its buyer from the marketplace itself, named for it, and counts one download a day", async () => {
    const path = `/track/${made.single.id}/download`;
    const first = await buyer.visitor.download(path);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get("cache-control")).toContain("no-store");
    expect(first.response.headers.get("content-type")).toBe("audio/wav");
    expect(first.response.headers.get("content-length")).toBe(String(made.single.bytes.length));
    expect(first.bytes).toEqual(made.single.bytes);
    expect(await downloadsOf(made.single.id)).toBe(1);
    expect((await buyer.visitor.download(path)).response.status).toBe(200);
    expect(await downloadsOf(made.single.id)).toBe(1);
    // A download resumed where it stopped.
    const resumed = await buyer.visitor.download(path, { Range: "bytes=10-19" });
    expect(resumed.response.status).toBe(206);
    expect(resumed.bytes).toEqual(made.single.bytes.subarray(10, 20));
  });

  it("saves under its exact title (filename and filename*), whatever the title holds, for browsers and curl -OJ alike", async () => {
    const { response } = await buyer.visitor.download(`/track/${made.named.id}/download`);
    expect(response.status).toBe(200);
    const disposition = response.headers.get("content-disposition")!;
    // What no file name may hold (a slash, a double quote) becomes a space; the rest is the title itself.
    const name = `${made.artistName} - Honey & Smoke Étude (Live) ☀.wav`;
    expect(decodeURIComponent(/filename\*=UTF-8''([^;]+)$/.exec(disposition)![1]!)).toBe(name);
    // `filename` holds the same name's UTF-8 bytes, as curl -OJ saves them.
    const raw = /filename="([^"]*)"/.exec(disposition)![1]!;
    expect(new TextDecoder().decode(Uint8Array.from(raw, (character) => character.charCodeAt(0)))).toBe(name);
  });

  it("is its artist's to take (not a download), and nobody else's: another fan and an admin get 403, a visitor signs in first", async () => {
    const path = `/track/${made.tracks[0]!.id}/download`;
    const before = await downloadsOf(made.tracks[0]!.id);
    expect((await made.artist.visitor.download(path)).response.status).toBe(200);
    expect(await downloadsOf(made.tracks[0]!.id)).toBe(before);
    for (const someone of [otherFan.visitor, await signedIn("admin@example.com", "admin-demo-pass")]) {
      // A page, not a bare message: why, and the way to buy it.
      const refused = await refusedAt(someone, path);
      expect(refused.response.status).toBe(403);
      expect(text(refused.html)).toContain("Only the artist and those who bought it can download this.");
      expect(refused.html).toContain(`href="/track/${made.tracks[0]!.id}?buy=1"`);
    }
    const visitor = await new Visitor().get(path);
    expect(visitor.response.status).toBe(302);
    expect(visitor.response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    expect((await refusedAt(buyer.visitor, "/track/not-an-id/download")).response.status).toBe(404);
  });
});

describe("an album's zip", () => {
  it("streams its bought tracks, whole and in order, in a folder named for it", async () => {
    const { response, bytes } = await buyer.visitor.download(`/album/${made.albumId}/download`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    const disposition = response.headers.get("content-disposition")!;
    expect(disposition).toMatch(/^attachment; filename=".* - Take Home\.zip"; filename\*=UTF-8''/);
    const files = readZip(bytes);
    expect(files.map((file) => file.name)).toEqual([
      `${made.artistName} - Take Home/01 First Side.wav`,
      `${made.artistName} - Take Home/02 Second Side.wav`,
    ]);
    expect(files.every((file) => file.crcMatches)).toBe(true);
    expect(files.map((file) => file.bytes)).toEqual(made.tracks.map((track) => track.bytes));
    expect(await downloadsOf(made.tracks[1]!.id)).toBe(1);
  });

  it("is nobody else's: another fan and an admin get 403, a visitor signs in first", async () => {
    const path = `/album/${made.albumId}/download`;
    expect((await refusedAt(otherFan.visitor, path)).response.status).toBe(403);
    expect((await refusedAt(await signedIn("admin@example.com", "admin-demo-pass"), path)).response.status).toBe(403);
    expect((await new Visitor().get(path)).response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
    expect((await made.artist.visitor.download(path)).response.status).toBe(200);
  });
});

/** Reloads the page preparing a download until it says the files are ready (the queue makes them in a second or two). */
async function waitUntilReady(visitor: Visitor, page: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const { response, html } = await visitor.get(page);
    expect(response.status).toBe(200);
    if (text(html).includes("Your download is ready")) return html;
    expect(text(html)).toContain("Preparing your download");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${page} never said the download was ready`);
}

describe("made formats", () => {
  it("makes a track's MP3 on first request: Preparing your download, then at the master's rate, tagged, counted once taken", async () => {
    const track = made.tracks[0]!;
    // A buyer of this track alone, whose downloads so far are none.
    const newBuyer = await newFan(`mp3buyer${Date.now().toString(36)}`);
    expect((await serviceClient.from("purchases").insert({ amount: 1.29, track_id: track.id, user_id: newBuyer.id })).error).toBeNull();
    const counted = async () =>
      (
        await serviceClient
          .from("analytics_events")
          .select("id", { count: "exact", head: true })
          .eq("type", "download")
          .eq("user_id", newBuyer.id)
      ).count;
    const path = `/track/${track.id}/download?format=mp3`;
    const first = await newBuyer.visitor.get(path);
    expect(first.response.status).toBe(303);
    const page = first.response.headers.get("location")!;
    expect(page).toBe(`/download/track/${track.id}?format=mp3`);
    const ready = await waitUntilReady(newBuyer.visitor, page);
    // Without JavaScript, the page goes to the file itself once it is ready.
    expect(ready).toContain(`content="0;url=${path.replace("&", "&amp;")}"`);
    expect(await counted()).toBe(0);
    const taken = await newBuyer.visitor.download(path);
    expect(taken.response.status).toBe(200);
    expect(decodeURIComponent(taken.response.headers.get("content-disposition")!)).toContain(`${made.artistName} - First Side.mp3`);
    const { common, format } = await parseBuffer(taken.bytes, { mimeType: "audio/mpeg" });
    // The 8 kHz master is not upsampled: its MP3 stays at 8 kHz, where MP3 carries at most 64 kbps.
    expect(format.sampleRate).toBe(8000);
    expect(format.bitrate).toBe(64000);
    expect(common).toMatchObject({ title: "First/Side", artist: made.artistName, album: "Take: Home", year: 2024, genre: ["Rock"] });
    expect(common.track).toEqual({ no: 1, of: 2 });
    expect(common.picture?.[0]?.data).toEqual(tinyPng);
    expect(await counted()).toBe(1);
  });

  it("zips an album's FLAC files once they are made, each decoding to its master's samples, with its tags", async () => {
    const path = `/album/${made.albumId}/download?format=flac`;
    const first = await buyer.visitor.get(path);
    expect(first.response.status).toBe(303);
    await waitUntilReady(buyer.visitor, first.response.headers.get("location")!);
    const { response, bytes } = await buyer.visitor.download(path);
    expect(response.status).toBe(200);
    const files = readZip(bytes);
    expect(files.map((file) => file.name)).toEqual([
      `${made.artistName} - Take Home/01 First Side.flac`,
      `${made.artistName} - Take Home/02 Second Side.flac`,
    ]);
    const decoder = new FLACDecoder();
    await decoder.ready;
    for (const [index, file] of files.entries()) {
      const decoded = await decoder.decodeFile(file.bytes);
      decoder.reset();
      // The master: toneWav's 16-bit mono samples, after its 44-byte header.
      const master = made.tracks[index]!.bytes;
      const samples = new Int16Array(master.buffer.slice(master.byteOffset + 44, master.byteOffset + master.length));
      expect(Int16Array.from(decoded.channelData[0]!, (value) => Math.round(value * 32767))).toEqual(samples);
      const { common } = await parseBuffer(file.bytes, { mimeType: "audio/flac" });
      expect(common).toMatchObject({ artist: made.artistName, album: "Take: Home", track: { no: index + 1, of: 2 } });
    }
    decoder.free();
  });

  it("makes a release's MP3s ahead when a fan redeems a code for it, before they ask", async () => {
    const { data: release } = await serviceClient
      .from("releases")
      .insert({ artist_id: made.artist.id, kind: "album", title: "Given Away" })
      .select("id")
      .single();
    const track = await trackWithMaster(made.artist.id, { release_id: release!.id, title: "Gift", track_number: 1 });
    const code = "GHJKMNPQRSTU";
    expect(
      (await serviceClient.from("download_codes").insert({ release_id: release!.id, artist_id: made.artist.id, code })).error,
    ).toBeNull();
    const fan = await newFan(`gifted${Date.now().toString(36)}`);
    expect((await fan.visitor.post("/redeem", { code })).response.status).toBe(303);
    const { data: master } = await serviceClient.from("tracks").select("file_url").eq("id", track.id).single();
    const mp3 = `${master!.file_url!.split("/")[1]!.replace(/\.wav$/, "")}.320k.mp3`;
    // It appears beside the master, nobody having asked for it.
    for (let listed: string[] = []; !listed.includes(mp3);) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { data } = await serviceClient.storage.from("tracks").list(`${made.artist.id}/renditions`, { limit: 1000 });
      listed = (data ?? []).map((object) => object.name);
    }
    // Named as ready a moment after it is stored; then taken at once.
    let taken = await fan.visitor.download(`/track/${track.id}/download?format=mp3`);
    while (taken.response.status === 303) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      taken = await fan.visitor.download(`/track/${track.id}/download?format=mp3`);
    }
    expect(taken.response.status).toBe(200);
  });

  it("is asked for only by who may download, and offers FLAC only where it is on offer", async () => {
    const page = `/download/album/${made.albumId}?format=mp3`;
    expect((await otherFan.visitor.get(page)).response.status).toBe(403);
    expect((await (await signedIn("admin@example.com", "admin-demo-pass")).get(page)).response.status).toBe(403);
    expect((await refusedAt(otherFan.visitor, `/album/${made.albumId}/download?format=flac`)).response.status).toBe(403);
    // Its artist may, any time.
    expect(text((await made.artist.visitor.get(page)).html)).toMatch(/Preparing your download|Your download is ready/);
    expect((await new Visitor().get(page)).response.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(page)}`);
    expect((await refusedAt(buyer.visitor, `/track/${made.single.id}/download?format=ogg`)).response.status).toBe(404);
    expect((await buyer.visitor.get(`/download/playlist/${made.albumId}?format=mp3`)).response.status).toBe(404);
  });
});

describe("what offers them", () => {
  it("lists Purchased by release, each with Play All and Download, an album's tracks each with theirs", async () => {
    const { response, html } = await buyer.visitor.get("/dashboard/fan/purchased");
    expect(response.status).toBe(200);
    const page = text(html);
    expect(page).toContain("Take: Home");
    expect(page).toContain("Album · 2 tracks bought");
    expect(page).toContain("Lone Single");
    // Each release's Download in each format: as uploaded, MP3, and FLAC of these WAV masters.
    expect(html).toContain(`href="/album/${made.albumId}/download"`);
    expect(html).toContain(`href="/album/${made.albumId}/download?format=mp3"`);
    expect(html).toContain(`href="/album/${made.albumId}/download?format=flac"`);
    expect(html).toContain(`href="/track/${made.single.id}/download"`);
    expect(html).toContain(`href="/track/${made.tracks[1]!.id}/download"`);
    expect(text((await otherFan.visitor.get("/dashboard/fan/purchased")).html)).toContain("No purchased tracks yet");
  });

  it("says You own this with Download on the track and album pages to a buyer, Buy to anyone else, and states the format", async () => {
    const trackPage = (await buyer.visitor.get(`/track/${made.single.id}`)).html;
    const track = text(trackPage);
    expect(track).toContain("You own this");
    expect(track).not.toContain("Buy Now");
    // Every format it is on offer in, where the fan owns it.
    for (const format of ["", "?format=mp3", "?format=flac"])
      expect(trackPage).toContain(`href="/track/${made.single.id}/download${format}"`);
    const notBought = await otherFan.visitor.get(`/track/${made.single.id}?buy=1`);
    expect(text(notBought.html)).toContain("Buy Now - $1.29");
    expect(text(notBought.html)).toContain("Download: WAV as uploaded, MP3, FLAC");
    const album = await buyer.visitor.get(`/album/${made.albumId}`);
    expect(text(album.html)).toContain("You own this");
    expect(album.html).toContain(`href="/album/${made.albumId}/download"`);
    expect(text((await made.artist.visitor.get(`/album/${made.albumId}`)).html)).toContain("Your album");
    expect(text((await new Visitor().get(`/album/${made.albumId}`)).html)).toContain("Buy Now - $2.58");
  });

  it("tells a fan who bought part of an album which tracks are theirs, lets them download those, and offers the album", async () => {
    const partOwner = await newFan(`part${Date.now().toString(36)}`);
    expect(
      (await serviceClient.from("purchases").insert({ amount: 1.29, track_id: made.tracks[1]!.id, user_id: partOwner.id })).error,
    ).toBeNull();
    const { html } = await partOwner.visitor.get(`/album/${made.albumId}`);
    expect(text(html)).toContain("You own 1 of 2");
    expect(text(html)).toContain("Owned");
    expect(text(html)).toContain("Buy Now - $2.58");
    expect(html).toContain(`href="/album/${made.albumId}/download?format=mp3"`);
    const { response, bytes } = await partOwner.visitor.download(`/album/${made.albumId}/download`);
    expect(response.status).toBe(200);
    expect(readZip(bytes).map((file) => file.name)).toEqual([`${made.artistName} - Take Home/02 Second Side.wav`]);
  });
});
