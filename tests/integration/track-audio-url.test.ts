// The track-audio-url Edge Function (supabase/functions/track-audio-url), run by Deno and called through
// the real supabase-js as a visitor, the track's artist and another user: a signed URL only for a track
// the caller may play, of its streaming rendition (the master only ever to its artist), and each failure
// as its own code.
import { createClient, FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stopFunctions, startTestStack } from "@crate/local-supabase/testing";
import type { LocalStack } from "@crate/local-supabase";
import { clientWith, createArtist, createFan, createTrack, signedInClient, tomorrow } from "./schema-fixtures.ts";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";

let local: LocalStack;
let service: SupabaseClient;
let visitor: SupabaseClient;
let artist: { id: string; client: SupabaseClient };
let fan: { id: string; client: SupabaseClient };

const audio = new Uint8Array(Array.from({ length: 4096 }, (_, i) => i % 256));

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  service = createClient(local.url, local.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  visitor = clientWith(local, local.anonKey);
  artist = await signedInClient(local, createArtist(local.stack.db, "Signal Artist"));
  fan = await signedInClient(local, createFan(local.stack.db, "signal_fan"));
});

afterAll(async () => {
  if (local) await stopFunctions(local.stack);
  await local?.close();
});

/**
 * A track of the artist whose master is really stored, and (unless `rendition: false`) its streaming
 * rendition, named as the media queue names it.
 */
async function trackWithAudio({ rendition = true, ...fields }: { release_date?: string; rendition?: boolean } = {}) {
  const id = await createTrack(local.stack.db, artist.id, fields);
  const path = `${artist.id}/${id}.wav`;
  const { error } = await service.storage.from("tracks").upload(path, audio, { contentType: "audio/wav" });
  expect(error).toBeNull();
  await local.stack.db.query("update public.tracks set file_url = $2 where id = $1", [id, path]);
  if (rendition) {
    const stream = renditionOf(id);
    expect((await service.storage.from("tracks").upload(stream, audio.subarray(0, 1000), { contentType: "audio/mpeg" })).error).toBeNull();
    await local.stack.db.query("update private.made_files set path = $2, state = 'ready' where track_id = $1 and format = 'stream'", [
      id,
      stream,
    ]);
  }
  return id;
}

const renditionOf = (trackId: string) => `${artist.id}/renditions/${trackId}.128k.mp3`;

async function audioUrl(client: SupabaseClient, body: unknown) {
  const { data, error } = await client.functions.invoke("track-audio-url", { body: body as Record<string, unknown> });
  if (!error) return { status: 200, body: data };
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const response = (error as FunctionsHttpError).context as Response;
  return { status: response.status, body: await response.json() };
}

