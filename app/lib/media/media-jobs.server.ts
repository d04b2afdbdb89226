// The media Worker's work (workers/media.ts): the media queue's consumer. A job makes one file of a track's
// master off the request path: its stream, when it is published (or given new audio), or a download format
// the first time someone asks for one. It asks the made-files Edge Function for its files (the Worker holds
// no service-role key), reads the master in Range pieces, encodes as the samples arrive (a download tagged
// with its title, artist, album, number, year and cover), stores the file beside the master as it is made,
// and names it on the track. At-least-once and idempotent: the file's path is one per master and format,
// written with upsert, and a job whose file is made already does nothing. A failed attempt is retried with
// back-off; one that keeps failing lands in the dead-letter queue, whose consumer marks the file "Failed"
// (the artist sees why, and may retry the stream; a fan waiting for a download is told).
import * as v from "valibot";
import { createEncoder } from "wasm-media-encoders";
import { sniffAudio, sniffImage } from "../../../supabase/functions/_shared/file-types";
import { madeFormats, type MadeFormat } from "../../../supabase/functions/_shared/made-formats";
import { marketplaceClient, type MarketplaceClient } from "~/lib/backend/marketplace-client.server";
import { backendVariables } from "~/lib/http/backend-env";
import { masterReader, type MasterReader, type Samples } from "./master-decoders.server";
import { encoderSettings, UnreadableMaster, type EncoderSettings } from "./encoding";
import { infoFrame, Mp3Frames } from "./mp3-info";
import { FlacEncoder } from "./flac";
import { imageSize } from "./image-size";
import { audioFiles } from "./media-files";
import { crc32 } from "./zip";
import { MadeFileUpload } from "./made-file-upload.server";
import { failedRenditionQueue, RenditionMessage, type MadeFileJob } from "./rendition-queue.server";
import { id3Tag, type CoverArt, type DownloadTags } from "./tags";

/** The media Worker's variables (wrangler.media.toml and its deployment), checked once per isolate. */
const MediaEnvSchema = v.object({
  ...backendVariables,
  /** The first retry's delay in seconds (30 when unset), doubling with each attempt. */
  RENDITION_RETRY_SECONDS: v.pipe(v.optional(v.string(), "30"), v.toNumber(), v.minValue(0)),
});
let checked: v.InferOutput<typeof MediaEnvSchema> | undefined;

/** Seconds before the next attempt: 30 s, then doubling, at most 10 minutes (`RENDITION_RETRY_SECONDS` sets the first). */
function backOff(attempts: number, firstDelay: number): number {
  return Math.min(firstDelay * 2 ** Math.max(attempts - 1, 0), 600);
}

/** The queue handler: a batch of either queue. `encoderModule` is LAME's WebAssembly, compiled with the Worker. */
export async function handleRenditionBatch(
  batch: MessageBatch<unknown>,
  rawEnv: unknown,
  encoderModule: WebAssembly.Module,
): Promise<void> {
  const env = (checked ??= v.parse(MediaEnvSchema, rawEnv));
  const backend = marketplaceClient(env);
  const work: Work = { backend, storageUrl: env.SUPABASE_URL, encoderModule };
  const firstDelay = env.RENDITION_RETRY_SECONDS;
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenditionMessage, message.body);
    if (!parsed.success) {
      console.error("a media job of an unknown shape was dropped", message.id);
      message.ack();
      continue;
    }
    const { trackId, format } = parsed.output;
    if (batch.queue === failedRenditionQueue) {
      // Given up on: the artist sees "Failed" with the last attempt's reason, and Retry; a fan waiting
      // for a download file is told it could not be made.
      const { error } = await backend.rpc("fail_made_file", { track_id: trackId, format, final: true });
      if (error) message.retry({ delaySeconds: 60 });
      else message.ack();
      continue;
    }
    let masterPath: string | undefined;
    try {
      const job = await madeFileJob(backend, parsed.output);
      masterPath = job?.masterPath;
      if (job && !job.done) await makeFile(work, parsed.output, job);
      message.ack();
    } catch (error) {
      console.error(`making a track's ${format} file failed`, trackId, error);
      const reason = error instanceof Error ? error.message : String(error);
      // A master that cannot be read (or runs past the longest a track may be) will not be read on a
      // retry either: it fails at once, and costs no more work.
      const final = error instanceof UnreadableMaster;
      const { error: failing } = await backend.rpc("fail_made_file", { track_id: trackId, format, master_path: masterPath, reason, final });
      if (final && !failing) message.ack();
      else message.retry({ delaySeconds: backOff(message.attempts, firstDelay) });
    }
  }
}

