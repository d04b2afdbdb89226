// The rendition queue's consumer: the production build of the media Worker alone (not the site) run by
// Miniflare (workerd) with its queues, driven through Miniflare's API (a message sent to a RENDITIONS
// producer, as the page Worker's publishing sends it), against a local stack with the made-files
// Edge Function. Each rendition is checked by
// decoding its frames (mpg123), never by its name.
import { convertV4MiniflareOptions, Miniflare, type V4ModuleDefinition } from "miniflare";
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { MPEGDecoder } from "mpg123-decoder";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestStack, stopFunctions } from "@crate/local-supabase/testing";
import type { LocalStack } from "@crate/local-supabase";
import { buildIfStale, root } from "../../scripts/lib/app-server.ts";
import { createArtist, createTrack, signedInClient } from "./schema-fixtures.ts";
import { marketplaceSecretHeader } from "../../app/lib/http/backend-env.ts";
import { encodeTestWav } from "../support/media.ts";
import { createEncoder } from "wasm-media-encoders";

const secret = "rendition-queue-test-marketplace-secret-0123456789";
const queueName = "marketplace-renditions";
const deadLetterQueue = "marketplace-renditions-failed";

const mediaBuild = join(root, "build", "media");

/** The built media Worker's JavaScript and WebAssembly modules, by path. */
function builtModules(): V4ModuleDefinition[] {
  const files = ["index.js", ...readdirSync(join(mediaBuild, "assets")).map((name) => join("assets", name))];
  return files.flatMap((file): V4ModuleDefinition[] => {
    const path = join(mediaBuild, file);
    if (file.endsWith(".js")) return [{ type: "ESModule", path }];
    if (file.endsWith(".wasm")) return [{ type: "CompiledWasm", path }];
    return [];
  });
}

let local: LocalStack;
const workerLog: string[] = [];
let service: SupabaseClient;
let miniflare: Miniflare;
let artist: { id: string; client: SupabaseClient };
let renditions: Awaited<ReturnType<Miniflare["getQueueProducer"]>>;

