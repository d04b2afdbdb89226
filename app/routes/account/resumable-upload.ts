import { href } from "react-router";
import { storageErrorMessage } from "~/lib/backend/errors";
import { audioFiles, bytesAre, expectedUpload, imageFiles, sniffLength, type AudioType, type ImageType } from "~/lib/media/media-files";
import type { SessionUser } from "~/lib/session/session-user";
import { userContext } from "~/lib/session/session.server";
import { storageRequester } from "~/lib/uploads/storage-request.server";
import type { Route } from "./+types/resumable-upload";

// Resource route: the upload form's resumable uploads (TUS), passed on to Storage's own endpoint
// (/storage/v1/upload/resumable) as the signed-in artist. The session stays in its HttpOnly cookie (the
// browser never holds a token) and everything Storage keeps goes through checks of ours first:
// - creating an upload: only the artist's own folder, at a path `storagePath` makes, with the type its
//   extension stands for, within the spec's size limit, cache 3600 s and never overwriting;
// - the first bytes (offset 0): judged by their magic numbers before Storage sees them; an HTML page
//   named `.mp3` is refused with 'Unsupported file type' and its upload ended, so nothing is stored;
// - an upload's id names its object (base64url of `bucket/object name/version`, as Storage makes it):
//   any request about another user's upload is answered 404 here, before Storage is asked, so nobody
//   learns another upload's state or touches it;
// - every other request is passed on as it came, and Storage's policies decide again.
// Answers are TUS's own, with Storage's locations turned into ours and errors as the spec's messages.

const resumablePath = "/upload/resumable";
const ownPath = href("/uploads/resumable/:uploadId?");
/** tus-js-client's chunk is 6 MB (Supabase's required size); a first chunk is read whole to be judged. */
const largestFirstChunk = 8 * 1024 * 1024;

const passedOn = ["Upload-Offset", "Upload-Length", "Upload-Expires", "Upload-Metadata", "Tus-Resumable", "Tus-Version", "Tus-Extension"];

export async function loader(args: Route.LoaderArgs) {
  return resumable(args);
}

export async function action(args: Route.ActionArgs) {
  return resumable(args);
}

async function resumable({ request, params, context }: Route.LoaderArgs | Route.ActionArgs): Promise<Response> {
  const user = context.get(userContext);
  if (!user) return refusal(401);
  const storage = await storageRequester(context);
  if (!storage) return refusal(401);
  const upstream: Upstream = (path, method, headers = {}, body = null) =>
    storage(`${resumablePath}${path}`, { method, body, headers: { ...headers, "Tus-Resumable": "1.0.0" } });

  const uploadId = params.uploadId;
  if (request.method === "POST" && !uploadId) return create(request, user, upstream);
  if (!uploadId || !/^[\w-]+$/.test(uploadId) || !isOwnUpload(uploadId, user.id)) return refusal(404);
  const path = `/${uploadId}`;
  if (request.method === "HEAD" || request.method === "GET") return answer(await upstream(path, "HEAD"));
  if (request.method === "DELETE") return answer(await upstream(path, "DELETE"));
  if (request.method !== "PATCH") return refusal(405);

  const headers = { "Content-Type": "application/offset+octet-stream", "Upload-Offset": request.headers.get("Upload-Offset") ?? "" };
  if (headers["Upload-Offset"] !== "0") {
    return answer(await upstream(path, "PATCH", headers, request.body));
  }
  // The first bytes: what the upload was created as, then whether the bytes are that.
  const state = await upstream(path, "HEAD");
  if (!state.ok) return answer(state);
  const metadata = parseMetadata(state.headers.get("Upload-Metadata"));
  const expected = expectedUpload(user.id, metadata.bucketName ?? "", metadata.objectName ?? "");
  const length = request.headers.get("Content-Length");
  if (!expected || length === null || !(Number(length) <= largestFirstChunk)) return refusal(400);
  const chunk = new Uint8Array(await request.arrayBuffer());
  if (!bytesAre(chunk.subarray(0, sniffLength), expected)) {
    await upstream(path, "DELETE");
    return refusal(415);
  }
  return answer(await upstream(path, "PATCH", headers, chunk));
}

/** Whether the upload's id names an object this user may upload: in their own folder, at a path we make. */
function isOwnUpload(uploadId: string, userId: string): boolean {
  const parts = decodeBase64(uploadId.replace(/-/g, "+").replace(/_/g, "/")).split("/");
  parts.pop(); // the version
  const [bucket = "", ...name] = parts;
  return expectedUpload(userId, bucket, name.join("/")) !== null;
}

type Upstream = (path: string, method: string, headers?: Record<string, string>, body?: BodyInit | null) => Promise<Response>;

async function create(request: Request, user: SessionUser, upstream: Upstream) {
  const metadata = parseMetadata(request.headers.get("Upload-Metadata"));
  const bucket = metadata.bucketName ?? "";
  const objectName = metadata.objectName ?? "";
  const expected = expectedUpload(user.id, bucket, objectName);
  // Audio is for artists (Storage's policies say so too); pictures are for everyone signed in.
  if (!expected || (bucket === "tracks" && user.role !== "artist")) return refusal(403);
  if (metadata.contentType !== expected.mime) return refusal(415);
  const length = Number(request.headers.get("Upload-Length"));
  if (!Number.isSafeInteger(length) || length <= 0) return refusal(400);
  if (length > limitsOf(expected).maxBytes) return refusal(413, limitsOf(expected).tooLarge);
  // Data sent with the creation request would skip the first-bytes check: uploads start empty.
  if (Number(request.headers.get("Content-Length") ?? "0") > 0) return refusal(400);

  const created = await upstream("", "POST", {
    "Upload-Length": String(length),
    "Upload-Metadata": encodeMetadata({ bucketName: bucket, objectName, contentType: expected.mime, cacheControl: "3600" }),
    "x-upsert": "false",
  });
  return answer(created);
}

const limitsOf = (type: AudioType | ImageType) => (type.mime.startsWith("audio/") ? audioFiles : imageFiles);

/** Storage's answer as ours: TUS headers kept, its location turned into this route's, errors as the spec says them. */
async function answer(response: Response): Promise<Response> {
  if (!response.ok) {
    const detail = await response.text();
    console.error("resumable upload refused by Storage", response.status, detail);
    return refusal(response.status, storageErrorMessage({ status: response.status, message: detail }));
  }
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const name of passedOn) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const location = response.headers.get("Location");
  if (location) headers.set("Location", `${ownPath}/${location.split("/").at(-1)}`);
  return new Response(null, { status: response.status, headers });
}

/** A refusal tus-js-client shows as is: the status, and the spec's message as the body. */
function refusal(status: number, message = storageErrorMessage({ status })): Response {
  return new Response(message, {
    status,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Tus-Resumable": "1.0.0" },
  });
}

/** TUS metadata: `key base64(value)` pairs separated by commas. */
function parseMetadata(header: string | null): Record<string, string> {
  const entries = (header ?? "")
    .split(",")
    .map((pair) => pair.trim().split(" "))
    .filter(([key]) => key);
  return Object.fromEntries(entries.map(([key = "", value = ""]) => [key, decodeBase64(value)]));
}

function decodeBase64(value: string): string {
  try {
    return new TextDecoder().decode(Uint8Array.from(atob(value), (character) => character.charCodeAt(0)));
  } catch {
    return "";
  }
}

function encodeMetadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${btoa(String.fromCharCode(...new TextEncoder().encode(value)))}`)
    .join(",");
}
