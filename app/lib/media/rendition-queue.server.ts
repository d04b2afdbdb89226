// The rendition queue (Cloudflare Queues, produced and consumed by this Worker; wrangler.toml): a job per
// track makes its streaming rendition off the request path. It asks the rendition-files Edge Function
// for its files (the Worker holds no service-role key), reads the master in Range pieces, encodes as the
// samples arrive, uploads the rendition beside the master and names it on the track. At-least-once and
// idempotent: the rendition's path is one per master and format, written with upsert, and a job whose
// track already streams it does nothing. A failed attempt is retried with back-off; one that keeps
// failing lands in the dead-letter queue, whose consumer marks the track "Failed" for its artist.
import { createClient } from "@supabase/supabase-js";
import * as v from "valibot";
import { createEncoder } from "wasm-media-encoders";
import { sniffAudio } from "../../../supabase/functions/_shared/file-types";
import type { Database } from "~/lib/backend/database.types";
import { appEnv, type AppEnv } from "~/lib/http/env.server";
import { masterReader, type MasterReader, type Samples } from "./master-decoders.server";
import { concat, encoderSettings, renditionFormat, renditionType, UnreadableMaster } from "./rendition";

/** The queues' names, as wrangler.toml declares them. */
export const renditionQueue = "marketplace-renditions";
export const failedRenditionQueue = "marketplace-renditions-failed";

const RenditionMessage = v.object({ trackId: v.pipe(v.string(), v.uuid()) });
export type RenditionMessage = v.InferOutput<typeof RenditionMessage>;

/**
 * Queues the rendition of each track: at publishing, at the artist's Retry, and from the one-off command.
 * False when the queue refused them: what was published stays published, "Preparing the stream" until the
 * command (or the artist's Retry once it is marked failed) queues it again; the failure is logged.
 */
export async function queueRenditions(queue: Queue<RenditionMessage>, trackIds: string[]): Promise<boolean> {
  try {
    // A batch holds at most 100 messages.
    for (let start = 0; start < trackIds.length; start += 100) {
      await queue.sendBatch(trackIds.slice(start, start + 100).map((trackId) => ({ body: { trackId }, contentType: "json" as const })));
    }
    return true;
  } catch (error) {
    console.error("queueing tracks' streams failed", trackIds, error);
    return false;
  }
}

/** The database and Edge Functions as the marketplace itself: no user, its registered secret. */
export function marketplaceClient(env: AppEnv) {
  return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { "X-Marketplace-Secret": env.MARKETPLACE_SECRET } },
  });
}
type MarketplaceClient = ReturnType<typeof marketplaceClient>;

/** Seconds before the next attempt: 30 s, then doubling, at most 10 minutes (`RENDITION_RETRY_SECONDS` sets the first). */
function backOff(attempts: number, firstDelay: number): number {
  return Math.min(firstDelay * 2 ** Math.max(attempts - 1, 0), 600);
}

/** The queue handler: a batch of either queue. `encoderModule` is LAME's WebAssembly, compiled with the Worker. */
export async function handleRenditionBatch(batch: MessageBatch<unknown>, rawEnv: Env, encoderModule: WebAssembly.Module): Promise<void> {
  const env = appEnv(rawEnv);
  const backend = marketplaceClient(env);
  const configured = Number(rawEnv.RENDITION_RETRY_SECONDS);
  const firstDelay = Number.isFinite(configured) && configured >= 0 ? configured : 30;
  for (const message of batch.messages) {
    const parsed = v.safeParse(RenditionMessage, message.body);
    if (!parsed.success) {
      console.error("a rendition message of an unknown shape was dropped", message.id);
      message.ack();
      continue;
    }
    const { trackId } = parsed.output;
    if (batch.queue === failedRenditionQueue) {
      // Given up on: the artist sees "Failed" with the last attempt's reason, and Retry.
      const { error } = await backend.rpc("fail_rendition", { track_id: trackId, final: true });
      if (error) message.retry({ delaySeconds: 60 });
      else message.ack();
      continue;
    }
    let masterPath: string | null = null;
    try {
      const job = await renditionJob(backend, trackId);
      masterPath = job?.masterPath ?? null;
      if (job && !job.done) await makeRendition(backend, trackId, job, encoderModule);
      message.ack();
    } catch (error) {
      console.error("making a track's stream failed", trackId, error);
      const reason = error instanceof Error ? error.message : String(error);
      if (masterPath) await backend.rpc("fail_rendition", { track_id: trackId, master_path: masterPath, reason, final: false });
      message.retry({ delaySeconds: backOff(message.attempts, firstDelay) });
    }
  }
}

