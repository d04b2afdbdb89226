import { randomBytes } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import type { Stack } from "./context.ts";
import { renderArtwork } from "./media/artwork.ts";
import { composeTrack, encodeWav, sampleRate } from "./media/audio.ts";
import { cachedMedia } from "./media/cache.ts";
import { peakCount, waveformPeaks } from "../functions/_shared/waveform.ts";

// The seed's audio, cover art and profile pictures, generated rather than committed (the repository
// stays small) and uploaded through the Storage API exactly as the app's upload form stores files, so
// playback, signed URLs and the media manager work on the demo data as on real uploads. Runs once,
// right after supabase/seed.sql filled an empty database; it only fills rows still missing their media.

// Every picture is 400 px square, the spec's recommended minimum for artwork: no page shows one
// larger than 288 px, and it weighs about a third less than 512 px, which the home page's
// dozens of covers feel on a mobile connection. Its size is stored beside it, as the Worker stores an
// upload's (read from its bytes), for link previews and oEmbed.
const pictureSize = 400;

const text = new TextEncoder();

type Track = { id: string; artist_id: string; genre: string; release: string };
type Picture = { id: string; genre: string | null };

export async function seedMedia(stack: Stack, baseUrl: string): Promise<void> {
  const { db } = stack;
  const storage = createClient(baseUrl, stack.config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
  }).storage;

  // Same path scheme as the app's uploads: {owner id}/{timestamp}-{random}.{ext}
  async function upload(bucket: "tracks" | "artwork", owner: string, bytes: Uint8Array, type: string) {
    const path = `${owner}/${Date.now()}-${randomBytes(4).toString("hex")}.${type.split("/")[1]}`;
    const { error } = await storage.from(bucket).upload(path, bytes, { contentType: type, cacheControl: "3600" });
    if (error) throw new Error(`seed media: uploading ${bucket}/${path} failed: ${error.message}`);
    return path;
  }
  // Stored as the absolute URL the app itself stores for artwork (getPublicUrl of the stack's public
  // base), so it is only valid on that base: the CLI always serves the data dir on the same port.
  async function picture(owner: string, seed: string, genre: string | null) {
    const jpeg = cachedMedia(`artwork ${seed} ${genre ?? ""} ${pictureSize}`, () => renderArtwork(seed, genre ?? "", pictureSize));
    const path = await upload("artwork", owner, jpeg, "image/jpeg");
    return storage.from("artwork").getPublicUrl(path).data.publicUrl;
  }

  // One cover per release: an album's tracks share theirs.
  const tracks = await db.query<Track>(
    `select id, artist_id, genre, release_id::text as release
     from public.tracks where file_url is null or artwork_url is null or peaks is null
     order by artist_id, release, track_number`,
  );
  const covers = new Map<string, string>();
  for (const track of tracks.rows) {
    let cover = covers.get(track.release);
    if (!cover) {
      cover = await picture(track.artist_id, track.release, track.genre);
      covers.set(track.release, cover);
    }
    // Composed only when the cache has not got it: its WAV, and its waveform and length beside it.
    const made = `track ${track.id} ${track.genre}`;
    let composed: Float32Array | undefined;
    const samples = () => (composed ??= composeTrack(track.id, track.genre).samples);
    const wav = cachedMedia(made, () => encodeWav(samples()));
    const facts = cachedMedia(`${made} waveform`, () =>
      text.encode(JSON.stringify({ peaks: waveformPeaks(samples(), peakCount), seconds: (samples().length / sampleRate).toFixed(2) })),
    );
    const { peaks, seconds } = JSON.parse(new TextDecoder().decode(facts)) as { peaks: number[]; seconds: string };
    const file = await upload("tracks", track.artist_id, wav, "audio/wav");
    await db.query(
      `update public.tracks set file_url = $2, artwork_url = $3, artwork_width = $6, artwork_height = $6, peaks = $4::jsonb,
         duration_seconds = $5
       where id = $1`,
      [track.id, file, cover, JSON.stringify(peaks), seconds, pictureSize],
    );
    // What its stream's job would learn of the master (a WAV at the demo's rate), known here already.
    await db.query(`update public.tracks set mp3_kbps = private.download_mp3_kbps(true, null, null, $2) where id = $1`, [
      track.id,
      sampleRate,
    ]);
  }

  const artists = await db.query<Picture>(`select id, genres[1] as genre from public.artist_profiles where profile_image_url is null`);
  for (const artist of artists.rows) {
    const url = await picture(artist.id, `artist ${artist.id}`, artist.genre);
    await db.query(
      "update public.artist_profiles set profile_image_url = $2, profile_image_width = $3, profile_image_height = $3 where id = $1",
      [artist.id, url, pictureSize],
    );
  }

  // Only the six longest-standing fans have a picture, so the fallback avatar shows too.
  const fans = await db.query<Picture>(
    `select id, genre from (
       select id, favorite_genres[1] as genre, profile_image_url, row_number() over (order by created_at) as n
       from public.fan_profiles) fan
     where n <= 6 and profile_image_url is null`,
  );
  for (const fan of fans.rows) {
    const url = await picture(fan.id, `fan ${fan.id}`, fan.genre);
    await db.query(
      "update public.fan_profiles set profile_image_url = $2, profile_image_width = $3, profile_image_height = $3 where id = $1",
      [fan.id, url, pictureSize],
    );
  }

  const merch = await db.query<Picture & { artist_id: string }>(
    `select m.id, m.artist_id, a.genres[1] as genre from public.merch m
     join public.artist_profiles a on a.id = m.artist_id where m.image_url is null`,
  );
  for (const item of merch.rows) {
    const url = await picture(item.artist_id, `merch ${item.id}`, item.genre);
    await db.query("update public.merch set image_url = $2 where id = $1", [item.id, url]);
  }
}