beforeAll(async () => {
  buildIfStale();
  local = await startTestStack({ seed: false });
  await local.stack.db.query("select private.trust_marketplace_secret($1)", [secret]);
  service = createClient(local.url, local.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  artist = await signedInClient(local, createArtist(local.stack.db, "Rendered Artist"), { [marketplaceSecretHeader]: secret });
  const built = JSON.parse(readFileSync(join(mediaBuild, "wrangler.json"), "utf8")) as { compatibility_date: string };
  // Miniflare 5 takes its own shape of options; its converter reads the documented (v4) one.
  miniflare = new Miniflare(
    convertV4MiniflareOptions({
      // The Worker's own log, kept for the tests that read why a job failed (not echoed as the test's errors).
      handleStructuredLogs: (log) => workerLog.push(`${log.level}: ${log.message}`),
      workers: [
        {
          name: "marketplace-media",
          modules: builtModules(),
          modulesRoot: mediaBuild,
          compatibilityDate: built.compatibility_date,
          compatibilityFlags: ["nodejs_compat"],
          bindings: {
            SUPABASE_URL: local.url,
            SUPABASE_ANON_KEY: local.anonKey,
            MARKETPLACE_SECRET: secret,
            // Attempts 1 s apart, then 2 s: a failing job reaches the dead-letter queue in seconds.
            RENDITION_RETRY_SECONDS: "1",
          },
          queueConsumers: {
            [queueName]: { maxBatchSize: 1, maxBatchTimeout: 0, maxRetries: 2, deadLetterQueue },
            [deadLetterQueue]: { maxBatchSize: 10, maxBatchTimeout: 0 },
          },
        },
        // What the page Worker holds of the queue: its producer binding, nothing else.
        { name: "pages", modules: true, script: "export default {}", queueProducers: { RENDITIONS: { queueName } } },
      ],
    }),
  );
  renditions = await miniflare.getQueueProducer("RENDITIONS", "pages");
}, 180_000);

afterAll(async () => {
  await miniflare?.dispose();
  if (local) await stopFunctions(local.stack);
  await local?.close();
});

type MadeFile = { master_path: string; path: string | null; state: string; failure: string | null };

/** A track's made file in `format` as the queue's functions leave it (undefined before anyone asked for it). */
async function madeFile(trackId: string, format: string): Promise<MadeFile | undefined> {
  const { rows } = await local.stack.db.query<MadeFile>(
    "select master_path, path, state, failure from private.made_files where track_id = $1 and format = $2",
    [trackId, format],
  );
  return rows[0];
}

/** Waits (no fixed sleep: until the consumer has written it) for a track's made file to satisfy `done`. */
async function fileWhen(trackId: string, format: string, done: (file: MadeFile) => boolean): Promise<MadeFile> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const file = await madeFile(trackId, format);
    if (file && done(file)) return file;
    if (Date.now() > deadline) throw new Error(`the ${format} of ${trackId} never got there: ${JSON.stringify(file)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const streamWhen = (trackId: string, done: (file: MadeFile) => boolean) => fileWhen(trackId, "stream", done);

/** A fan's request for a track's download file, as take_downloads() leaves it. */
async function askForDownload(trackId: string, format: string, masterPath: string) {
  await local.stack.db.query("insert into private.made_files (track_id, format, master_path) values ($1, $2, $3)", [
    trackId,
    format,
    masterPath,
  ]);
}

/** A published track whose master (these bytes) is stored in the artist's folder. */
async function publishedTrack(master: Uint8Array, { upload = true, extension = "wav" } = {}): Promise<{ id: string; masterPath: string }> {
  const id = await createTrack(local.stack.db, artist.id);
  const masterPath = `${artist.id}/${id}.${extension}`;
  if (upload) await storeMaster(masterPath, master, extension);
  await local.stack.db.query("update public.tracks set file_url = $2 where id = $1", [id, masterPath]);
  return { id, masterPath };
}

async function storeMaster(path: string, bytes: Uint8Array, extension = "wav") {
  const contentType = { wav: "audio/wav", mp3: "audio/mpeg", ogg: "audio/ogg", aac: "audio/aac" }[extension];
  const { error } = await service.storage.from("tracks").upload(path, bytes, { contentType, upsert: true });
  expect(error).toBeNull();
}

async function storedBytes(path: string): Promise<Uint8Array> {
  const { data, error } = await service.storage.from("tracks").download(path);
  expect(error).toBeNull();
  return new Uint8Array(await data!.arrayBuffer());
}

/** The artist's renditions folder, as Storage lists it. */
async function renditionObjects(): Promise<string[]> {
  const { data } = await service.storage.from("tracks").list(`${artist.id}/renditions`, { limit: 100 });
  return (data ?? []).map((object) => object.name);
}

/** Decodes an MP3 with mpg123: its frames' channels, rate and length. */
async function decodedMp3(bytes: Uint8Array) {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, samplesDecoded, sampleRate, errors } = decoder.decode(bytes);
    return { channels: channelData.length, seconds: samplesDecoded / sampleRate, sampleRate, errors: errors.length, channelData };
  } finally {
    decoder.free();
  }
}

/** The channel modes of an MP3's frame headers (0 stereo, 1 joint stereo, 2 dual, 3 mono), walking frame by frame. */
function frameModes(bytes: Uint8Array): Set<number> {
  const modes = new Set<number>();
  const bitrates = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]; // MPEG-2 layer III, kbps
  for (let at = 0; at + 4 <= bytes.length;) {
    if (bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) throw new Error(`no frame at byte ${at}`);
    const mpeg1 = (bytes[at + 1]! & 0x08) !== 0;
    const bitrate = mpeg1
      ? [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320][bytes[at + 2]! >> 4]!
      : bitrates[bytes[at + 2]! >> 4]!;
    const rate = (mpeg1 ? [44100, 48000, 32000] : [22050, 24000, 16000])[(bytes[at + 2]! >> 2) & 3]!;
    const padding = (bytes[at + 2]! >> 1) & 1;
    modes.add(bytes[at + 3]! >> 6);
    at += Math.floor(((mpeg1 ? 144 : 72) * bitrate * 1000) / rate) + padding;
  }
  return modes;
}

/** The rendition tests' tone (encodeTestWav's), encoded with LAME (320 kbps) or libvorbis (quality 6). */
async function encodedTone(type: "audio/mpeg" | "audio/ogg", seconds: number): Promise<Uint8Array> {
  const wasm = readFileSync(join(root, "node_modules", "wasm-media-encoders", "wasm", type === "audio/mpeg" ? "mp3.wasm" : "ogg.wasm"));
  const frames = seconds * 44100;
  const tone = (pitch: number) => Float32Array.from({ length: frames }, (_, frame) => Math.sin((2 * Math.PI * pitch * frame) / 44100) / 2);
  const channels = [tone(440), tone(660)];
  if (type === "audio/mpeg") {
    const encoder = await createEncoder("audio/mpeg", wasm);
    encoder.configure({ channels: 2, sampleRate: 44100, bitrate: 320 });
    return concat(encoder.encode(channels).slice(), encoder.finalize().slice());
  }
  const encoder = await createEncoder("audio/ogg", wasm);
  encoder.configure({ channels: 2, sampleRate: 44100, vbrQuality: 6 });
  return concat(encoder.encode(channels).slice(), encoder.finalize().slice());
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

const rms = (samples: Float32Array) => Math.sqrt(samples.reduce((sum, value) => sum + value * value, 0) / samples.length);

describe("the rendition queue", () => {
  it("makes a WAV master's MP3 stream, at most a fifth of its bytes, that decodes to the same sound", async () => {
    const master = encodeTestWav({ seconds: 6, sampleRate: 44100, channels: 2 });
    const track = await publishedTrack(master);
    await renditions.send({ format: "stream", trackId: track.id });
    const stream = await streamWhen(track.id, (s) => s.state === "ready");
    expect(stream.path).toBe(`${artist.id}/renditions/${track.id}.128k.mp3`);
    expect(stream.failure).toBeNull();

    const rendition = await storedBytes(stream.path!);
    expect(rendition.length).toBeLessThanOrEqual(master.length / 5);
    const decoded = await decodedMp3(rendition);
    expect(decoded).toMatchObject({ channels: 2, sampleRate: 44100, errors: 0 });
    // Its first frame is LAME's Info frame (after the header and MPEG-1 stereo's 32 bytes of side information),
    // whose encoder delay and padding a gapless decoder trims: exactly the master's six seconds come out.
    expect(new TextDecoder().decode(rendition.subarray(36, 40))).toBe("Info");
    expect(decoded.seconds).toBe(6);
    // The test tone (0.5 amplitude) is there, on both sides.
    for (const channel of decoded.channelData) expect(rms(channel.subarray(44100, 88200))).toBeGreaterThan(0.3);
  });

  // The lossy uploads the spec takes, each decoded and encoded again: an MP3 at 320 kbps and an Ogg Vorbis
  // (made here with LAME and libvorbis), an AAC (ADTS, 192 kbps) and an Ogg Opus (128 kbps), both made
  // once with ffmpeg (support/fixtures).
  const fixture = (name: string) => async () => readFileSync(join(root, "tests", "support", "fixtures", name));
  const lossyMasters = [
    { name: "MP3", extension: "mp3", seconds: 3, sampleRate: 44100, level: 0.3, master: () => encodedTone("audio/mpeg", 3) },
    { name: "Ogg Vorbis", extension: "ogg", seconds: 3, sampleRate: 44100, level: 0.3, master: () => encodedTone("audio/ogg", 3) },
    { name: "AAC", extension: "aac", seconds: 2, sampleRate: 44100, level: 0.02, master: fixture("tone-2s-192k.aac") },
    // Opus decodes at 48 kHz, kept in the stream.
    { name: "Ogg Opus", extension: "ogg", seconds: 2, sampleRate: 48000, level: 0.02, master: fixture("tone-2s-128k.opus.ogg") },
  ];
  for (const { name, extension, seconds, sampleRate, level, master } of lossyMasters) {
    it(`makes the stream of an ${name} master, which decodes to the same length and sound`, async () => {
      const track = await publishedTrack(await master(), { extension });
      await renditions.send({ format: "stream", trackId: track.id });
      const stream = await streamWhen(track.id, (s) => s.state !== "preparing");
      expect(stream).toMatchObject({ state: "ready", path: `${artist.id}/renditions/${track.id}.128k.mp3` });
      const decoded = await decodedMp3(await storedBytes(stream.path!));
      expect(decoded).toMatchObject({ channels: 2, sampleRate, errors: 0 });
      // Each codec's own delay and padding come on top of LAME's.
      expect(Math.abs(decoded.seconds - seconds)).toBeLessThan(0.15);
      expect(rms(decoded.channelData[0]!.subarray(22050, 44100))).toBeGreaterThan(level);
    });
  }

  it("keeps a mono master mono, at 64 kbps", async () => {
    const master = encodeTestWav({ seconds: 4, sampleRate: 22050, channels: 1 });
    const track = await publishedTrack(master);
    await renditions.send({ format: "stream", trackId: track.id });
    const stream = await streamWhen(track.id, (s) => s.state === "ready");
    const rendition = await storedBytes(stream.path!);
    expect(await decodedMp3(rendition)).toMatchObject({ sampleRate: 22050, errors: 0 });
    // Every frame header says mono (channel mode 3); mpg123 itself hands a mono stream out as two channels.
    expect(frameModes(rendition)).toEqual(new Set([3]));
    // 64 kbps: 8 KB a second, and the frames' padding.
    expect(rendition.length).toBeLessThan(4 * 8000 + 4000);
  });

  it("changes nothing when the same job runs again", async () => {
    const track = await publishedTrack(encodeTestWav({ seconds: 2, sampleRate: 44100, channels: 2 }));
    await renditions.send({ format: "stream", trackId: track.id });
    const first = await streamWhen(track.id, (s) => s.state === "ready");
    const stored = async () =>
      (
        await local.stack.db.query<{ updated_at: unknown }>(
          "select updated_at from storage.objects where bucket_id = 'tracks' and name = $1",
          [first.path],
        )
      ).rows.map((row) => String(row.updated_at));
    const before = await stored();
    // Sent twice: the second job and a third both find the stream made, and leave it as it is.
    await renditions.sendBatch([{ body: { format: "stream", trackId: track.id } }, { body: { trackId: track.id } }]);
    const other = await publishedTrack(encodeTestWav({ seconds: 1, sampleRate: 44100, channels: 2 }));
    // A later job done proves the earlier ones (one at a time, in order) have run.
    await renditions.send({ format: "stream", trackId: other.id });
    await streamWhen(other.id, (s) => s.state === "ready");
    expect(await madeFile(track.id, "stream")).toEqual(first);
    expect(await stored()).toEqual(before);
  });

  it("retries a job that failed half way and ends with one whole rendition", async () => {
    const master = encodeTestWav({ seconds: 3, sampleRate: 44100, channels: 2 });
    // The master is not stored yet (the first attempt cannot read it), and a killed attempt left a
    // truncated rendition where this one goes.
    const track = await publishedTrack(master, { upload: false });
    const renditionPath = `${artist.id}/renditions/${track.id}.128k.mp3`;
    const { error } = await service.storage.from("tracks").upload(renditionPath, new Uint8Array(100), { contentType: "audio/mpeg" });
    expect(error).toBeNull();
    await renditions.send({ format: "stream", trackId: track.id });
    const failedOnce = await streamWhen(track.id, (s) => s.failure !== null);
    expect(failedOnce).toMatchObject({
      state: "preparing",
      failure: "the master file is missing from storage",
    });

    await storeMaster(track.masterPath, master);
    const stream = await streamWhen(track.id, (s) => s.state === "ready");
    expect(stream).toMatchObject({ path: renditionPath, failure: null });
    expect((await renditionObjects()).filter((name) => name.startsWith(track.id))).toEqual([`${track.id}.128k.mp3`]);
    expect(await decodedMp3(await storedBytes(renditionPath))).toMatchObject({ channels: 2, errors: 0 });
  });

  it("makes a download file asked for (a FLAC of a WAV master) once, however often its job is delivered", async () => {
    const master = encodeTestWav({ seconds: 2, sampleRate: 44100, channels: 2 });
    const track = await publishedTrack(master);
    await askForDownload(track.id, "flac", track.masterPath);
    // Queued as the page Worker did before made files were one model: read as the same job.
    await renditions.send({ trackId: track.id, download: "flac" });
    const made = await fileWhen(track.id, "flac", (file) => file.state === "ready");
    expect(made.path).toBe(`${artist.id}/renditions/${track.id}.flac`);
    // Stored as it was made, frame by frame: it decodes whole, every sample of the master in it.
    const flac = new FLACDecoder();
    await flac.ready;
    const decoded = await flac.decodeFile(await storedBytes(made.path!)).finally(() => flac.free());
    expect(decoded).toMatchObject({ errors: [], samplesDecoded: 88200, sampleRate: 44100, bitDepth: 16 });
    // It carries its audio's MD5, which the reference decoder checks (without it, flac -t warns it cannot).
    const file = join(mkdtempSync(join(tmpdir(), "made-flac-")), "made.flac");
    writeFileSync(file, await storedBytes(made.path!));
    const tested = spawnSync("flac", ["-t", file], { encoding: "utf8" });
    expect(tested.status).toBe(0);
    expect(`${tested.stdout}${tested.stderr}`).not.toMatch(/WARNING|ERROR/);
    // Delivered again: nothing is made again (the stored object is not written over).
    const written = async () =>
      (await local.stack.db.query("select updated_at from storage.objects where name = $1", [made.path])).rows.map((row) =>
        String(row.updated_at),
      );
    const before = await written();
    await renditions.send({ format: "flac", trackId: track.id });
    const other = await publishedTrack(encodeTestWav({ seconds: 1, sampleRate: 44100, channels: 2 }));
    await renditions.send({ format: "stream", trackId: other.id });
    await streamWhen(other.id, (s) => s.state === "ready");
    expect(await written()).toEqual(before);
  });

  it("says a download file that cannot be made has failed, once the dead-letter queue has it", async () => {
    // Asked for, but the master is not in Storage: every attempt fails.
    const track = await publishedTrack(encodeTestWav({ seconds: 1, sampleRate: 44100, channels: 2 }), { upload: false });
    await askForDownload(track.id, "mp3", track.masterPath);
    await renditions.send({ format: "mp3", trackId: track.id });
    const failed = await fileWhen(track.id, "mp3", (file) => file.state === "failed");
    expect(failed).toMatchObject({ path: null, failure: "the master file is missing from storage" });
  });

  it("fails a master it cannot read at once, with the reason (no retry reads it better), and Retry starts it again", async () => {
    // A WAV whose audio is compressed (format 0x55, MP3 inside WAV): not PCM.
    const master = encodeTestWav({ seconds: 1, sampleRate: 44100, channels: 2 });
    new DataView(master.buffer, master.byteOffset).setUint16(20, 0x55, true);
    const track = await publishedTrack(master);
    await renditions.send({ format: "stream", trackId: track.id });
    const failed = await streamWhen(track.id, (s) => s.state === "failed");
    expect(failed).toMatchObject({ path: null, failure: "the WAV file's encoding is not PCM or 32-bit float" });

    // One attempt, which said why in the Worker's log too.
    expect(workerLog.filter((line) => line.includes("the WAV file's encoding is not PCM")).length).toBe(1);

    const { data, error } = await artist.client.rpc("retry_made_file", { track_id: track.id, format: "stream" });
    expect(error).toBeNull();
    expect(data).toBe(true);
    expect(await madeFile(track.id, "stream")).toMatchObject({ state: "preparing", failure: null });
  });
});