const JobAnswer = v.object({
  job: v.nullable(
    v.object({
      masterPath: v.string(),
      masterUrl: v.nullable(v.pipe(v.string(), v.url())),
      renditionPath: v.string(),
      uploadUrl: v.nullable(v.pipe(v.string(), v.url())),
      done: v.boolean(),
    }),
  ),
});
type Job = NonNullable<v.InferOutput<typeof JobAnswer>["job"]>;

async function renditionJob(backend: MarketplaceClient, trackId: string): Promise<Job | null> {
  const { data, error } = await backend.functions.invoke("rendition-files", { body: { trackId, format: renditionFormat } });
  if (error) throw new Error("the stored files could not be reached", { cause: error });
  return v.parse(JobAnswer, data).job;
}

async function makeRendition(backend: MarketplaceClient, trackId: string, job: Job, encoderModule: WebAssembly.Module): Promise<void> {
  if (!job.masterUrl) throw new Error("the master file is missing from storage");
  const rendition = await encodeMaster(masterPieces(job.masterUrl), encoderModule);
  const stored = await fetch(job.uploadUrl!, {
    method: "PUT",
    headers: { "content-type": renditionType, "cache-control": "max-age=3600", "x-upsert": "true" },
    body: rendition,
  });
  await stored.body?.cancel();
  if (!stored.ok) throw new Error(`the stream could not be stored (HTTP ${stored.status})`);
  const { error } = await backend.rpc("finish_rendition", {
    track_id: trackId,
    master_path: job.masterPath,
    rendition_path: job.renditionPath,
  });
  if (error) throw new Error("the stream could not be named on the track", { cause: error });
}

/** Bytes read a mebibyte at a time, each piece's body streamed as it arrives. */
const pieceSize = 1024 * 1024;

/** The master's bytes in Range pieces (a storage that ignores Range sends it whole, streamed all the same). */
async function* masterPieces(url: string): AsyncGenerator<Uint8Array> {
  for (let start = 0, size = Infinity; start < size;) {
    const response = await fetch(url, { headers: { Range: `bytes=${start}-${start + pieceSize - 1}` } });
    if (response.status === 416) return;
    if (!response.ok || !response.body) throw new Error(`the master could not be read (HTTP ${response.status})`);
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

/** The master's rendition: the encoder's output, whole (a tenth of a WAV's bytes, or less). */
export async function encodeMaster(pieces: AsyncIterable<Uint8Array>, encoderModule: WebAssembly.Module): Promise<Uint8Array<ArrayBuffer>> {
  let reader: MasterReader | null = null;
  let encoder: Awaited<ReturnType<typeof createEncoder<"audio/mpeg">>> | null = null;
  const output: Uint8Array[] = [];
  const encode = async (samples: Samples | null) => {
    if (!samples) return;
    if (!encoder) {
      encoder = await createEncoder("audio/mpeg", encoderModule);
      encoder.configure(encoderSettings(samples.channels.length, samples.sampleRate));
    }
    const frames = samples.channels[0]!.length;
    for (let start = 0; start < frames; start += encoderSlice) {
      // The encoder's output lives in its own memory, overwritten by the next call: copied out.
      output.push(encoder.encode(samples.channels.map((channel) => channel.subarray(start, start + encoderSlice))).slice());
    }
  };
  try {
    for await (const piece of pieces) {
      if (!reader) {
        const type = sniffAudio(piece);
        if (!type) throw new UnreadableMaster("the master is not an audio file we take (MP3, WAV, AAC or OGG)");
        reader = await masterReader(type, piece);
      }
      await encode(await reader.read(piece).catch(undecodable(reader)));
      if (reader.finished) break;
    }
    if (reader) await encode(await reader.end().catch(undecodable(reader)));
  } finally {
    reader?.close();
  }
  if (!encoder) throw new UnreadableMaster("the master holds no audio we can read");
  output.push((encoder as { finalize(): Uint8Array }).finalize().slice());
  return concat(...output);
}
