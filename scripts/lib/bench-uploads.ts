// Uploads of a 50 MB WAV through the local stack, as the studio's upload form sends them:
// - a plain upload (one request with the whole file, what supabase-js's upload() sends), for the baseline;
// - resumable (TUS, 6 MB chunks, tus-js-client) straight to Storage, and through the Worker's route (what
//   the form uses), each as MB/s and as a ratio to the plain upload in the same run;
// - a connection cut at 50% through the Worker's route (a TCP relay in front of it drops the connection
//   once half the file's bytes have gone through it, mid-chunk), then resumed: how many bytes were sent
//   again (what went out before the cut that the server did not keep; the goal is at most one chunk).
import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { createClient } from "@supabase/supabase-js";
import { Upload } from "tus-js-client";
import { localDefaults } from "@crate/local-supabase";
import { encodeWav } from "@crate/local-supabase/media";
import type { Marketplace } from "./marketplace.ts";

const chunkSize = 6 * 1024 * 1024;
const megabyte = 1024 * 1024;

export type UploadFigures = {
  fileBytes: number;
  plainMs: number;
  directMs: number;
  workerMs: number;
  cutAtBytes: number;
  serverHadBytes: number;
  resentBytes: number;
};

type Target = { endpoint: string; headers: Record<string, string>; objectName: string };

/** Resolves with the upload's address when it is done, or when it failed (a cut connection) and stopped. */
function resumable(file: Buffer, { endpoint, headers, objectName }: Target, options: { uploadUrl?: string; failing?: boolean } = {}) {
  return new Promise<string>((resolve, reject) => {
    const upload: Upload = new Upload(file, {
      endpoint,
      uploadUrl: options.uploadUrl,
      headers,
      chunkSize,
      retryDelays: [],
      metadata: { bucketName: "tracks", objectName, contentType: "audio/wav", cacheControl: "3600" },
      onSuccess: () => resolve(upload.url ?? ""),
      onError: (error) => (options.failing ? resolve(upload.url ?? "") : reject(error)),
    });
    upload.start();
  });
}

/**
 * A TCP relay to `target` that drops the connection carrying the byte number `cutAt` (counted over
 * everything clients send through it), as a train going into a tunnel would; later connections pass.
 */
async function cuttingRelay(target: URL, cutAt: number) {
  let forwarded = 0;
  let cut = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    }
    client.on("data", (data: Buffer) => {
      if (!cut && forwarded + data.length >= cutAt) {
        cut = true;
        upstream.write(data.subarray(0, cutAt - forwarded));
        forwarded = cutAt;
        client.destroy();
        upstream.destroy();
        return;
      }
      forwarded += data.length;
      upstream.write(data);
    });
    upstream.on("data", (data: Buffer) => client.write(data));
    client.on("close", () => upstream.end());
    upstream.on("close", () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded: () => forwarded,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function measureUploads(
  marketplace: Marketplace,
  account: { email: string; password: string; cookie: string },
): Promise<UploadFigures> {
  const { appUrl, supabaseUrl } = marketplace;
  const client = createClient(supabaseUrl, localDefaults.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await client.auth.signInWithPassword({ email: account.email, password: account.password });
  if (error || !data.session) throw new Error(`Signing in to the backend failed: ${error?.message}`);
  const artistId = data.user.id;
  const token = data.session.access_token;
  // Just under Storage's 50 MB limit: a mono 16-bit WAV of a quiet tone.
  const frames = Math.floor((50 * megabyte - 1024) / 2);
  const file = Buffer.from(encodeWav(Float32Array.from({ length: frames }, (_, i) => Math.sin(i / 20) * 0.2)));
  const pathOf = (label: string) => `${artistId}/${Date.now()}-${label}.wav`;
  const direct = {
    endpoint: `${supabaseUrl}/storage/v1/upload/resumable`,
    headers: { Authorization: `Bearer ${token}`, apikey: localDefaults.anonKey },
  };
  // The Worker's route takes only paths the form makes: `{id}/{13-digit time}-{8 hex}.{ext}`.
  const formPath = () => `${artistId}/${Date.now()}-${crypto.randomUUID().slice(0, 8)}.wav`;
  const viaWorker = { endpoint: `${appUrl}/uploads/resumable`, headers: { Cookie: account.cookie } };

  const plainMs = await timed(async () => {
    const response = await fetch(`${supabaseUrl}/storage/v1/object/tracks/${pathOf("plain")}`, {
      method: "POST",
      body: file,
      headers: { ...direct.headers, "Content-Type": "audio/wav", "Cache-Control": "max-age=3600" },
    });
    if (!response.ok) throw new Error(`Plain upload answered ${response.status}: ${await response.text()}`);
  });
  const directMs = await timed(() => resumable(file, { ...direct, objectName: pathOf("direct") }));
  const workerMs = await timed(() => resumable(file, { ...viaWorker, objectName: formPath() }));

  const objectName = formPath();
  const relay = await cuttingRelay(new URL(appUrl), file.length / 2);
  try {
    const viaRelay = { ...viaWorker, endpoint: `${relay.url}/uploads/resumable` };
    const uploadUrl = await resumable(file, { ...viaRelay, objectName }, { failing: true });
    const sentBeforeCut = relay.forwarded();
    const state = await fetch(uploadUrl, { method: "HEAD", headers: { ...viaWorker.headers, "Tus-Resumable": "1.0.0" } });
    const serverHadBytes = Number(state.headers.get("Upload-Offset"));
    await resumable(file, { ...viaRelay, objectName }, { uploadUrl });
    return {
      fileBytes: file.length,
      plainMs,
      directMs,
      workerMs,
      cutAtBytes: sentBeforeCut,
      serverHadBytes,
      resentBytes: Math.max(0, sentBeforeCut - serverHadBytes),
    };
  } finally {
    await relay.close();
  }
}

export function printUploads(figures: UploadFigures): void {
  const rate = (ms: number) => `${(figures.fileBytes / megabyte / (ms / 1000)).toFixed(1)} MB/s`;
  const mb = (bytes: number) => `${(bytes / megabyte).toFixed(2)} MB`;
  console.log(`\nUpload of a ${mb(figures.fileBytes)} WAV through the local stack (6 MB chunks)\n`);
  console.log("| how | time | speed | ÷ plain upload |\n|---|---|---|---|");
  for (const [how, ms] of [
    ["plain upload (one request)", figures.plainMs],
    ["resumable (TUS), straight to Storage", figures.directMs],
    ["resumable (TUS), through the Worker's route (the upload form)", figures.workerMs],
  ] as const) {
    console.log(`| ${how} | ${(ms / 1000).toFixed(2)} s | ${rate(ms)} | ${(ms / figures.plainMs).toFixed(2)}× |`);
  }
  console.log(
    `\nConnection cut at 50% (${mb(figures.cutAtBytes)} on the wire, headers included), through the Worker: the server had kept ${mb(figures.serverHadBytes)}; resumed from there, ${mb(figures.resentBytes)} sent again (goal: at most one chunk, ${mb(chunkSize)}).`,
  );
}
