// The upload form's resumable uploads: tus-js-client (what the form loads) against the Worker's route,
// which passes them on to the local stack's Storage as the signed-in artist. The session cookie is all
// the browser sends; the route judges paths, types, sizes and first bytes before Storage keeps anything.
import { Upload, type DetailedError, type HttpRequest } from "tus-js-client";
import { beforeAll, describe, expect, it } from "vitest";
import { storagePath } from "../../app/lib/media-files.ts";
import { toneWav } from "../support/media.ts";
import { Visitor, appUrl, newArtist, serviceClient, signedIn } from "./support.ts";

const endpoint = new URL("/dashboard/artist/upload/resumable", appUrl).toString();
const chunkSize = 16 * 1024;
const wav = toneWav(6); // about 96 KB: six chunks

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
      headers: { Cookie: [...as.cookies].map(([name, value]) => `${name}=${value}`).join("; "), "CF-Connecting-IP": as.address },
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
    expect(await done).toMatch(/\/dashboard\/artist\/upload\/resumable\/[\w-]+$/);
    expect(offsets[0]).toBe(0);
    expect(offsets.length).toBe(Math.ceil(wav.length / chunkSize));
    expect(await stored("tracks", path)).toEqual(wav);
    const { data } = await serviceClient.storage.from("tracks").info(path);
    expect(data).toMatchObject({ contentType: "audio/wav", cacheControl: "max-age=3600" });
  });

  it("resumes a stopped upload where the server stands, not from zero", async () => {
    const path = storagePath(artist.id, "wav");
    let stopped = () => {};
    const stoppedAfterTwoChunks = new Promise<void>((resolve) => (stopped = resolve));
    const first = upload(artist.visitor, wav, path, {
      onChunk: (current, sent) => {
        if (sent >= chunkSize * 2) void current.abort().then(stopped);
      },
    });
    await stoppedAfterTwoChunks;
    expect(await stored("tracks", path)).toBeNull();

    const second = upload(artist.visitor, wav, path, { uploadUrl: first.url() ?? undefined });
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