const JobAnswer = v.object({
  job: v.nullable(
    v.object({
      masterPath: v.string(),
      masterUrl: v.nullable(v.pipe(v.string(), v.url())),
      path: v.string(),
      uploadUrl: v.nullable(v.pipe(v.string(), v.url())),
      /** Where an MP3's frames are stored before the file is written whole (null for other formats). */
      framesUploadUrl: v.nullable(v.pipe(v.string(), v.url())),
      done: v.boolean(),
      /** An MP3 download's bitrate, as the master warrants (null: the registry's). */
      kbps: v.nullable(v.number()),
      tags: v.object({
        title: v.string(),
        artist: v.string(),
        album: v.nullable(v.string()),
        trackNumber: v.nullable(v.number()),
        trackCount: v.nullable(v.number()),
        genre: v.nullable(v.string()),
        year: v.nullable(v.number()),
        artworkUrl: v.nullable(v.string()),
      }),
    }),
  ),
});
type Job = NonNullable<v.InferOutput<typeof JobAnswer>["job"]>;

/** A job's files: the master to read, where to store what is made of it, and what its tags say. */
async function madeFileJob(backend: MarketplaceClient, { trackId, format }: MadeFileJob): Promise<Job | null> {
  const { data, error } = await backend.functions.invoke("made-files", { body: { trackId, format } });
  if (error) throw new Error("the stored files could not be reached", { cause: error });
  return v.parse(JobAnswer, data).job;
}

/** A signed URL to read an MP3's stored frames back (null: none are stored). */
async function storedFramesUrl(backend: MarketplaceClient, { trackId, format }: MadeFileJob): Promise<string | null> {
  const { data, error } = await backend.functions.invoke("made-files", { body: { trackId, format, frames: "read" } });
  if (error) throw new Error("the MP3's frames could not be reached", { cause: error });
  return v.parse(v.object({ framesUrl: v.nullable(v.pipe(v.string(), v.url())) }), data).framesUrl;
}

/** Removes an MP3's stored frames once its file is whole; one left behind is only logged (the sweep removes it). */
async function removeStoredFrames(backend: MarketplaceClient, { trackId, format }: MadeFileJob): Promise<void> {
  const { error } = await backend.functions.invoke("made-files", { body: { trackId, format, frames: "remove" } });
  if (error) console.error("removing an MP3's stored frames failed", trackId, format, error);
}

/** What every job works with: the backend as the marketplace, Storage's address, LAME's compiled WebAssembly. */
type Work = { backend: MarketplaceClient; storageUrl: string; encoderModule: WebAssembly.Module };

/**
 * Makes the job's file of its master, stores it at the job's upload address as it is made, and names it on
 * the track with its size and CRC-32 and what reading the master found (its size, CRC-32, sample rate and
 * length), so a zip never computes a checksum and an MP3 download is made at the bitrate its master warrants.
 */
async function makeFile(work: Work, made: MadeFileJob, job: Job): Promise<void> {
  const { trackId, format } = made;
  if (!job.masterUrl) throw new Error("the master file is missing from storage");
  if (!job.uploadUrl) throw new Error("the file has no upload address");
  const { encoding, type, download } = madeFormats[format];
  const tags: DownloadTags | null = download
    ? { ...job.tags, cover: job.tags.artworkUrl ? await coverArt(job.tags.artworkUrl) : null }
    : null;
  const upload = await MadeFileUpload.open(work.storageUrl, job.uploadUrl, type);
  const master = new Checksummed();
  const file = new Checksummed();
  const store: Sink = { write: (bytes) => upload.write(file.add(bytes)), finish: () => upload.finish() };
  const masterBytes = master.of(storedPieces(job.masterUrl));
  const heard =
    encoding.codec === "mp3"
      ? await makeMp3(work, made, job, masterBytes, tags, store)
      : await encodeMaster(
          masterBytes,
          flacEncoder(encoding.maxBits, tags, { md5: await flacAudioMd5(job.masterUrl, encoding.maxBits) }),
          store,
        );
  const { error } = await work.backend.rpc("finish_made_file", {
    track_id: trackId,
    format,
    master_path: job.masterPath,
    path: job.path,
    size: file.size,
    crc32: file.crc,
    master_size: master.size,
    master_crc32: master.crc,
    master_sample_rate: heard.sampleRate,
    seconds: heard.seconds,
  });
  if (error) throw new Error("the file could not be named on the track", { cause: error });
}

/**
 * An MP3 in two passes over its bytes, never over its audio: LAME's frames are stored as they are made
 * (counted as they pass), then the file is written whole into `sink`: the download's tag, the Info frame
 * that only the counted frames tell (`infoFrame`: exact length, encoder delay and padding for gapless
 * players), and the frames read back.
 */