describe("track-audio-url", () => {
  it("gives a visitor a signed URL for a released track, valid 3600 s, that streams with HTTP Range", async () => {
    const trackId = await trackWithAudio();
    const { status, body } = await audioUrl(visitor, { trackId });
    expect(status).toBe(200);
    expect(body.expiresIn).toBe(3600);
    expect(body.signedUrl).toMatch(new RegExp(`^${local.url}/storage/v1/object/sign/tracks/${renditionOf(trackId)}\\?token=`));

    const token = new URL(body.signedUrl).searchParams.get("token")!;
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString());
    expect(claims.exp - claims.iat).toBe(3600);

    const part = await fetch(body.signedUrl, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 100-199/1000");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(audio.subarray(100, 200));
  });

  it("signs the master for no listener: its artist alone hears it while the stream is prepared", async () => {
    const trackId = await trackWithAudio({ rendition: false });
    const master = await audioUrl(artist.client, { trackId });
    expect(master.status).toBe(200);
    expect(master.body.signedUrl).toContain(`${trackId}.wav?token=`);
    for (const client of [visitor, fan.client]) {
      expect(await audioUrl(client, { trackId })).toEqual({ status: 409, body: { code: "audio_preparing" } });
    }
    // A stream that could not be made: its artist still hears the master; listeners are told it is unavailable.
    await local.stack.db.query(
      "update private.made_files set state = 'failed', failure = 'broken' where track_id = $1 and format = 'stream'",
      [trackId],
    );
    expect((await audioUrl(artist.client, { trackId })).status).toBe(200);
    expect(await audioUrl(visitor, { trackId })).toEqual({ status: 503, body: { code: "audio_unavailable" } });

    // Once the rendition is made, its artist streams it too: the master is never what plays.
    const ready = await trackWithAudio();
    for (const client of [visitor, fan.client, artist.client]) {
      const { body } = await audioUrl(client, { trackId: ready });
      expect(body.signedUrl).toContain(`${renditionOf(ready)}?token=`);
      expect(body.signedUrl).not.toContain(".wav");
    }
  });

  it("gives signed-in listeners a URL too", async () => {
    const trackId = await trackWithAudio();
    const { status, body } = await audioUrl(fan.client, { trackId });
    expect(status).toBe(200);
    expect(body.signedUrl).toContain(trackId);
  });

  it("signs an unreleased track only for its own artist", async () => {
    const trackId = await trackWithAudio({ release_date: tomorrow() });
    expect((await audioUrl(artist.client, { trackId })).status).toBe(200);
    expect(await audioUrl(fan.client, { trackId })).toEqual({ status: 404, body: { code: "track_not_found" } });
    expect(await audioUrl(visitor, { trackId })).toEqual({ status: 404, body: { code: "track_not_found" } });
  });

  it("answers track_not_found for a track that does not exist", async () => {
    expect(await audioUrl(visitor, { trackId: crypto.randomUUID() })).toEqual({ status: 404, body: { code: "track_not_found" } });
  });

  it("answers no_audio_file when the track has no audio file", async () => {
    const trackId = await createTrack(local.stack.db, artist.id);
    await local.stack.db.query("update public.tracks set file_url = null where id = $1", [trackId]);
    expect(await audioUrl(visitor, { trackId })).toEqual({ status: 404, body: { code: "no_audio_file" } });
    await local.stack.db.query(`update public.tracks set file_url = '' where id = $1`, [trackId]);
    expect(await audioUrl(visitor, { trackId })).toEqual({ status: 404, body: { code: "no_audio_file" } });
  });

  it("gives no signed URL when the stored object is gone (audio_file_missing)", async () => {
    // The fixture's file_url names an object that was never uploaded (the artist streams the master).
    const trackId = await createTrack(local.stack.db, artist.id);
    expect(await audioUrl(artist.client, { trackId })).toEqual({ status: 404, body: { code: "audio_file_missing" } });

    const removed = await trackWithAudio();
    await service.storage.from("tracks").remove([renditionOf(removed)]);
    expect(await audioUrl(fan.client, { trackId: removed })).toEqual({ status: 404, body: { code: "audio_file_missing" } });
  });

  it("refuses a request without a track id", async () => {
    expect(await audioUrl(visitor, {})).toEqual({ status: 400, body: { code: "invalid_request" } });
    expect(await audioUrl(visitor, { trackId: "not-a-uuid" })).toEqual({ status: 400, body: { code: "invalid_request" } });
  });

  describe("another artist's audio", () => {
    // Artist A's unreleased audio, and artist B trying to publish a track that names it, even as the
    // marketplace's Worker sends it (with its secret, without which no row names a file at all).
    let pathOfA: string;
    let artistB: { id: string; client: SupabaseClient };

    beforeAll(async () => {
      const trackOfA = await trackWithAudio({ release_date: tomorrow() });
      pathOfA = `${artist.id}/${trackOfA}.wav`;
      const workerSecret = "track-audio-url-test-worker-secret-0123456789";
      await local.stack.db.query("select private.trust_marketplace_secret($1)", [workerSecret]);
      artistB = await signedInClient(local, createArtist(local.stack.db, "Borrowing Artist"), { [marketplaceSecretHeader]: workerSecret });
    });

    const releasedTrackOfB = (fileUrl: string) => ({
      artist_id: artistB.id,
      title: "Borrowed",
      genre: "Rock",
      price: 0.99,
      description: "Not mine",
      file_url: fileUrl,
    });

    it("cannot be named by another artist's track, so it is never signed for them", async () => {
      for (const fileUrl of [pathOfA, `${artistB.id}/../${pathOfA}`]) {
        const { data, error } = await artistB.client.from("tracks").insert(releasedTrackOfB(fileUrl)).select("id");
        expect(error?.code).toBe("23514");
        expect(data).toBeNull();
      }
      const { data: own } = await artistB.client
        .from("tracks")
        .insert(releasedTrackOfB(`${artistB.id}/mine.wav`))
        .select("id")
        .single();
      const { error } = await artistB.client.from("tracks").update({ file_url: pathOfA }).eq("id", own!.id);
      expect(error?.code).toBe("23514");
    });

    it("is not signed even for a row that names it (written before the rule, or past it)", async () => {
      const db = local.stack.db;
      const rule = (
        await db.query<{ definition: string }>(
          `select pg_get_constraintdef(oid) as definition from pg_constraint where conname = 'tracks_file_url_owned'`,
        )
      ).rows[0]!.definition;
      await db.query("alter table public.tracks drop constraint tracks_file_url_owned");
      const { rows } = await db.query<{ id: string }>(
        `insert into public.tracks (artist_id, title, genre, price, description, file_url)
         values ($1, 'Borrowed', 'Rock', 0.99, 'Not mine', $2) returning id`,
        [artistB.id, pathOfA],
      );
      try {
        // Its "artist" would be handed the master: refused. Listeners wait for a stream never made of it.
        expect(await audioUrl(artistB.client, { trackId: rows[0]!.id })).toEqual({ status: 404, body: { code: "audio_file_missing" } });
        for (const client of [visitor, fan.client]) {
          expect(await audioUrl(client, { trackId: rows[0]!.id })).toEqual({ status: 409, body: { code: "audio_preparing" } });
        }
      } finally {
        // The row goes before the rule comes back, or restoring the rule would fail on it.
        await db.query("delete from public.tracks where id = $1", [rows[0]!.id]);
        await db.query(`alter table public.tracks add constraint tracks_file_url_owned ${rule}`);
      }
    });
  });

  it("is the only way in: listeners cannot read or sign the audio object themselves", async () => {
    const trackId = await trackWithAudio();
    const path = `${artist.id}/${trackId}.wav`;
    for (const client of [visitor, fan.client]) {
      expect((await client.storage.from("tracks").download(path)).error).not.toBeNull();
      expect((await client.storage.from("tracks").createSignedUrl(path, 3600)).data).toBeNull();
    }
  });
});
