// The local stack's Storage, driven by the real supabase-js against the real `tracks` and `artwork`
// buckets and their policies from our migrations.
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signJwt, startTestStack, createUser } from "../testing.ts";
import { startLocalStack, type LocalStack } from "../server.ts";

let local: LocalStack;
type User = { id: string; token: string; client: SupabaseClient };

let artist: User;
let otherArtist: User;
let visitor: SupabaseClient;

const audio = new Uint8Array(Array.from({ length: 1000 }, (_, i) => i % 256));

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  artist = await signedInUser();
  otherArtist = await signedInUser();
  visitor = clientWith(local.anonKey);
});

afterAll(async () => {
  await local?.close();
});

function clientWith(token: string): SupabaseClient {
  return createClient(local.url, local.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
}

/** An artist: our migrations let only artists write to the tracks bucket these tests use. */
async function signedInUser(): Promise<User> {
  const { id, claims } = await createUser(local.stack.db, {
    role: "artist",
    artist_name: "Storage Tester",
    paypal_email: "pay@example.test",
  });
  const token = signJwt(claims, local.stack.config.jwtSecret);
  return { id, token, client: clientWith(token) };
}

describe("upload", () => {
  it("stores raw bytes under the artist folder and serves them back with their type and cache control", async () => {
    const path = `${artist.id}/raw.mp3`;
    const { data, error } = await artist.client.storage
      .from("tracks")
      .upload(path, Buffer.from(audio), { contentType: "audio/mpeg", cacheControl: "600" });
    expect(error).toBeNull();
    expect(data).toMatchObject({ path, fullPath: `tracks/${path}` });
    expect(data?.id).toMatch(/^[0-9a-f-]{36}$/);

    const response = await fetch(`${local.url}/storage/v1/object/tracks/${path}`, {
      headers: { Authorization: `Bearer ${artist.token}`, apikey: local.anonKey },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/mpeg");
    expect(response.headers.get("cache-control")).toBe("max-age=600");
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-length")).toBe("1000");
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(audio);
  });

  it("accepts multipart uploads (a Blob), taking the type from the file part", async () => {
    const path = `${artist.id}/cover.png`;
    const { error } = await artist.client.storage
      .from("artwork")
      .upload(path, new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }), { cacheControl: "3600" });
    expect(error).toBeNull();

    const { data } = await artist.client.storage.from("artwork").info(path);
    expect(data).toMatchObject({ name: path, contentType: "image/png", cacheControl: "max-age=3600", size: 4 });
  });

  it("refuses a second upload to the same path unless upsert is asked for", async () => {
    const path = `${artist.id}/twice.mp3`;
    const bucket = artist.client.storage.from("tracks");
    expect((await bucket.upload(path, Buffer.from("one"), { contentType: "audio/mpeg" })).error).toBeNull();

    const duplicate = await bucket.upload(path, Buffer.from("two"), { contentType: "audio/mpeg" });
    expect(duplicate.error).toMatchObject({ status: 400, statusCode: "409", message: "The resource already exists" });

    const replaced = await bucket.upload(path, Buffer.from("three"), { contentType: "audio/mpeg", upsert: true });
    expect(replaced.error).toBeNull();
    expect(await (await bucket.download(path)).data?.text()).toBe("three");
  });

  it("enforces the bucket size limit", async () => {
    const { error } = await artist.client.storage
      .from("artwork")
      .upload(`${artist.id}/huge.png`, Buffer.alloc(5 * 1024 * 1024 + 1), { contentType: "image/png" });
    expect(error).toMatchObject({ statusCode: "413", message: "The object exceeded the maximum allowed size" });
    expect((await artist.client.storage.from("artwork").exists(`${artist.id}/huge.png`)).data).toBe(false);
  });

  it("enforces the bucket types, on the declared type", async () => {
    const { error } = await artist.client.storage
      .from("tracks")
      .upload(`${artist.id}/notes.txt`, Buffer.from("hello"), { contentType: "text/plain" });
    expect(error).toMatchObject({ statusCode: "415", message: "mime type text/plain is not supported" });
  });

  it("keeps only the type it checked: parameters are dropped, SVG is never artwork", async () => {
    const path = `${artist.id}/sneaky.png`;
    const page = Buffer.from("<html><script>alert(document.cookie)</script></html>");
    const stored = await artist.client.storage.from("artwork").upload(path, page, { contentType: "image/png;text/html" });
    expect(stored.error).toBeNull();
    const served = await fetch(visitor.storage.from("artwork").getPublicUrl(path).data.publicUrl);
    expect(served.headers.get("content-type")).toBe("image/png");

    const svg = await artist.client.storage
      .from("artwork")
      .upload(`${artist.id}/logo.svg`, Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"), { contentType: "image/svg+xml" });
    expect(svg.error).toMatchObject({ statusCode: "415" });
  });

  it("lets only artists write to the tracks bucket", async () => {
    const { claims } = await createUser(local.stack.db, { role: "fan", username: "not_an_artist" });
    const fan = clientWith(signJwt(claims, local.stack.config.jwtSecret));
    const { error } = await fan.storage.from("tracks").upload(`${claims.sub}/song.mp3`, Buffer.from(audio), { contentType: "audio/mpeg" });
    expect(error).toMatchObject({ statusCode: "403" });
  });

  it("refuses a write it would not allow before reading the body, and a body past the limit as it arrives", async () => {
    // An endless body: only refusing it unread ends the request.
    const endless = () =>
      new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(1024 * 1024));
        },
      });
    const send = (token: string, path: string, body: ReadableStream | Uint8Array, length?: number) =>
      fetch(`${local.url}/storage/v1/object/${path}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          apikey: local.anonKey,
          "content-type": "audio/mpeg",
          ...(length === undefined ? {} : { "content-length": String(length) }),
        },
        body,
        duplex: "half",
      } as RequestInit);

    // Storage answers its refusals with a status code in the body, as Supabase's does.
    const refusal = async (response: Promise<Response>) => ((await (await response).json()) as { statusCode: string }).statusCode;
    expect(await refusal(send(local.anonKey, `tracks/${artist.id}/anonymous.mp3`, endless()))).toBe("403");
    expect(await refusal(send(otherArtist.token, `tracks/${artist.id}/not-theirs.mp3`, endless()))).toBe("403");
    // an allowed writer's body stops being read at the bucket's limit
    expect(await refusal(send(artist.token, `tracks/${artist.id}/endless.mp3`, endless()))).toBe("413");
    const { data } = await artist.client.storage.from("tracks").list(artist.id, { search: "endless" });
    expect(data).toEqual([]);
  });

  it("refuses a body that is not an upload past 10 MB unread", async () => {
    const response = await fetch(`${local.url}/rest/v1/rpc/anything`, {
      method: "POST",
      headers: { apikey: local.anonKey, "content-type": "application/json", "content-length": String(300 * 1024 * 1024) },
      body: new ReadableStream({
        pull(controller) {
          controller.enqueue(new Uint8Array(1024 * 1024));
        },
      }),
      duplex: "half",
    } as RequestInit).catch((error: unknown) => error);
    // The server answers 413 and closes: fetch sees the answer, or the connection closing under it.
    if (response instanceof Response) expect(response.status).toBe(413);
    else expect(response).toBeInstanceOf(Error);
  });

  it("refuses writes into another user's folder, and visitors' writes", async () => {
    const intruder = await otherArtist.client.storage
      .from("tracks")
      .upload(`${artist.id}/intruder.mp3`, Buffer.from("x"), { contentType: "audio/mpeg" });
    expect(intruder.error).toMatchObject({ statusCode: "403", message: "new row violates row-level security policy" });

    const anonymous = await visitor.storage.from("artwork").upload(`${artist.id}/anon.png`, Buffer.from("x"), { contentType: "image/png" });
    expect(anonymous.error).toMatchObject({ statusCode: "403" });
  });
});

describe("download", () => {
  const path = () => `${artist.id}/song.mp3`;

  beforeAll(async () => {
    await artist.client.storage.from("tracks").upload(path(), Buffer.from(audio), { contentType: "audio/mpeg" });
  });

  it("lets only the owner download a private track directly", async () => {
    const own = await artist.client.storage.from("tracks").download(path());
    expect(new Uint8Array(await own.data!.arrayBuffer())).toEqual(audio);

    const other = await otherArtist.client.storage.from("tracks").download(path());
    expect(other.error).toMatchObject({ status: 400, statusCode: "404" });
    const anonymous = await visitor.storage.from("tracks").download(path());
    expect(anonymous.error).toMatchObject({ statusCode: "404" });
  });

  it("serves public artwork to visitors, but never a private bucket through the public route", async () => {
    const coverPath = `${artist.id}/public.png`;
    await artist.client.storage.from("artwork").upload(coverPath, Buffer.from("png"), { contentType: "image/png" });
    const { publicUrl } = visitor.storage.from("artwork").getPublicUrl(coverPath).data;
    const cover = await fetch(publicUrl);
    expect(cover.status).toBe(200);
    expect(await cover.text()).toBe("png");
    // opened on its own, a stored file is never sniffed into a page, and runs nothing
    expect(cover.headers.get("x-content-type-options")).toBe("nosniff");
    expect(cover.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");

    const track = await fetch(visitor.storage.from("tracks").getPublicUrl(path()).data.publicUrl);
    expect(track.status).toBe(400);
    expect(await track.json()).toMatchObject({ statusCode: "404", code: "NoSuchBucket" });
  });

  it("signs a URL the owner may read, that a visitor can then use until it expires", async () => {
    const { data, error } = await artist.client.storage.from("tracks").createSignedUrl(path(), 60);
    expect(error).toBeNull();
    const signed = await fetch(data!.signedUrl);
    expect(signed.status).toBe(200);
    expect(signed.headers.get("expires")).toBeTruthy();
    expect(new Uint8Array(await signed.arrayBuffer())).toEqual(audio);

    const expired = signJwt({ url: `tracks/${path()}`, iat: 1, exp: 2 }, local.stack.config.jwtSecret);
    const late = await fetch(`${local.url}/storage/v1/object/sign/tracks/${path()}?token=${expired}`);
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ statusCode: "400", code: "InvalidJWT", message: "jwt expired" });

    const forged = signJwt({ url: `tracks/${path()}`, exp: 4102444800 }, "not-the-project-secret-at-least-32-chars");
    expect((await fetch(`${local.url}/storage/v1/object/sign/tracks/${path()}?token=${forged}`)).status).toBe(400);

    const elsewhere = data!.signedUrl.replace("song.mp3", "other.mp3");
    expect(await (await fetch(elsewhere)).json()).toMatchObject({ code: "InvalidSignature" });
  });

  it("signs nothing the caller may not read", async () => {
    const single = await otherArtist.client.storage.from("tracks").createSignedUrl(path(), 60);
    expect(single.error).toMatchObject({ statusCode: "404", message: "Object not found" });
  });

  it("answers byte ranges with 206 and exactly those bytes", async () => {
    const { data } = await artist.client.storage.from("tracks").createSignedUrl(path(), 60);
    const ranged = async (range: string) => fetch(data!.signedUrl, { headers: { Range: range } });

    const middle = await ranged("bytes=100-199");
    expect(middle.status).toBe(206);
    expect(middle.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(middle.headers.get("content-length")).toBe("100");
    expect(middle.headers.get("content-type")).toBe("audio/mpeg");
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(audio.slice(100, 200));

    const tail = await ranged("bytes=990-");
    expect(tail.headers.get("content-range")).toBe("bytes 990-999/1000");
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(audio.slice(990));

    const suffix = await ranged("bytes=-10");
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(audio.slice(990));

    const beyond = await ranged("bytes=5000-");
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe("bytes */1000");
  });

  it("offers the file as an attachment when asked", async () => {
    const { data } = await artist.client.storage.from("tracks").createSignedUrl(path(), 60, { download: "My Song.mp3" });
    const response = await fetch(data!.signedUrl);
    expect(response.headers.get("content-disposition")).toContain("attachment; filename=My%20Song.mp3");
  });
});

describe("list and remove", () => {
  it("lists the caller's folder, with sub-folders first", async () => {
    const bucket = artist.client.storage.from("artwork");
    for (const name of ["b.png", "a.png", "albums/one.png"]) {
      await bucket.upload(`${artist.id}/listing/${name}`, Buffer.from(name), { contentType: "image/png" });
    }
    const { data, error } = await bucket.list(`${artist.id}/listing`);
    expect(error).toBeNull();
    expect(data!.map((entry) => entry.name)).toEqual(["albums", "a.png", "b.png"]);
    expect(data![0]).toMatchObject({ id: null, metadata: null });
    expect(data![1].metadata).toMatchObject({ size: 5, mimetype: "image/png" });

    const root = await bucket.list();
    expect(root.data!.map((entry) => entry.name)).toEqual([artist.id]);
    expect((await otherArtist.client.storage.from("artwork").list(`${artist.id}/listing`)).data).toEqual([]);
  });

  it("removes only what the caller owns", async () => {
    const path = `${artist.id}/remove-me.png`;
    await artist.client.storage.from("artwork").upload(path, Buffer.from("x"), { contentType: "image/png" });

    const refused = await otherArtist.client.storage.from("artwork").remove([path]);
    expect(refused.data).toEqual([]);
    expect((await visitor.storage.from("artwork").exists(path)).data).toBe(true);

    const removed = await artist.client.storage.from("artwork").remove([path]);
    expect(removed.data).toEqual([expect.objectContaining({ name: path, bucket_id: "artwork" })]);
    expect((await fetch(visitor.storage.from("artwork").getPublicUrl(path).data.publicUrl)).status).toBe(400);
  });
});

describe("signed uploads", () => {
  it("lets the bearer of a signed upload URL write that one object, owned by whoever signed it", async () => {
    const service = clientWith(local.serviceRoleKey);
    const path = `${artist.id}/renditions/signed.mp3`;
    const { data: signed, error } = await service.storage.from("tracks").createSignedUploadUrl(path, { upsert: true });
    expect(error).toBeNull();
    for (const bytes of [Buffer.from("first"), Buffer.from(audio)]) {
      const written = await visitor.storage.from("tracks").uploadToSignedUrl(path, signed!.token, bytes, { contentType: "audio/mpeg" });
      expect(written.error).toBeNull();
    }
    const { data } = await artist.client.storage.from("tracks").download(path);
    expect(new Uint8Array(await data!.arrayBuffer())).toEqual(audio);

    // The token names its object, and is no download token (nor is a download token an upload token).
    const elsewhere = await visitor.storage.from("tracks").uploadToSignedUrl(`${artist.id}/other.mp3`, signed!.token, Buffer.from("x"));
    expect(elsewhere.error).toMatchObject({ message: "Invalid signature" });
    expect((await fetch(`${local.url}/storage/v1/object/sign/tracks/${path}?token=${signed!.token}`)).status).toBe(400);
    const { data: download } = await artist.client.storage.from("tracks").createSignedUrl(path, 60);
    const downloadToken = new URL(download!.signedUrl).searchParams.get("token")!;
    const overwrite = await visitor.storage.from("tracks").uploadToSignedUrl(path, downloadToken, Buffer.from("x"));
    expect(overwrite.error).toMatchObject({ message: "Invalid signature" });
  });

  it("signs no upload the signer may not write", async () => {
    const { error } = await otherArtist.client.storage.from("tracks").createSignedUploadUrl(`${artist.id}/renditions/theirs.mp3`);
    expect(error).not.toBeNull();
  });
});

describe("what the product never calls", () => {
  it("is refused as not supported by the local stack: buckets, update, signing many, move", async () => {
    const admin = clientWith(local.serviceRoleKey);
    const path = `${artist.id}/unsupported.png`;
    const bucket = artist.client.storage.from("artwork");
    await bucket.upload(path, Buffer.from("old"), { contentType: "image/png" });
    const refusals = [
      await admin.storage.listBuckets(),
      await admin.storage.createBucket("scratch"),
      await bucket.update(path, Buffer.from("new"), { contentType: "image/png" }),
      await bucket.createSignedUrls([path], 60),
      await bucket.move(path, `${artist.id}/moved.png`),
    ];
    for (const { error } of refusals) expect(error?.message).toMatch(/ is not supported by the local stack$/);
    expect(await (await fetch(bucket.getPublicUrl(path).data.publicUrl)).text()).toBe("old");
  });
});

describe("on disk", () => {
  it("keeps the bytes under <dataDir>/storage/<bucket>/<name>, ranged and removed with the object", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "storage-test-"));
    const onDisk = await startLocalStack({ port: 0, dataDir, seed: false, seedMedia: false });
    try {
      const admin = createClient(onDisk.url, onDisk.serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      const bucket = admin.storage.from("tracks");
      expect((await bucket.upload("demo/song.mp3", Buffer.from(audio), { contentType: "audio/mpeg" })).error).toBeNull();
      const file = join(dataDir, "storage", "tracks", "demo", "song.mp3");
      expect(new Uint8Array(readFileSync(file))).toEqual(audio);

      const { data } = await bucket.createSignedUrl("demo/song.mp3", 60);
      const middle = await fetch(data!.signedUrl, { headers: { Range: "bytes=500-503" } });
      expect(middle.status).toBe(206);
      expect(new Uint8Array(await middle.arrayBuffer())).toEqual(audio.slice(500, 504));

      await bucket.remove(["demo/song.mp3"]);
      expect(existsSync(file)).toBe(false);
    } finally {
      await onDisk.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
