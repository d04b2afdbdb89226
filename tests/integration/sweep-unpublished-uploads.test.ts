// The sweep of files the upload form stored ahead of publishing and no release used (the
// sweep-unpublished-uploads Edge Function, run by Deno, over public.unpublished_uploads()): only the
// service role may run it, and it removes only audio and artwork renditions older than a day that no
// track or merch item names, never a published file, a recent upload or a Media Manager image.
import { createClient, type FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopFunctions } from "../../supabase/local/functions.ts";
import { signJwt } from "../../supabase/local/jwt.ts";
import type { LocalStack } from "../../supabase/local/server.ts";
import { startTestStack } from "../../supabase/local/testing.ts";
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

/** An object in the artist's folder, stored `hoursAgo` hours ago. */
async function stored(bucket: string, name: string, hoursAgo: number) {
  const path = `${artistId}/${name}`;
  const { error } = await service.storage
    .from(bucket)
    .upload(path, new Uint8Array([1, 2, 3]), { contentType: bucket === "tracks" ? "audio/wav" : "image/png" });
  expect(error).toBeNull();
  await local.stack.db.query(
    "update storage.objects set created_at = now() - make_interval(hours => $3) where bucket_id = $1 and name = $2",
    [bucket, path, hoursAgo],
  );
  return path;
}

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
    const trackId = await createTrack(local.stack.db, artistId);
    const smallUrl = service.storage.from("artwork").getPublicUrl(publishedSmall).data.publicUrl;
    await local.stack.db.query("update public.tracks set file_url = $2, artwork_small_url = $3 where id = $1", [
      trackId,
      publishedAudio,
      smallUrl,
    ]);

    for (const caller of [artist, createClient(local.url, local.anonKey, { auth: { persistSession: false } })]) {
      expect((await sweep(caller)).status).toBe(401);
      expect((await caller.rpc("unpublished_uploads")).error).toMatchObject({ code: "42501" });
    }
    expect(await exists("tracks", abandonedAudio)).toBe(true);

    expect(await sweep(service)).toEqual({ status: 200, body: { removed: 2 } });
    expect(await exists("tracks", abandonedAudio)).toBe(false);
    expect(await exists("artwork", abandonedSmall)).toBe(false);
    for (const [bucket, kept] of [
      ["tracks", recentAudio],
      ["tracks", publishedAudio],
      ["artwork", publishedSmall],
      ["artwork", mediaImage],
    ] as const) {
      expect(await exists(bucket, kept), kept).toBe(true);
    }
  });
});
