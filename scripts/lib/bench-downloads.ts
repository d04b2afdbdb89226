// Downloads, measured through the marketplace as it runs (workerd): a buyer takes a four-minute 16-bit
// 44.1 kHz stereo WAV (the Worker's answer, then its first byte, which the Worker reads from Storage and
// hands on) and a 10-track album as
// one zip (its first byte, the whole archive, and how far workerd's resident memory rose while zipping,
// sampled as the bytes arrive); then the made formats on first request, as a fan's page waits for them
// (asking every quarter second): the four-minute track's MP3 320 and FLAC, and the album's MP3s as one
// zip: how long until ready, the first byte, their sizes, and workerd's memory while the queue made them.
// Last, the longest masters the spec allows (a 50 MB upload): a 52-minute MP3 at 128 kbps, whose stream
// (50 MB) is made, and a 50 MB WAV, whose MP3 320 and FLAC are: the media Worker has 128 MB, so none of
// them may be held whole. (The 52-minute MP3's own MP3 320 would be 125 MB, past the tracks bucket's 50 MB:
// it cannot be stored at all.)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createEncoder } from "wasm-media-encoders";
import { createClient } from "@supabase/supabase-js";
import { localDefaults } from "@crate/local-supabase";
import { encodeWav } from "@crate/local-supabase/media";
import { root } from "./app-server.ts";
import { workerdPids } from "./bench-renditions.ts";
import type { Marketplace } from "./marketplace.ts";
import { requestRenditions, streamOf } from "./renditions.ts";

export type DownloadFigures = {
  trackBytes: number;
  /** The file's answer (its headers), as the Worker signs and opens it. */
  answerMs: number;
  trackFirstByteMs: number;
  zipBytes: number;
  zipFirstByteMs: number;
  zipMs: number;
  residentMb: { before: number; peak: number } | null;
  /** `firstByteMs`: null for a stream, which is made for listeners and not downloaded. */
  made: { what: string; bytes: number; readyMs: number; firstByteMs: number | null; residentMb: { before: number; peak: number } | null }[];
};

/** `seconds` of a chord, 16-bit stereo at 44.1 kHz. */
export function wav(seconds: number): Uint8Array<ArrayBuffer> {
  const frames = seconds * 44100;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    const t = frame / 44100;
    left[frame] = Math.sin(2 * Math.PI * 220 * t) / 3;
    right[frame] = Math.sin(2 * Math.PI * 277.2 * t) / 3;
  }
  return encodeWav([left, right], 44100);
}

/** The longest MP3 master the spec allows: 52 minutes of a chord at 128 kbps (50 MB), encoded a minute at a time. */
async function longestMp3(): Promise<Uint8Array<ArrayBuffer>> {
  const encoder = await createEncoder("audio/mpeg", readFileSync(join(root, "node_modules", "wasm-media-encoders", "wasm", "mp3.wasm")));
  encoder.configure({ channels: 2, sampleRate: 44100, bitrate: 128 });
  const parts: Uint8Array[] = [];
  for (let minute = 0; minute < 52; minute++) {
    const frames = 60 * 44100;
    const left = new Float32Array(frames);
    const right = new Float32Array(frames);
    for (let frame = 0; frame < frames; frame++) {
      const t = minute * 60 + frame / 44100;
      left[frame] = Math.sin(2 * Math.PI * 220 * t) / 3;
      right[frame] = Math.sin(2 * Math.PI * 277.2 * t) / 3;
    }
    parts.push(encoder.encode([left, right]).slice());
  }
  parts.push(encoder.finalize().slice());
  const file = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (file.set(part, at), at + part.length), 0);
  return file;
}

/** workerd's resident memory now (VmRSS of its processes), in MB; null where /proc cannot tell. */
function residentMb(): number | null {
  try {
    return workerdPids().reduce(
      (sum, pid) => sum + Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
      0,
    );
  } catch {
    return null;
  }
}

