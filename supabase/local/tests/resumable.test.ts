// The local stack's resumable uploads (TUS), driven by the real tus-js-client as Supabase's docs use it,
// against the real buckets and storage policies from our migrations.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { Upload, type HttpRequest } from "tus-js-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt, createUser, startTestStack } from "../testing.ts";
import type { LocalStack } from "../server.ts";

let local: LocalStack;
type User = { id: string; token: string; client: SupabaseClient };
let artist: User;
let otherArtist: User;
let fan: User;

const chunkSize = 64 * 1024;
const audio = new Uint8Array(Array.from({ length: chunkSize * 3 + 1000 }, (_, i) => (i * 7) % 256));

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  artist = await user({ role: "artist", artist_name: "Resumable Tester", paypal_email: "pay@example.test" });
  otherArtist = await user({ role: "artist", artist_name: "Other Tester", paypal_email: "pay2@example.test" });
  fan = await user({ role: "fan", username: `fan${Date.now()}` });
});

afterAll(async () => {
  await local?.close();
});

async function user(metadata: Record<string, unknown>): Promise<User> {
  const { id, claims } = await createUser(local.stack.db, metadata);
  const token = signJwt(claims, local.stack.config.jwtSecret);
  const client = createClient(local.url, local.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
  return { id, token, client };
}

type Sent = { method: string; offset: number | null; bytes: number };

/** An upload as the Supabase docs write it, recording what each request sent. */
function resumable(
  token: string,
  bytes: Uint8Array,
  metadata: Record<string, string>,
  options: { uploadUrl?: string; onChunk?: (upload: Upload, sent: number) => void; signature?: string } = {},
) {
  const sent: Sent[] = [];
  let upload: Upload;
  const done = new Promise<{ url: string | null }>((resolve, reject) => {
    upload = new Upload(Buffer.from(bytes), {
      // A signed upload URL's token goes to /sign in `x-signature`, as Supabase's docs write it.
      endpoint: `${local.url}/storage/v1/upload/resumable${options.signature === undefined ? "" : "/sign"}`,
      uploadUrl: options.uploadUrl,
      headers:
        options.signature === undefined
          ? { authorization: `Bearer ${token}`, apikey: local.anonKey }
          : { "x-signature": options.signature, apikey: local.anonKey },
      metadata: { cacheControl: "3600", ...metadata },
      chunkSize,
      retryDelays: [],
      removeFingerprintOnSuccess: true,
      onBeforeRequest(request: HttpRequest) {
        const offset = request.getHeader("Upload-Offset");
        sent.push({ method: request.getMethod(), offset: offset === undefined ? null : Number(offset), bytes: 0 });
      },
      onAfterResponse(request: HttpRequest) {
        const last = sent.at(-1);
        if (last && request.getMethod() === "PATCH") last.bytes = chunkSize;
      },
      onChunkComplete(_size, sentBytes) {
        options.onChunk?.(upload, sentBytes);
      },
      onSuccess: () => resolve({ url: upload.url }),
      onError: reject,
    });
    upload.start();
  });
  return { done, sent, upload: () => upload };
}

/** An upload stopped once `chunks` chunks are in (as a dropped connection leaves it): its address. */
async function stoppedUpload(token: string, metadata: Record<string, string>, chunks: number): Promise<string> {
  let stopped = () => {};
  const stoppedThere = new Promise<void>((resolve) => (stopped = resolve));
  const started = resumable(token, audio, metadata, {
    onChunk: (upload, sentBytes) => {
      if (sentBytes >= chunkSize * chunks) void upload.abort().then(stopped);
    },
  });
  await stoppedThere;
  return started.upload().url!;
}

async function download(path: string, bucket = "tracks") {
  const response = await fetch(`${local.url}/storage/v1/object/${bucket}/${path}`, {
    headers: { Authorization: `Bearer ${artist.token}`, apikey: local.anonKey },
  });
  return { status: response.status, response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe("resumable uploads", () => {
  it("stores the file in chunks under the artist's folder, with its type and cache control", async () => {
    const path = `${artist.id}/${Date.now()}-whole.mp3`;
    const { done, sent } = resumable(artist.token, audio, { bucketName: "tracks", objectName: path, contentType: "audio/mpeg" });
    const { url } = await done;
    expect(url).toMatch(new RegExp(`^${local.url}/storage/v1/upload/resumable/[\\w-]+$`));
    expect(Buffer.from(url!.split("/").at(-1)!, "base64url").toString()).toMatch(new RegExp(`^tracks/${path}/[0-9a-f-]{36}$`));
    expect(sent.filter((request) => request.method === "PATCH").map((request) => request.offset)).toEqual([
      0,
      chunkSize,
      chunkSize * 2,
      chunkSize * 3,
    ]);

    const stored = await download(path);
    expect(stored.status).toBe(200);
    expect(stored.bytes).toEqual(audio);
    expect(stored.response.headers.get("content-type")).toBe("audio/mpeg");
    expect(stored.response.headers.get("cache-control")).toBe("max-age=3600");
  });

  it("resumes a stopped upload from the server's offset, not from zero, and no object exists before the last byte", async () => {
    const path = `${artist.id}/${Date.now()}-resumed.mp3`;
    const metadata = { bucketName: "tracks", objectName: path, contentType: "audio/mpeg" };
    const uploadUrl = await stoppedUpload(artist.token, metadata, 2);
    expect((await local.stack.db.query("select 1 from storage.objects where name = $1", [path])).rows).toEqual([]);
    expect((await download(path)).status).toBe(400);

    const second = resumable(artist.token, audio, metadata, { uploadUrl });
    await second.done;
    expect(second.sent[0]).toMatchObject({ method: "HEAD" });
    expect(second.sent.filter((request) => request.method === "PATCH").map((request) => request.offset)).toEqual([
      chunkSize * 2,
      chunkSize * 3,
    ]);
    expect((await download(path)).bytes).toEqual(audio);
  });

  it("tells an unfinished upload's offset and metadata only to a caller who may upload there", async () => {
    const path = `${artist.id}/${Date.now()}-state.mp3`;
    const metadata = { bucketName: "tracks", objectName: path, contentType: "audio/mpeg" };
    const uploadUrl = await stoppedUpload(artist.token, metadata, 1);
    const head = (token: string) =>
      fetch(uploadUrl, {
        method: "HEAD",
        headers: { authorization: `Bearer ${token}`, apikey: local.anonKey, "Tus-Resumable": "1.0.0" },
      });
    const own = await head(artist.token);
    expect(own.status).toBe(200);
    expect(own.headers.get("Upload-Offset")).toBe(String(chunkSize));
    for (const token of [local.anonKey, otherArtist.token, fan.token]) {
      const refused = await head(token);
      expect(refused.status).toBe(403);
      expect(refused.headers.get("Upload-Offset")).toBeNull();
      expect(refused.headers.get("Upload-Metadata")).toBeNull();
    }
  });

  it("refuses another artist's folder, a fan and a visitor, and stores nothing", async () => {
    const path = `${artist.id}/${Date.now()}-intruder.mp3`;
    const metadata = { bucketName: "tracks", objectName: path, contentType: "audio/mpeg" };
    await expect(resumable(otherArtist.token, audio, metadata).done).rejects.toThrow(/response code: 403.*row-level security/s);
    const fanPath = `${fan.id}/${Date.now()}-fan.mp3`;
    await expect(resumable(fan.token, audio, { ...metadata, objectName: fanPath }).done).rejects.toThrow(/response code: 403/);
    await expect(resumable(local.anonKey, audio, metadata).done).rejects.toThrow(/response code: 403/);
    const { rows } = await local.stack.db.query("select 1 from storage.objects where name in ($1, $2)", [path, fanPath]);
    expect(rows).toEqual([]);
  });

  it("holds the bucket's limits: declared type, size, and no overwrite", async () => {
    const base = `${artist.id}/${Date.now()}`;
    await expect(
      resumable(artist.token, audio, { bucketName: "tracks", objectName: `${base}-page.mp3`, contentType: "text/html" }).done,
    ).rejects.toThrow(/response code: 415.*mime type text\/html is not supported/s);
    await expect(
      resumable(artist.token, new Uint8Array(5 * 1024 * 1024 + 1), {
        bucketName: "artwork",
        objectName: `${base}.png`,
        contentType: "image/png",
      }).done,
    ).rejects.toThrow(/response code: 413/);

    const path = `${base}-twice.mp3`;
    await resumable(artist.token, audio, { bucketName: "tracks", objectName: path, contentType: "audio/mpeg" }).done;
    await expect(
      resumable(artist.token, audio, { bucketName: "tracks", objectName: path, contentType: "audio/mpeg" }).done,
    ).rejects.toThrow(/response code: 409/);
  });

  it("takes a signed upload URL's token at /sign: its one object, written as its signer, and nothing else", async () => {
    const path = `${artist.id}/renditions/${Date.now()}-signed.mp3`;
    const { data: signed, error } = await artist.client.storage.from("tracks").createSignedUploadUrl(path, { upsert: true });
    expect(error).toBeNull();
    const metadata = { bucketName: "tracks", objectName: path, contentType: "audio/mpeg" };
    await resumable("", audio, metadata, { signature: signed!.token }).done;
    expect(await download(path)).toMatchObject({ status: 200, bytes: audio });
    const { rows } = await local.stack.db.query<{ owner_id: string }>("select owner_id from storage.objects where name = $1", [path]);
    expect(rows).toEqual([{ owner_id: artist.id }]);
    // upsert, as the token says: a job run again writes the same object
    await resumable("", audio.slice(0, 1000), metadata, { signature: signed!.token }).done;
    expect((await download(path)).bytes).toEqual(audio.slice(0, 1000));

    const elsewhere = `${artist.id}/renditions/${Date.now()}-elsewhere.mp3`;
    await expect(resumable("", audio, { ...metadata, objectName: elsewhere }, { signature: signed!.token }).done).rejects.toThrow(
      /response code: 403.*Invalid signature/s,
    );
    await expect(resumable("", audio, metadata, { signature: `${signed!.token}x` }).done).rejects.toThrow(
      /"statusCode":"403","code":"AccessDenied"/,
    );
    // a download token is no upload token
    const { data: readable } = await artist.client.storage.from("tracks").createSignedUrl(path, 60);
    const downloadToken = new URL(readable!.signedUrl).searchParams.get("token")!;
    await expect(resumable("", audio, metadata, { signature: downloadToken }).done).rejects.toThrow(
      /"statusCode":"403","code":"AccessDenied"/,
    );
    await expect(resumable("", audio, { ...metadata, objectName: elsewhere }, { signature: "" }).done).rejects.toThrow(
      /"statusCode":"403","code":"AccessDenied"/,
    );
    const { rows: stored } = await local.stack.db.query("select 1 from storage.objects where name = $1", [elsewhere]);
    expect(stored).toEqual([]);
  });
});
