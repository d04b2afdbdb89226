import { data, href, redirect, type RouterContextProvider } from "react-router";
import { vouchedHeaders } from "~/lib/backend/marketplace-client.server";
import * as v from "valibot";
import { read } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { cloudflareContext } from "~/lib/http/context.server";
import { envFrom } from "~/lib/http/env.server";
import { readReceiptPass } from "~/lib/http/signed-values.server";
import { requireUser } from "~/lib/session/guards.server";
import { uncached } from "~/lib/http/http-cache";
import { downloadFormatOf, type DownloadFormat } from "~/lib/media/downloads";
import { queueDownloads } from "~/lib/media/rendition-queue.server";
import { count, nullableText } from "~/lib/schemas/columns";
import { vouchedClient } from "~/lib/session/session.server";
import { objectPath, storageRequester } from "~/lib/uploads/storage-request.server";

// Taking home what one owns: the database says which files the reader may take (13_downloads.sql: the
// artist, or a buyer) and records each buyer's download; Storage signs each file for a minute, for this
// reader as the marketplace asks (its policies: the artist's own folder, or a master the reader bought,
// or a file made of it), and the marketplace reads it and hands the bytes on under the file's own name. No
// link to a stored file ever leaves the marketplace, so a removed purchase or a ban ends access at once.
// A file in a made format (MP3, FLAC) is made by the rendition queue the first time someone asks for it;
// until then the download page (/download/{kind}/{id}) says so. Nothing here is ever cached.

const notYours = "Only the artist and those who bought it can download this.";
const tryAgain = "The download could not be prepared. Please try again.";
const tooMany = "You have asked for many downloads in the last hour. Please try again later.";

const DownloadedFilesSchema = v.pipe(
  v.array(
    v.object({
      track: v.string(),
      // None while a made file is being made.
      path: nullableText,
      title: v.string(),
      artist_name: v.string(),
      album_title: nullableText,
      track_number: v.nullable(count),
      state: v.picklist(["preparing", "ready", "failed"]),
      requested: v.boolean(),
      // Its size and CRC-32, once known (an album's zip names them before each file).
      size: v.nullable(count),
      crc32: v.nullable(count),
    }),
  ),
  v.minLength(1),
);

export type DownloadOf = { track: string } | { release: string };

/** What answers a download that cannot be given (403, 404, 429): by default the error page itself. */
type Refuse = (status: 403 | 404 | 429, message: string) => never;

const refuseWithPage: Refuse = (status, message) => {
  throw data(message, { status, headers: uncached });
};

/**
 * Who is downloading: the holder of a guest's receipt link (`?receipt=`, signed by the Worker: the guest
 * order it names, which the marketplace vouches for to the database), or else a signed-in user (a visitor
 * is sent to log in). The made formats' page carries the link on.
 */
export async function requireDownloader(
  request: Request,
  context: Readonly<RouterContextProvider>,
  format: DownloadFormat,
  refuse: Refuse = refuseWithPage,
) {
  const pass = new URL(request.url).searchParams.get("receipt");
  const guestOrder = pass ? ((await readReceiptPass(envFrom(context).MARKETPLACE_SECRET, pass))?.orderId ?? null) : null;
  if (pass && !guestOrder) refuse(403, "This receipt link has lapsed. Log in to find your purchases.");
  return pass && guestOrder ? { guestOrder, pass, user: null } : { guestOrder: null, pass: null, user: requireUser(request, context) };
}

/**
 * The files the reader may take of a track or of a release in `format`, in order, or `refuse`d. `take`:
 * each a download recorded, once every one is ready; otherwise only whether they are. Files asked for the
 * first time are queued to be made.
 */
export async function takeDownloads(
  context: Readonly<RouterContextProvider>,
  of: DownloadOf,
  {
    format,
    take,
    refuse = refuseWithPage,
    guestOrder,
  }: { format: DownloadFormat; take: boolean; refuse?: Refuse; guestOrder?: string | null },
) {
  // A receipt link's holder asks for the guest order it names; an account for its own purchases.
  const backend = vouchedClient(context, { guestOrder });
  const { country: requestCountry, env } = context.get(cloudflareContext);
  const country = requestCountry ?? undefined;
  const result = await ("track" in of
    ? backend.rpc("download_track", { track_id: of.track, country, format, take })
    : backend.rpc("download_release", { release_id: of.release, country, format, take }));
  if (result.error?.code === sqlState.insufficientPrivilege) refuse(403, notYours);
  if (result.error?.code === sqlState.noDataFound) refuse(404, "This track does not have an audio file");
  if (result.error?.code === sqlState.limitReached) refuse(429, tooMany);
  const files = read(result, { what: "files to download", schema: DownloadedFilesSchema, describe: () => tryAgain });
  if (files.status !== "found") throw data(tryAgain, { status: 503, headers: uncached });
  const asked = files.data.filter((file) => file.requested);
  // Only a made format is ever asked for (the original is always ready).
  if (format !== "original" && asked.length > 0) {
    await queueDownloads(
      env.RENDITIONS,
      asked.map((file) => ({ trackId: file.track, format })),
    );
  }
  return files.data;
}