export async function measureDownloads(
  { appUrl, supabaseUrl, marketplaceSecret }: Marketplace,
  artist: { id: string },
  fan: { id: string; cookie: string },
): Promise<DownloadFigures> {
  const service = createClient(supabaseUrl, localDefaults.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const store = async (bytes: Uint8Array<ArrayBuffer>, type = "audio/wav") => {
    const path = `${artist.id}/bench-${crypto.randomUUID()}.${type === "audio/wav" ? "wav" : "mp3"}`;
    const { error } = await service.storage.from("tracks").upload(path, new Blob([bytes], { type }));
    if (error) throw new Error(`Storing a bench master failed: ${error.message}`);
    return path;
  };
  const fields = { artist_id: artist.id, genre: "Rock", price: 1.29, description: "Downloads bench" };
  const four = wav(240);
  const { data: single, error: singleError } = await service
    .from("tracks")
    .insert({ ...fields, title: `Download bench ${Date.now()}`, file_url: await store(four) })
    .select("id")
    .single();
  if (singleError) throw new Error(`Making the bench single failed: ${singleError.message}`);
  const { data: album } = await service
    .from("releases")
    .insert({ artist_id: artist.id, kind: "album", title: `Download bench album ${Date.now()}` })
    .select("id")
    .single();
  const minute = wav(60);
  const albumTracks: string[] = [];
  for (let n = 1; n <= 10; n++) {
    const { data, error } = await service
      .from("tracks")
      .insert({
        ...fields,
        release_id: album!.id,
        title: `Bench track ${n}`,
        track_number: n,
        file_url: await store(minute),
      })
      .select("id")
      .single();
    if (error) throw new Error(`Making the bench album failed: ${error.message}`);
    albumTracks.push(data.id);
  }
  const { error: boughtError } = await service
    .from("purchases")
    .insert([single!.id, ...albumTracks].map((track_id) => ({ amount: 1.29, track_id, user_id: fan.id })));
  if (boughtError) throw new Error(`Buying the bench releases failed: ${boughtError.message}`);

  const started = performance.now();
  const file = await fetch(`${appUrl}/track/${single!.id}/download`, { redirect: "manual", headers: { Cookie: fan.cookie } });
  if (file.status !== 200) throw new Error(`The track's download answered ${file.status}`);
  const answerMs = performance.now() - started;
  const reader = file.body!.getReader();
  await reader.read();
  const trackFirstByteMs = performance.now() - started;
  await reader.cancel();

  const before = residentMb();
  let peak = before;
  const zipStarted = performance.now();
  const zip = await fetch(`${appUrl}/album/${album!.id}/download`, { headers: { Cookie: fan.cookie } });
  if (zip.status !== 200) throw new Error(`The album's zip answered ${zip.status}`);
  const pieces = zip.body!.getReader();
  let zipFirstByteMs = 0;
  let zipBytes = 0;
  for (;;) {
    const { value, done } = await pieces.read();
    if (done) break;
    if (zipBytes === 0) zipFirstByteMs = performance.now() - zipStarted;
    zipBytes += value.length;
    const now = residentMb();
    if (now !== null && peak !== null) peak = Math.max(peak, now);
  }
  /** A made format asked for and waited for, as the download page does; then taken whole. */
  const madeOnRequest = async (what: string, path: string) => {
    const startedAt = performance.now();
    const memoryBefore = residentMb();
    let memoryPeak = memoryBefore;
    for (;;) {
      const answer = await fetch(`${appUrl}${path}`, { redirect: "manual", headers: { Cookie: fan.cookie } });
      const now = residentMb();
      if (now !== null && memoryPeak !== null) memoryPeak = Math.max(memoryPeak, now);
      if (answer.status === 303) {
        await answer.body?.cancel();
        if (performance.now() - startedAt > 600_000) throw new Error(`${path} was not made in 10 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      const readyMs = performance.now() - startedAt;
      const body = answer.status === 302 ? await fetch(answer.headers.get("location")!) : answer;
      if (!body.ok || !body.body) throw new Error(`${path} answered ${body.status}`);
      const reader = body.body.getReader();
      let bytes = 0;
      let firstByteMs = 0;
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        if (bytes === 0) firstByteMs = performance.now() - startedAt;
        bytes += read.value.length;
      }
      return {
        what,
        bytes,
        readyMs,
        firstByteMs,
        residentMb: memoryBefore === null || memoryPeak === null ? null : { before: memoryBefore, peak: memoryPeak },
      };
    }
  };
  const zipMs = performance.now() - zipStarted;
  const made: DownloadFigures["made"] = [
    await madeOnRequest("the four-minute WAV's MP3 320 kbps", `/track/${single!.id}/download?format=mp3`),
    await madeOnRequest("the four-minute WAV's FLAC", `/track/${single!.id}/download?format=flac`),
    await madeOnRequest("the 10-track album's MP3s, one zip", `/album/${album!.id}/download?format=mp3`),
  ];

  // The longest masters: bought like the others; the MP3's stream queued as the operator's command does.
  const longest = async (title: string, bytes: Uint8Array<ArrayBuffer>, type: string) => {
    const { data, error } = await service
      .from("tracks")
      .insert({ ...fields, title, file_url: await store(bytes, type) })
      .select("id")
      .single();
    if (error) throw new Error(`Making a longest master's track failed: ${error.message}`);
    const bought = await service.from("purchases").insert({ amount: 1.29, track_id: data.id, user_id: fan.id });
    if (bought.error) throw new Error(`Buying a longest master failed: ${bought.error.message}`);
    return { id: data.id, bytes: bytes.length };
  };
  const mp3 = await longest(`The longest MP3 ${Date.now()}`, await longestMp3(), "audio/mpeg");
  const streamStarted = performance.now();
  const streamBefore = residentMb();
  let streamPeak = streamBefore;
  await requestRenditions(appUrl, marketplaceSecret, { trackIds: [mp3.id] });
  for (;;) {
    const { state, path } = await streamOf(service, mp3.id);
    const now = residentMb();
    if (now !== null && streamPeak !== null) streamPeak = Math.max(streamPeak, now);
    if (state === "failed") throw new Error("The longest MP3's stream failed");
    if (path) {
      const { data: stream } = await service.storage.from("tracks").download(path);
      made.push({
        what: `the ${(mp3.bytes / 1024 / 1024).toFixed(0)} MB, 52-minute MP3's stream`,
        bytes: stream?.size ?? 0,
        readyMs: performance.now() - streamStarted,
        firstByteMs: null,
        residentMb: streamBefore === null || streamPeak === null ? null : { before: streamBefore, peak: streamPeak },
      });
      break;
    }
    if (performance.now() - streamStarted > 600_000) throw new Error("The longest MP3 had no stream after 10 minutes");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // 50 MB of 16-bit 44.1 kHz stereo: 4 minutes 57 seconds
  const largestWav = await longest(`The largest WAV ${Date.now()}`, wav(297), "audio/wav");
  const largest = `the ${(largestWav.bytes / 1024 / 1024).toFixed(0)} MB WAV's`;
  made.push(await madeOnRequest(`${largest} MP3 320 kbps`, `/track/${largestWav.id}/download?format=mp3`));
  made.push(await madeOnRequest(`${largest} FLAC`, `/track/${largestWav.id}/download?format=flac`));
  return {
    made,
    trackBytes: four.length,
    answerMs,
    trackFirstByteMs,
    zipBytes,
    zipFirstByteMs,
    zipMs,
    residentMb: before === null || peak === null ? null : { before, peak },
  };
}

const memory = (resident: { before: number; peak: number } | null) =>
  resident
    ? `${resident.before.toFixed(0)} MB before, at most ${resident.peak.toFixed(0)} MB (+${(resident.peak - resident.before).toFixed(0)} MB)`
    : "not measurable here";

export function printDownloads(figures: DownloadFigures) {
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  console.log(`\nDownloads (as uploaded; a buyer, signed in)
  A four-minute WAV (${mb(figures.trackBytes)} MB): the Worker's answer ${ms(figures.answerMs)}, its first byte ${ms(figures.trackFirstByteMs)} after the request
  A 10-track album as one zip (${mb(figures.zipBytes)} MB): first byte ${ms(figures.zipFirstByteMs)}, the whole archive ${(figures.zipMs / 1000).toFixed(1)} s
  workerd's resident memory while zipping: ${memory(figures.residentMb)}

Made on first request (the rendition queue, as the download page waits)`);
  for (const made of figures.made) {
    console.log(
      `  ${made.what} (${mb(made.bytes)} MB): ready ${(made.readyMs / 1000).toFixed(1)} s after the first request${made.firstByteMs === null ? "" : `, first byte at ${(made.firstByteMs / 1000).toFixed(1)} s`}; workerd's memory meanwhile ${memory(made.residentMb)}`,
    );
  }
}
