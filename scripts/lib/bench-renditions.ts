// Streaming renditions, measured through the marketplace as it runs (`wrangler dev`, its queue included):
// the demo artist publishes a four-minute 16-bit 44.1 kHz stereo WAV with the upload form (a plain POST,
// as without JavaScript), and the rendition queue makes its stream. Figures: the bytes a play costs with
// the master and with the rendition, Publish → "Ready", the job's wall time, the CPU workerd spent from
// the publish's answer to "Ready" (the job, with the queue's own work), and workerd's peak resident memory.
import { readFileSync, readdirSync } from "node:fs";
import { createClient } from "@supabase/supabase-js";
import { localDefaults } from "@crate/local-supabase";
import { encodeWav } from "@crate/local-supabase/media";
import type { Marketplace } from "./marketplace.ts";
import { streamOf } from "./renditions.ts";

export type RenditionFigures = {
  masterBytes: number;
  renditionBytes: number;
  publishMs: number;
  readyMs: number;
  cpuMs: number | null;
  peakMb: { before: number; published: number; ready: number } | null;
};

const seconds = 240;
const sampleRate = 44100;

/** Four minutes of a chord with a little noise, 16-bit stereo: what LAME works on in a real track. */
function fourMinuteWav(): Uint8Array<ArrayBuffer> {
  const frames = seconds * sampleRate;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  let noise = 1;
  for (let frame = 0; frame < frames; frame++) {
    const t = frame / sampleRate;
    noise = (noise * 1103515245 + 12345) % 2147483648;
    const hiss = (noise / 2147483648 - 0.5) * 0.05;
    const chord = (Math.sin(2 * Math.PI * 220 * t) + Math.sin(2 * Math.PI * 277.2 * t) + Math.sin(2 * Math.PI * 329.6 * t)) / 6;
    left[frame] = chord + hiss;
    right[frame] = chord * 0.8 - hiss;
  }
  return encodeWav([left, right], sampleRate);
}

/** The workerd processes running (the marketplace's), by pid. */
export function workerdPids(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!.endsWith("workerd");
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** CPU time (user + system) of the processes, in ms; null where /proc cannot tell. */
function cpuMsOf(pids: number[]): number | null {
  try {
    const ticks = pids.reduce((sum, pid) => {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return sum + Number(fields[11]) + Number(fields[12]);
    }, 0);
    // Linux counts in clock ticks of 1/100 s.
    return ticks * 10;
  } catch {
    return null;
  }
}

/** The highest resident memory the processes have had (VmHWM), in MB. */
function peakMbOf(pids: number[]): number | null {
  try {
    return pids.reduce(
      (sum, pid) => sum + Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024,
      0,
    );
  } catch {
    return null;
  }
}

const pixel = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

export async function measureRenditions(
  { appUrl, supabaseUrl }: Marketplace,
  account: { email: string; password: string; cookie: string },
): Promise<RenditionFigures> {
  const client = createClient(supabaseUrl, localDefaults.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error: signInError } = await client.auth.signInWithPassword({ email: account.email, password: account.password });
  if (signInError) throw new Error(`Signing in to the backend failed: ${signInError.message}`);
  const master = fourMinuteWav();
  const title = `Rendition bench ${Date.now()}`;
  const form = new FormData();
  for (const [name, value] of Object.entries({
    title,
    genre: "Rock",
    price: "1.99",
    releaseDate: new Date().toISOString().slice(0, 10),
    description: "Four minutes, to time its stream",
  })) {
    form.append(name, value);
  }
  form.append("artwork", new File([pixel], "cover.png", { type: "image/png" }));
  form.append("audio", new File([master], "four-minutes.wav", { type: "audio/wav" }));

  const pids = workerdPids();
  const before = peakMbOf(pids);
  const started = performance.now();
  const published = await fetch(`${appUrl}/dashboard/artist/upload?type=single`, {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { Cookie: account.cookie, Origin: appUrl },
  });
  await published.body?.cancel();
  if (published.status !== 303) throw new Error(`Publishing answered ${published.status}`);
  const publishMs = performance.now() - started;
  const cpuAtPublish = cpuMsOf(pids);
  const peakAtPublish = peakMbOf(pids);

  let stream: { state: string | null; path: string | null } = { state: null, path: null };
  while (!stream.path) {
    if (stream.state === "failed") throw new Error("The bench track's stream failed");
    if (performance.now() - started > 300_000) throw new Error("The bench track had no stream after 5 minutes");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const { data } = await client.from("tracks").select("id").eq("title", title).maybeSingle();
    if (data) stream = await streamOf(client, data.id);
  }
  const readyMs = performance.now() - started;
  const cpuAtReady = cpuMsOf(pids);
  const { data: rendition, error } = await client.storage.from("tracks").download(stream.path);
  if (error) throw new Error(`Reading the rendition failed: ${error.message}`);
  return {
    masterBytes: master.length,
    renditionBytes: rendition.size,
    publishMs,
    readyMs,
    cpuMs: cpuAtReady === null || cpuAtPublish === null ? null : cpuAtReady - cpuAtPublish,
    peakMb: before === null || peakAtPublish === null ? null : { before, published: peakAtPublish, ready: peakMbOf(pids) ?? 0 },
  };
}

export function printRenditions(figures: RenditionFigures) {
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(`\nStreaming renditions (a four-minute 16-bit 44.1 kHz stereo WAV, published with the upload form)
  Bytes a play costs: master ${mb(figures.masterBytes)} MB, rendition ${mb(figures.renditionBytes)} MB: 1/${(figures.masterBytes / figures.renditionBytes).toFixed(1)} (goal ≤ 1/5)
  Publish (the form's POST, ${mb(figures.masterBytes)} MB through the Worker): ${(figures.publishMs / 1000).toFixed(1)} s; Publish → Ready: ${(figures.readyMs / 1000).toFixed(1)} s; the job after publishing (queue delivery, reading, encoding, storing): ${((figures.readyMs - figures.publishMs) / 1000).toFixed(1)} s
  CPU of workerd from the publish's answer to Ready (the job): ${figures.cpuMs === null ? "not measurable here" : `${(figures.cpuMs / 1000).toFixed(1)} s`}
  workerd's peak resident memory: ${figures.peakMb ? `${figures.peakMb.before.toFixed(0)} MB before, ${figures.peakMb.published.toFixed(0)} MB after publishing, ${figures.peakMb.ready.toFixed(0)} MB after the job` : "not measurable here"}`);
}
