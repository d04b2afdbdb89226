// The upload form's resumable uploads: tus-js-client (what the form loads) against the Worker's route,
// which passes them on to the local stack's Storage as the signed-in artist. The session cookie is all
// the browser sends; the route judges paths, types, sizes and first bytes before Storage keeps anything.
import { Upload, type DetailedError, type HttpRequest } from "tus-js-client";
import { beforeAll, describe, expect, it } from "vitest";
import { pngOf, tinyPng, toneWav } from "../support/media.ts";
import { Visitor, appUrl, newArtist, serviceClient, signedIn, text } from "./support.ts";

const endpoint = new URL("/uploads/resumable", appUrl).toString();
const chunkSize = 16 * 1024;
const wav = toneWav(6); // about 96 KB: six chunks

/** A path as the upload form makes them: `{user id}/{timestamp}-{random}.{ext}`. */
const storagePath = (userId: string, extension: string) => `${userId}/${Date.now()}-${crypto.randomUUID().slice(0, 8)}.${extension}`;

let artist: { visitor: Visitor; id: string };
let otherArtist: { visitor: Visitor; id: string };

beforeAll(async () => {
  [artist, otherArtist] = await Promise.all([newArtist("Resumable Tester"), newArtist("Other Resumable Tester")]);
});

type Options = { uploadUrl?: string; contentType?: string; bucket?: string; onChunk?: (upload: Upload, sent: number) => void };

