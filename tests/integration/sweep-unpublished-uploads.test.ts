// The sweep of files the upload form stored ahead of publishing and no release used (the
// sweep-unpublished-uploads Edge Function, run by Deno, over public.unpublished_uploads()): only the
// service role may run it, and it removes only audio (masters and streams) and artwork renditions older than a day that no
// track or merch item names, never a published file, a recent upload or a Media Manager image; and any
// recent file whose first bytes are not the type declared for it.
import { createClient, type FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopFunctions, signJwt, startTestStack } from "@crate/local-supabase/testing";
import type { LocalStack } from "@crate/local-supabase";
import { tinyPng, toneWav } from "../support/media.ts";
import { createArtist, createTrack } from "./schema-fixtures.ts";

let local: LocalStack;
let service: SupabaseClient;
let artistId: string;
let artist: SupabaseClient;

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  service = createClient(local.url, local.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const created = await createArtist(local.stack.db, "Sweep Artist");
  artistId = created.id;
  const { session_id: _session, ...claims } = created.claims;
  artist = createClient(local.url, local.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${signJwt(claims, local.stack.config.jwtSecret)}` } },
  });
});

afterAll(async () => {
  if (local) await stopFunctions(local.stack);
  await local?.close();
});

/**
 * An object in the artist's folder, stored `hoursAgo` hours ago: a real WAV or PNG unless `bytes` and
 * `contentType` say otherwise (a file sent straight to Storage may be anything its bucket allows).
 */
async function stored(bucket: string, name: string, hoursAgo: number, bytes?: Uint8Array, contentType?: string) {
  const path = `${artistId}/${name}`;
  const { error } = await service.storage.from(bucket).upload(path, bytes ?? (bucket === "tracks" ? toneWav(0.1) : tinyPng), {
    contentType: contentType ?? (bucket === "tracks" ? "audio/wav" : "image/png"),
  });
  expect(error).toBeNull();
  await local.stack.db.query(
    "update storage.objects set created_at = now() - make_interval(hours => $3) where bucket_id = $1 and name = $2",
    [bucket, path, hoursAgo],
  );
  return path;
}

/** An MPEG audio frame header (and silence), as a stream begins. */
const mp3Frame = Uint8Array.from([0xff, 0xfb, 0x90, 0x64, ...new Array(413).fill(0)]);

async function exists(bucket: string, path: string) {
  const { data } = await service.storage.from(bucket).exists(path);
  return data;
}

async function sweep(client: SupabaseClient) {
  const { data, error } = await client.functions.invoke("sweep-unpublished-uploads", { body: {} });
  if (!error) return { status: 200, body: data };
  return { status: ((error as FunctionsHttpError).context as Response).status, body: null };
}

describe("sweeping unpublished uploads", () => {
  it("removes day-old audio and renditions no release names, and nothing else", async () => {
    const abandonedAudio = await stored("tracks", "1700000000000-aaaaaaaa.wav", 30);
    const abandonedSmall = await stored("artwork", "small/1700000000000-aaaaaaaa.webp", 30);
    const recentAudio = await stored("tracks", "1700000000000-bbbbbbbb.wav", 2);
    const publishedAudio = await stored("tracks", "1700000000000-cccccccc.wav", 48);
    const publishedSmall = await stored("artwork", "small/1700000000000-cccccccc.webp", 48);
    const mediaImage = await stored("artwork", "1700000000000-dddddddd.png", 48);
    // A track's stream, and one made for a master the track no longer has (it was replaced).
    const stream = await stored("tracks", "renditions/1700000000000-cccccccc.128k.mp3", 48, mp3Frame, "audio/mpeg");
    const staleStream = await stored("tracks", "renditions/1600000000000-eeeeeeee.128k.mp3", 30, mp3Frame, "audio/mpeg");
    const trackId = await createTrack(local.stack.db, artistId);
    const smallUrl = service.storage.from("artwork").getPublicUrl(publishedSmall).data.publicUrl;
    await local.stack.db.query("update public.tracks set file_url = $2, artwork_small_url = $3 where id = $1", [
      trackId,
      publishedAudio,
      smallUrl,
    ]);
    // Named once made (a new master clears the stream, so after the master, as the queue does).
    await local.stack.db.query("update private.made_files set path = $2, state = 'ready' where track_id = $1 and format = 'stream'", [
      trackId,
      stream,
    ]);
    // A download file made for a buyer, named as ready.
    const downloadFile = await stored("tracks", "renditions/1700000000000-cccccccc.320k.mp3", 48, mp3Frame, "audio/mpeg");
    await local.stack.db.query(
      "insert into private.made_files (track_id, format, master_path, path, state) values ($1, 'mp3', $2, $3, 'ready')",
      [trackId, publishedAudio, downloadFile],
    );

    for (const caller of [artist, createClient(local.url, local.anonKey, { auth: { persistSession: false } })]) {
      expect((await sweep(caller)).status).toBe(401);
      expect((await caller.rpc("unpublished_uploads")).error).toMatchObject({ code: "42501" });
    }
    expect(await exists("tracks", abandonedAudio)).toBe(true);

    expect(await sweep(service)).toEqual({ status: 200, body: { removed: 3, disguised: 0 } });
    expect(await exists("tracks", abandonedAudio)).toBe(false);
    expect(await exists("artwork", abandonedSmall)).toBe(false);
    expect(await exists("tracks", staleStream)).toBe(false);
    for (const [bucket, kept] of [
      ["tracks", recentAudio],
      ["tracks", stream],
      ["tracks", downloadFile],
      ["tracks", publishedAudio],
      ["artwork", publishedSmall],
      ["artwork", mediaImage],
    ] as const) {
      expect(await exists(bucket, kept), kept).toBe(true);
    }
  });

  it("removes recent files whose bytes are not the type declared for them, wherever they are named", async () => {
    const page = new TextEncoder().encode("<!doctype html><script>alert(document.cookie)</script>");
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const pageAsAudio = await stored("tracks", "1700000000000-eeeeeeee.mp3", 1, page, "audio/mpeg");
    const svgAsPng = await stored("artwork", "1700000000000-ffffffff.png", 1, svg, "image/png");
    const genuineAudio = await stored("tracks", "1700000000000-99999999.wav", 1);
    const genuineImage = await stored("artwork", "1700000000000-88888888.png", 1);
    // A download file the marketplace made (FLAC), and a page sent to Storage as one.
    const flac = Uint8Array.from([...new TextEncoder().encode("fLaC"), 0x80, 0, 0, 34, ...new Array(34).fill(0)]);
    const genuineFlac = await stored("tracks", "renditions/1700000000000-99999999.flac", 1, flac, "audio/flac");
    const pageAsFlac = await stored("tracks", "renditions/1700000000000-77777777.flac", 1, page, "audio/flac");
    // named by a row (written by the operator, not through the API, which would refuse it)
    const trackId = await createTrack(local.stack.db, artistId);
    await local.stack.db.query("update public.tracks set file_url = $2 where id = $1", [trackId, pageAsAudio]);

    expect(await sweep(service)).toEqual({ status: 200, body: { removed: 3, disguised: 3 } });
    expect(await exists("tracks", pageAsAudio)).toBe(false);
    expect(await exists("tracks", pageAsFlac)).toBe(false);
    expect(await exists("tracks", genuineFlac)).toBe(true);
    expect(await exists("artwork", svgAsPng)).toBe(false);
    expect(await exists("tracks", genuineAudio)).toBe(true);
    expect(await exists("artwork", genuineImage)).toBe(true);
  });
});
