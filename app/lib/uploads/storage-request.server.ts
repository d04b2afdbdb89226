import type { RouterContextProvider } from "react-router";
import { envFrom } from "../http/env.server";
import { imageHeadLength, storedImageSize } from "../media/image-size";
import { imageFiles, sniffLength, type UploadBucket } from "../media/media-files";
import { supabaseContext } from "../session/session.server";

/**
 * Requests to Storage's HTTP API (`/storage/v1…`) as the signed-in user, for what storage-js cannot send:
 * resumable uploads passed on, and Range reads of a file's first bytes. The session is read once (from
 * the cookie, refreshed if close to expiring); null when there is none, unless `visitor` (a guest's
 * receipt link), when the requests go as a visitor (the anon key).
 */
export async function storageRequester(context: Readonly<RouterContextProvider>, { visitor = false }: { visitor?: boolean } = {}) {
  const env = envFrom(context);
  const { data } = visitor ? { data: { session: null } } : await context.get(supabaseContext).auth.getSession();
  if (!data.session && !visitor) return null;
  const authorization = `Bearer ${data.session?.access_token ?? env.SUPABASE_ANON_KEY}`;
  return (path: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit | null } = {}) =>
    fetch(`${env.SUPABASE_URL}/storage/v1${path}`, {
      method: init.method ?? "GET",
      body: init.body ?? null,
      headers: { ...init.headers, Authorization: authorization, apikey: env.SUPABASE_ANON_KEY },
    });
}

/**
 * Reads `length` bytes of a stored object from `start` as the signed-in user, with the object's whole size;
 * fewer bytes at its end; null when there is no such object (yet).
 */
export type StoredBytes = (
  bucket: UploadBucket,
  path: string,
  start: number,
  length: number,
) => Promise<{ bytes: Uint8Array; size: number } | null>;

/** A stored object's path as Storage's HTTP API takes it: each segment percent-encoded. */
export const objectPath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

export async function storedBytes(context: Readonly<RouterContextProvider>): Promise<StoredBytes> {
  const storage = await storageRequester(context);
  return async (bucket, path, start, length) => {
    if (!storage) return null;
    const response = await storage(`/object/authenticated/${bucket}/${objectPath(path)}`, {
      headers: { Range: `bytes=${start}-${start + length - 1}` },
    });
    if (response.status === 416) return { bytes: new Uint8Array(0), size: start };
    if (!response.ok) {
      console.error("reading an uploaded file's bytes failed", bucket, path, response.status, await response.text());
      return null;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const size = Number(/\/(\d+)$/.exec(response.headers.get("content-range") ?? "")?.[1] ?? bytes.length);
    return { bytes: bytes.subarray(0, length), size };
  };
}

/**
 * Reads a stored object's first bytes as the signed-in user: enough to tell an audio file's type, and an
 * image's type and size (`imageHeadLength`), unless `length` asks for more; fewer when the file is
 * shorter; null when there is no such object (yet).
 */
export type FirstBytes = (bucket: UploadBucket, path: string, length?: number) => Promise<Uint8Array | null>;

export async function storedFirstBytes(context: Readonly<RouterContextProvider>): Promise<FirstBytes> {
  const read = await storedBytes(context);
  return async (bucket, path, length = bucket === "artwork" ? imageHeadLength : sniffLength) =>
    (await read(bucket, path, 0, length))?.bytes ?? null;
}

/** The size of an uploaded image whose first bytes are `head` (reading the rest only if its header runs on). */
export const storedArtworkSize = (firstBytes: FirstBytes, path: string, head: Uint8Array) =>
  storedImageSize(head, () => firstBytes("artwork", path, imageFiles.maxBytes));