/** One upload as the upload form starts it, recording the offset of every chunk sent. */
function upload(as: Visitor, bytes: Uint8Array, objectName: string, options: Options = {}) {
  const offsets: number[] = [];
  let current: Upload;
  const done = new Promise<string>((resolve, reject) => {
    current = new Upload(Buffer.from(bytes), {
      endpoint,
      uploadUrl: options.uploadUrl,
      headers: { Cookie: [...as.cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
      metadata: {
        bucketName: options.bucket ?? "tracks",
        objectName,
        contentType: options.contentType ?? "audio/wav",
        cacheControl: "3600",
      },
      chunkSize,
      retryDelays: [],
      onBeforeRequest(request: HttpRequest) {
        if (request.getMethod() === "PATCH") offsets.push(Number(request.getHeader("Upload-Offset")));
      },
      onChunkComplete: (_size, sent) => options.onChunk?.(current, sent),
      onSuccess: () => resolve(current.url ?? ""),
      onError: reject,
    });
    current.start();
  });
  return { done, offsets, url: () => current.url };
}

/** An upload stopped once `chunks` chunks are in (as a dropped connection leaves it): its address, to resume or probe. */
async function stoppedUpload(as: Visitor, path: string, chunks: number): Promise<string> {
  let stopped = () => {};
  const stoppedThere = new Promise<void>((resolve) => (stopped = resolve));
  const started = upload(as, wav, path, {
    onChunk: (current, sent) => {
      if (sent >= chunkSize * chunks) void current.abort().then(stopped);
    },
  });
  await stoppedThere;
  return started.url() ?? "";
}

/** What a refused upload answered: its status and the message shown beside the file. */
async function refusal(done: Promise<unknown>) {
  const error = await done.then(
    () => null,
    (failure: DetailedError) => failure,
  );
  return { status: error?.originalResponse?.getStatus(), message: error?.originalResponse?.getBody() };
}

async function stored(bucket: string, path: string) {
  const { data } = await serviceClient.storage.from(bucket).download(path);
  return data ? new Uint8Array(await data.arrayBuffer()) : null;
}

describe("resumable uploads through the Worker", () => {
  it("stores an artist's track chunk by chunk in their folder, with its type and an hour's cache", async () => {
    const path = storagePath(artist.id, "wav");
    const { done, offsets } = upload(artist.visitor, wav, path);
    expect(await done).toMatch(/\/uploads\/resumable\/[\w-]+$/);
    expect(offsets[0]).toBe(0);
    expect(offsets.length).toBe(Math.ceil(wav.length / chunkSize));
    expect(await stored("tracks", path)).toEqual(wav);
    const { data } = await serviceClient.storage.from("tracks").info(path);
    expect(data).toMatchObject({ contentType: "audio/wav", cacheControl: "max-age=3600" });
  });

  it("resumes a stopped upload where the server stands, not from zero", async () => {
    const path = storagePath(artist.id, "wav");
    const uploadUrl = await stoppedUpload(artist.visitor, path, 2);
    expect(await stored("tracks", path)).toBeNull();

    const second = upload(artist.visitor, wav, path, { uploadUrl });
    await second.done;
    expect(second.offsets[0]).toBe(chunkSize * 2);
    expect(await stored("tracks", path)).toEqual(wav);
  });

  it("refuses an HTML page named .wav by its first bytes, and stores nothing", async () => {
    const path = storagePath(artist.id, "wav");
    const page = new TextEncoder().encode(`<!doctype html><script>alert(document.cookie)</script>${" ".repeat(chunkSize)}`);
    expect(await refusal(upload(artist.visitor, page, path).done)).toEqual({ status: 415, message: "Unsupported file type" });
    expect(await stored("tracks", path)).toBeNull();
    const { data } = await serviceClient.storage.from("tracks").list(artist.id);
    expect(data?.map((object) => object.name)).not.toContain(path.split("/")[1]);
  });

  it("refuses another artist's folder, a fan and a visitor", async () => {
    const theirs = storagePath(otherArtist.id, "wav");
    expect(await refusal(upload(artist.visitor, wav, theirs).done)).toEqual({
      status: 403,
      message: "You don't have permission to perform this action",
    });
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await refusal(upload(fan, wav, storagePath(artist.id, "wav")).done)).status).toBe(403);
    expect(await refusal(upload(new Visitor(), wav, storagePath(artist.id, "wav")).done)).toEqual({
      status: 401,
      message: "Unauthorized - please log in again",
    });
    expect(await stored("tracks", theirs)).toBeNull();
  });

  it("tells an upload's state and takes its bytes only for its owner: anyone else's id is not found", async () => {
    const path = storagePath(artist.id, "wav");
    const uploadUrl = await stoppedUpload(artist.visitor, path, 1);
    const uploadPath = new URL(uploadUrl).pathname;
    const tus = { "Tus-Resumable": "1.0.0" };

    const own = await artist.visitor.request(uploadPath, { method: "HEAD", headers: tus });
    expect(own.response.status).toBe(200);
    expect(own.response.headers.get("Upload-Offset")).toBe(String(chunkSize));

    for (const someoneElse of [otherArtist.visitor, await signedIn("fan@example.com", "fan-demo-pass")]) {
      const head = await someoneElse.request(uploadPath, { method: "HEAD", headers: tus });
      expect(head.response.status).toBe(404);
      expect(head.response.headers.get("Upload-Offset")).toBeNull();
      expect(head.response.headers.get("Upload-Metadata")).toBeNull();
      const append = await someoneElse.request(uploadPath, {
        method: "PATCH",
        body: wav.slice(chunkSize, chunkSize * 2),
        headers: { ...tus, "Upload-Offset": String(chunkSize), "Content-Type": "application/offset+octet-stream" },
      });
      expect(append.response.status).toBe(404);
      expect((await someoneElse.request(uploadPath, { method: "DELETE", headers: tus })).response.status).toBe(404);
    }
    // The owner's upload is as it was, and goes on to the end.
    const resumed = upload(artist.visitor, wav, path, { uploadUrl });
    await resumed.done;
    expect(resumed.offsets[0]).toBe(chunkSize);
    expect(await stored("tracks", path)).toEqual(wav);
  });

  it("takes a fan's profile picture into their own folder, but never audio", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const riley = "f0000000-0000-4000-8000-000000000001";
    const picture = storagePath(riley, "png");
    await upload(fan, tinyPng, picture, { bucket: "artwork", contentType: "image/png" }).done;
    expect(await stored("artwork", picture)).not.toBeNull();
    const audio = storagePath(riley, "wav");
    expect((await refusal(upload(fan, wav, audio).done)).status).toBe(403);
    expect(await stored("tracks", audio)).toBeNull();
    await serviceClient.storage.from("artwork").remove([picture]);
  });

  it("holds the spec's limits: a path of its own making, the type its extension stands for, 50 MB", async () => {
    expect((await refusal(upload(artist.visitor, wav, `${artist.id}/../escape.wav`).done)).status).toBe(403);
    expect((await refusal(upload(artist.visitor, wav, `${artist.id}/chosen-name.wav`).done)).status).toBe(403);
    expect(await refusal(upload(artist.visitor, wav, storagePath(artist.id, "wav"), { contentType: "text/html" }).done)).toEqual({
      status: 415,
      message: "Unsupported file type",
    });
    expect((await refusal(upload(artist.visitor, wav, storagePath(artist.id, "wav"), { bucket: "artwork" }).done)).status).toBe(403);

    const response = await fetch(endpoint, {
      method: "POST",
      headers: {
        Cookie: [...artist.visitor.cookies].map(([name, value]) => `${name}=${value}`).join("; "),
        "Tus-Resumable": "1.0.0",
        "Upload-Length": String(50 * 1024 * 1024 + 1),
        "Upload-Metadata": `bucketName ${btoa("tracks")},objectName ${btoa(storagePath(artist.id, "wav"))},contentType ${btoa("audio/wav")}`,
      },
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toBe("File is too large. Maximum size is 50MB.");
  });
});

const undecodable = "This audio file could not be read. Please export it again as MP3, WAV, AAC or OGG.";
const waveform = { peaks: Array.from({ length: 300 }, (_, i) => (i % 10) / 10), durationSeconds: 6 };
const releaseFields = { genre: "Folk", price: "1.49", releaseDate: "2026-01-05", description: "Uploaded ahead" };

/** The upload form as JavaScript posts it: its fields, and the files it already uploaded. */
function namedFiles(fields: Record<string, string>, artwork: string, tracks: unknown[], artworkSmall = "") {
  const body = new FormData();
  for (const [name, value] of Object.entries({ ...releaseFields, ...fields })) body.append(name, value);
  body.append("uploadedArtwork", artwork);
  body.append("uploadedArtworkSmall", artworkSmall);
  for (const track of tracks) body.append("uploadedTracks", typeof track === "string" ? track : JSON.stringify(track));
  return body;
}

async function uploadedArtwork() {
  const path = storagePath(artist.id, "png");
  await upload(artist.visitor, pngOf(60, 40), path, { bucket: "artwork", contentType: "image/png" }).done;
  return path;
}

async function uploadedTrack() {
  const path = storagePath(artist.id, "wav");
  await upload(artist.visitor, wav, path).done;
  return path;
}

describe("publishing what the form uploaded ahead (JavaScript)", () => {
  it("publishes an album from the named files, with the waveforms the browser read and the lengths their bytes hold, in the order given", async () => {
    const [artwork, first, second] = await Promise.all([uploadedArtwork(), uploadedTrack(), uploadedTrack()]);
    const small = artwork.replace(/\/([^/]+)\.png$/, "/small/$1.png");
    await upload(artist.visitor, tinyPng, small, { bucket: "artwork", contentType: "image/png" }).done;
    const albumTitle = `Ahead ${Date.now().toString(36)}`;
    const { response } = await artist.visitor.postMultipart(
      "/dashboard/artist/upload?type=album",
      namedFiles(
        { albumTitle, trackTitles: "Second Wind" },
        artwork,
        [
          { path: second, ...waveform },
          { path: first, ...waveform, durationSeconds: 3.333 },
        ],
        small,
      ),
    );
    expect(response.status).toBe(303);
    const { data: album } = await serviceClient.from("releases").select("id").eq("title", albumTitle).single();
    const { data } = await serviceClient
      .from("tracks")
      .select("title, file_url, track_number, peaks, duration_seconds, artwork_url, artwork_small_url, artwork_width, artwork_height")
      .eq("release_id", album!.id)
      .order("track_number");
    // The artwork's size is read from the stored file's first bytes, never from what the form says.
    expect(data).toMatchObject([
      {
        title: "Second Wind",
        file_url: second,
        track_number: 1,
        peaks: waveform.peaks,
        duration_seconds: 6,
        artwork_width: 60,
        artwork_height: 40,
      },
      // The browser said 3.333 s; the WAV's header says 6 s, and the file's bytes are what count.
      { title: "Track 2", file_url: first, track_number: 2, duration_seconds: 6, artwork_width: 60, artwork_height: 40 },
    ]);
    expect(data?.[0]?.artwork_url).toContain(`/artwork/${artwork}`);
    expect(data?.[0]?.artwork_small_url).toContain(`/artwork/${small}`);
  });

  it("publishes without the small rendition when it is not there (yet): the artwork's original serves", async () => {
    const [artwork, track] = await Promise.all([uploadedArtwork(), uploadedTrack()]);
    const notUploaded = artwork.replace(/\/([^/]+)\.png$/, "/small/$1.png");
    const title = `No Rendition ${Date.now().toString(36)}`;
    const { response } = await artist.visitor.postMultipart(
      "/dashboard/artist/upload?type=single",
      namedFiles({ title }, artwork, [{ path: track, ...waveform }], notUploaded),
    );
    expect(response.status).toBe(303);
    const { data } = await serviceClient.from("tracks").select("artwork_url, artwork_small_url").eq("title", title).single();
    expect(data?.artwork_url).toContain(`/artwork/${artwork}`);
    expect(data?.artwork_small_url).toBeNull();
  });

  it("refuses files that are not the artist's, not there yet, or not what their name says; and waveforms it cannot read", async () => {
    const artwork = await uploadedArtwork();
    const post = (tracks: unknown[], kind = "single") =>
      artist.visitor.postMultipart(
        `/dashboard/artist/upload?type=${kind}`,
        namedFiles({ title: "Refused", albumTitle: "Refused" }, artwork, tracks),
      );

    const theirs = await post([{ path: storagePath(otherArtist.id, "wav"), ...waveform }]);
    expect(text(theirs.html)).toContain("You don't have permission to perform this action");
    const missing = await post([{ path: storagePath(artist.id, "wav"), ...waveform }]);
    const strayRendition = await artist.visitor.postMultipart(
      "/dashboard/artist/upload?type=single",
      namedFiles(
        { title: "Refused" },
        artwork,
        [{ path: await uploadedTrack(), ...waveform }],
        `${artist.id}/small/0000000000000-00000000.png`,
      ),
    );
    expect(text(strayRendition.html)).toContain("You don't have permission to perform this action");
    expect(text(missing.html)).toContain("Please wait for all uploads to complete");
    expect(text((await post(["not json"])).html)).toContain(undecodable);
    expect(text((await post([{ path: storagePath(artist.id, "wav"), peaks: [2], durationSeconds: 1 }])).html)).toContain(undecodable);
    const two = await post([
      { path: await uploadedTrack(), ...waveform },
      { path: await uploadedTrack(), ...waveform },
    ]);
    expect(text(two.html)).toContain("Only one track can be uploaded for singles");
    expect(text((await post([], "album")).html)).toContain("Please upload at least one track");

    // Someone holding the artist's token could put a page into their folder past the Worker's route:
    // publishing reads its first bytes, refuses it, and removes it.
    const disguised = storagePath(artist.id, "wav");
    await serviceClient.storage
      .from("tracks")
      .upload(disguised, new TextEncoder().encode("<!doctype html><p>hi"), { contentType: "audio/wav" });
    const page = await post([{ path: disguised, ...waveform }]);
    expect(page.response.status).toBe(400);
    expect(text(page.html)).toContain("Unsupported file type");
    expect(await stored("tracks", disguised)).toBeNull();
    const { count } = await serviceClient.from("tracks").select("id", { count: "exact", head: true }).eq("title", "Refused");
    expect(count).toBe(0);
  });

  it("replaces a published track's audio and artwork with files it named, judged as at publishing", async () => {
    const [artwork, track] = await Promise.all([uploadedArtwork(), uploadedTrack()]);
    const title = `Replaced ${Date.now().toString(36)}`;
    await artist.visitor.postMultipart(
      "/dashboard/artist/upload?type=single",
      namedFiles({ title }, artwork, [{ path: track, ...waveform }]),
    );
    const { data: published } = await serviceClient.from("tracks").select("id").eq("title", title).single();
    const replace = (newArtwork: string, tracks: unknown[]) => {
      const body = namedFiles({ intent: "replace-files" }, newArtwork, tracks);
      return artist.visitor.postMultipart(`/dashboard/artist/tracks/${published!.id}`, body);
    };

    const theirs = await replace("", [{ path: storagePath(otherArtist.id, "wav"), ...waveform }]);
    expect(text(theirs.html)).toContain("You don't have permission to perform this action");
    expect(text((await replace("", [])).html)).toContain("Please choose a new audio file or new artwork");

    const [newArtwork, newTrack] = await Promise.all([uploadedArtwork(), uploadedTrack()]);
    const { response } = await replace(newArtwork, [{ path: newTrack, ...waveform, durationSeconds: 1 }]);
    expect(response.status).toBe(303);
    const { data } = await serviceClient.from("tracks").select("file_url, duration_seconds, artwork_url").eq("id", published!.id).single();
    // Its length is what the new file's bytes hold, not what the browser said.
    expect(data).toMatchObject({ file_url: newTrack, duration_seconds: 6 });
    expect(data?.artwork_url).toContain(`/artwork/${newArtwork}`);
    expect(await stored("tracks", track)).toBeNull();
  });

  it("removes a file the artist took out again, but never one a release uses, and only the artist's own", async () => {
    const discard = (as: Visitor, bucket: string, path: string) => {
      const body = new FormData();
      body.set("bucket", bucket);
      body.set("path", path);
      return as.postMultipart("/uploads/discard", body);
    };
    const path = await uploadedTrack();
    expect((await discard(otherArtist.visitor, "tracks", path)).response.status).toBe(400);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    expect((await discard(fan, "tracks", path)).response.status).toBe(400);
    expect((await discard(new Visitor(), "tracks", path)).response.status).toBe(302);
    expect(await stored("tracks", path)).not.toBeNull();
    expect((await discard(artist.visitor, "tracks", path)).response.status).toBe(204);
    expect(await stored("tracks", path)).toBeNull();

    const [artwork, track] = await Promise.all([uploadedArtwork(), uploadedTrack()]);
    const published = await artist.visitor.postMultipart(
      "/dashboard/artist/upload?type=single",
      namedFiles({ title: `Kept ${Date.now().toString(36)}` }, artwork, [{ path: track, ...waveform }]),
    );
    expect(published.response.status).toBe(303);
    expect((await discard(artist.visitor, "tracks", track)).response.status).toBe(409);
    expect((await discard(artist.visitor, "artwork", artwork)).response.status).toBe(409);
    expect(await stored("tracks", track)).not.toBeNull();
  });
});