type DownloadFile = v.InferOutput<typeof DownloadedFilesSchema>[number];

/**
 * Has a release's MP3s made ahead of the first request, off the response (a fan who just got it finds
 * them ready): asking takes nothing, and what is made already is not made again.
 */
export function prepareAhead(context: Readonly<RouterContextProvider>, of: DownloadOf): void {
  context.get(cloudflareContext).ctx.waitUntil(
    takeDownloads(context, of, { format: "mp3", take: false }).then(
      () => undefined,
      // A release without audio answers that there is nothing to take, which is no failure.
      (error: unknown) => {
        if (error instanceof Error) console.error("preparing downloads ahead failed", of, error);
      },
    ),
  );
}

/** Whether every file is ready to take (each then names its stored file). */
export const allReady = (files: DownloadFile[]): files is (DownloadFile & { path: string })[] =>
  files.every((file) => file.state === "ready" && file.path !== null);

/** A download address's format, or `refuse`d (404) for one not on offer. */
export function requestedFormat(request: Request, refuse: Refuse = refuseWithPage): DownloadFormat {
  const format = downloadFormatOf(new URL(request.url));
  return format ?? refuse(404, "This format is not on offer");
}

/** The download page of a track or a release: it says what is being prepared, or why a download cannot be given. */
const downloadPagePath = (of: DownloadOf) =>
  "track" in of
    ? href("/download/:kind/:id", { kind: "track", id: of.track })
    : href("/download/:kind/:id", { kind: "album", id: of.release });

/** The page that says a download is being prepared, and starts it when it is ready. */
export function preparingPath(of: DownloadOf, format: DownloadFormat, receipt: string | null = null): string {
  return `${downloadPagePath(of)}?${new URLSearchParams({ format, ...(receipt ? { receipt } : {}) })}`;
}

/** The address that downloads the files (the page links to it once they are ready). */
export function downloadPath(of: DownloadOf, format: DownloadFormat, receipt: string | null = null): string {
  const path = "track" in of ? href("/track/:id/download", { id: of.track }) : href("/album/:id/download", { id: of.release });
  const query = new URLSearchParams({ ...(format === "original" ? {} : { format }), ...(receipt ? { receipt } : {}) });
  return query.size > 0 ? `${path}?${query}` : path;
}

/**
 * The reader's stored files as the marketplace reads them for the reader (the session read once, for every
 * file of an album): each signed for a minute, as the marketplace asks (Storage's policy for buyers answers
 * no one else), and fetched here, `range` passed on. The signed address never leaves the Worker.
 */
export async function storedFiles(context: Readonly<RouterContextProvider>, guestOrder?: string | null) {
  const storage = await storageRequester(context, { visitor: Boolean(guestOrder) });
  const env = envFrom(context);
  const vouched = vouchedHeaders(env, { guestOrder });
  return async (path: string, range?: string | null): Promise<Response> => {
    const signing = await storage?.(`/object/sign/tracks/${objectPath(path)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...vouched },
      body: JSON.stringify({ expiresIn: 60 }),
    });
    const signed = signing?.ok ? v.safeParse(SignedSchema, await signing.json()) : null;
    if (!signed?.success) {
      console.error("signing a download failed", path, signing?.status);
      throw data(tryAgain, { status: 502, headers: uncached });
    }
    const file = await fetch(`${env.SUPABASE_URL}/storage/v1${signed.output.signedURL}`, { headers: range ? { Range: range } : {} });
    if (!file.ok || !file.body) {
      await file.body?.cancel();
      console.error("reading a download failed", path, file.status);
      throw data(tryAgain, { status: 502, headers: uncached });
    }
    return file;
  };
}

const SignedSchema = v.object({ signedURL: v.pipe(v.string(), v.startsWith("/object/sign/")) });

/**
 * How a download address (a file, not a page) refuses: it sends the reader to the download page, which
 * answers the same request as a page (403 with the way to buy, 404 for a format not on offer, 429), never
 * a bare message.
 */
export function refuseWithDownloadPage(of: DownloadOf, request: Request): Refuse {
  return () => {
    throw redirect(`${downloadPagePath(of)}${new URL(request.url).search}`, { status: 303, headers: uncached });
  };
}