async function makeMp3(
  work: Work,
  made: MadeFileJob,
  job: Job,
  masterBytes: AsyncIterable<Uint8Array>,
  tags: DownloadTags | null,
  sink: Sink,
): Promise<Heard> {
  if (!job.framesUploadUrl) throw new Error("the MP3's frames have no upload address");
  const framesUpload = await MadeFileUpload.open(work.storageUrl, job.framesUploadUrl, "audio/mpeg");
  const frames = new Mp3Frames();
  const encoder = mp3Encoder(work.encoderModule, made.format, job.kbps);
  const heard = await encodeMaster(masterBytes, encoder, {
    write: (bytes) => framesUpload.write(frames.add(bytes)),
    finish: () => framesUpload.finish(),
  });
  const framesUrl = await storedFramesUrl(work.backend, made);
  const outputSampleRate = encoder.settings()?.outputSampleRate;
  if (!framesUrl || !outputSampleRate) throw new Error("the MP3's frames could not be read back");
  if (tags) await sink.write(id3Tag(tags));
  // Its length in samples at the MP3's rate (LAME resamples a master whose rate MP3 has not).
  await sink.write(infoFrame(frames, Math.round(heard.seconds * outputSampleRate)));
  let readBack = 0;
  for await (const piece of storedPieces(framesUrl)) {
    readBack += piece.length;
    await sink.write(piece);
  }
  if (readBack !== frames.bytes) throw new Error(`the MP3's frames read back as ${readBack} bytes, not ${frames.bytes}`);
  await sink.finish();
  // Written whole: its frames go before the file is named ready.
  await removeStoredFrames(work.backend, made);
  return heard;
}
/** A file's size and CRC-32, counted as its bytes pass. */
class Checksummed {
  size = 0;
  crc = 0;

  add(bytes: Uint8Array): Uint8Array {
    this.size += bytes.length;
    this.crc = crc32(bytes, this.crc);
    return bytes;
  }

  async *of(pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const piece of pieces) yield this.add(piece);
  }
}

/** Bytes read a mebibyte at a time, each piece's body streamed as it arrives. */
const pieceSize = 1024 * 1024;

/** A stored file's bytes in Range pieces (a storage that ignores Range sends it whole, streamed all the same). */
async function* storedPieces(url: string): AsyncGenerator<Uint8Array> {
  for (let start = 0, size = Infinity; start < size;) {
    const response = await fetch(url, { headers: { Range: `bytes=${start}-${start + pieceSize - 1}` } });
    if (response.status === 416) return;
    if (!response.ok || !response.body) throw new Error(`a stored file could not be read (HTTP ${response.status})`);
    if (response.status === 200) size = Number(response.headers.get("content-length") ?? Infinity);
    else size = Number(/\/(\d+)$/.exec(response.headers.get("content-range") ?? "")?.[1] ?? Infinity);
    const received = start;
    const reader = response.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      start += read.value.length;
      yield read.value;
    }
    if (response.status === 200 || start === received) return;
  }
}

/** A decoder's own failure, said to the artist as what it is: their file's audio could not be read. */
function undecodable(reader: MasterReader) {
  return (error: unknown): never => {
    if (error instanceof UnreadableMaster) throw error;
    throw new UnreadableMaster(
      `the ${reader.format} audio could not be decoded (${error instanceof Error ? error.message : String(error)})`,
    );
  };
}

/** At most this many sample frames go to the encoder in one call, which keeps its buffers small. */
const encoderSlice = 65536;

/**
 * Where a master's samples go: an encoder, opened once the first samples tell their channels and rate.
 * `head` is what the file starts with (its tags, a FLAC's metadata); each call answers the file's bytes it
 * made, to be stored before the next.
 */
type SampleSink = { head: Uint8Array[]; write(samples: Samples): Uint8Array[]; finish(): Uint8Array[] };
export type Encoder = { open(first: Samples, format: string): Promise<SampleSink> };

/** LAME's frames, at the format's settings (at `kbps` where the master warrants less), which the first samples decide. */
function mp3Encoder(
  encoderModule: WebAssembly.Module,
  format: MadeFormat,
  kbps: number | null,
): Encoder & { settings(): EncoderSettings | null } {
  let chosen: EncoderSettings | null = null;
  return {
    settings: () => chosen,
    async open(first) {
      const encoder = await createEncoder("audio/mpeg", encoderModule);
      const settings = encoderSettings(format, first.channels.length, first.sampleRate, kbps);
      chosen = settings;
      encoder.configure(settings);
      return {
        head: [],
        write(samples) {
          const output: Uint8Array[] = [];
          const frames = samples.channels[0]!.length;
          for (let start = 0; start < frames; start += encoderSlice) {
            // The encoder's output lives in its own memory, overwritten by the next call: copied out.
            output.push(encoder.encode(samples.channels.map((channel) => channel.subarray(start, start + encoderSlice))).slice());
          }
          return output;
        },
        finish: () => [encoder.finalize().slice()],
      };
    },
  };
}

/**
 * FLAC, of a WAV master alone (a lossy one would only grow), at its bit depth (`maxBits` at most), its
 * frames stored as they are made. Its sample count is the WAV header's; a header claiming more frames
 * than the tracks bucket's 50 MB could hold (a frame is at least a byte) says nothing, and is left unknown.
 * `md5` goes in its STREAMINFO; `makesFrames: false` only reads the samples, for their MD5 (`audioMd5`).
 */
function flacEncoder(
  maxBits: number,
  tags: DownloadTags | null,
  options: { md5?: Uint8Array | null; makesFrames?: boolean } = {},
): Encoder & { audioMd5(): Uint8Array | null } {
  let opened: FlacEncoder | null = null;
  return {
    async open(first, format) {
      if (format !== "WAV" || !first.bits) throw new UnreadableMaster("FLAC is made only of a lossless (WAV) master");
      const declared = first.frames && first.frames <= audioFiles.maxBytes ? first.frames : 0;
      const encoder = new FlacEncoder(first.channels.length, first.sampleRate, Math.min(first.bits, maxBits), declared, options);
      opened = encoder;
      return { head: [encoder.start(tags)], write: (samples) => encoder.push(samples.channels), finish: () => encoder.finish() };
    },
    audioMd5: () => opened?.audioMd5() ?? null,
  };
}

/** The MD5 of the audio a FLAC of this master holds, read once before it is made (STREAMINFO comes first). */
async function flacAudioMd5(masterUrl: string, maxBits: number): Promise<Uint8Array | null> {
  const reading = flacEncoder(maxBits, null, { makesFrames: false });
  await encodeMaster(storedPieces(masterUrl), reading, { write: async () => {}, finish: async () => {} });
  return reading.audioMd5();
}

/** Where a made file's bytes go as they are made. */
type Sink = { write(bytes: Uint8Array): Promise<void>; finish(): Promise<void> };

/** What reading a master found: its sample rate and length. */
type Heard = { sampleRate: number; seconds: number };

/**
 * A master made into another format: its bytes decoded as they arrive, passed to the encoder, and what it
 * makes sent to `sink` as it comes; the sink finished at the end. Every byte of the master is read (its
 * checksum counts them all), but no more than the longest a track may be is decoded: a master that runs
 * longer fails, whatever its header claimed. Answers the master's sample rate and length.
 */
export async function encodeMaster(pieces: AsyncIterable<Uint8Array>, encoder: Encoder, sink: Sink): Promise<Heard> {
  let reader: MasterReader | null = null;
  let opened: SampleSink | null = null;
  let frames = 0;
  let sampleRate = 0;
  const store = async (bytes: Uint8Array[]) => {
    for (const part of bytes) await sink.write(part);
  };
  const write = async (samples: Samples | null) => {
    if (!samples) return;
    if (!opened) {
      opened = await encoder.open(samples, reader!.format);
      sampleRate = samples.sampleRate;
      await store(opened.head);
    }
    frames += samples.channels[0]!.length;
    if (frames > (audioFiles.maxSeconds + 1) * sampleRate) throw new UnreadableMaster(audioFiles.tooLong);
    await store(opened.write(samples));
  };
  try {
    for await (const piece of pieces) {
      if (!reader) {
        const type = sniffAudio(piece);
        if (!type) throw new UnreadableMaster("the master is not an audio file we take (MP3, WAV, AAC or OGG)");
        reader = await masterReader(type, piece);
      }
      // Past a WAV's data the rest is only counted.
      if (!reader.finished) await write(await reader.read(piece).catch(undecodable(reader)));
    }
    if (reader) await write(await reader.end().catch(undecodable(reader)));
  } finally {
    reader?.close();
  }
  if (!opened) throw new UnreadableMaster("the master holds no audio we can read");
  await store((opened as SampleSink).finish());
  await sink.finish();
  return { sampleRate, seconds: frames / sampleRate };
}

/** The largest cover a download carries: the artwork bucket's own limit. */
const maxCoverBytes = 5 * 1024 * 1024;

/** The release's artwork for a file's tags; none when it cannot be read (the file is made all the same). */
async function coverArt(url: string): Promise<CoverArt | null> {
  try {
    const response = await fetch(url);
    if (!response.ok || Number(response.headers.get("content-length") ?? 0) > maxCoverBytes) {
      await response.body?.cancel();
      return null;
    }
    const data = new Uint8Array(await response.arrayBuffer());
    const type = sniffImage(data);
    const size = imageSize(data);
    if (!type || data.length > maxCoverBytes || !size || size === "truncated") return null;
    return { type: type.mime, data, ...size };
  } catch (error) {
    console.error("reading a download's cover failed", url, error);
    return null;
  }
}
