import { data, href, type RouterContextProvider } from "react-router";
import * as v from "valibot";
import { read } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { cloudflareContext } from "~/lib/http/context.server";
import { marketplaceHeader } from "~/lib/http/env.server";
import { uncached } from "~/lib/http/http-cache";
import { downloadFormatOf, type DownloadFormat } from "~/lib/media/downloads";
import { queueDownloads } from "~/lib/media/rendition-queue.server";
import { count, nullableText } from "~/lib/schemas/columns";
import { supabaseContext } from "~/lib/session/session.server";

// Taking home what one owns: the database says which files the reader may take (13_downloads.sql: the
// artist, or a buyer) and records each buyer's download; Storage signs each file for a minute, for this
// reader alone (its policies: the artist's own folder, or a master the reader bought, or a file made of
// it). A file in a made format (MP3, FLAC) is made by the rendition queue the first time someone asks for
// it; until then the download page (/download/{kind}/{id}) says so. Nothing here is ever cached.

const notYours = "Only the artist and those who bought it can download this.";
const tryAgain = "The download could not be prepared. Please try again.";

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
    }),
  ),
  v.minLength(1),
);

export type DownloadOf = { track: string } | { release: string };

/**
 * The files the reader may take of a track or of a release in `format`, in order, or the answer saying why
 * not. `take`: each a download recorded, once every one is ready; otherwise only whether they are. Files
 * asked for the first time are queued to be made.
 */
export async function takeDownloads(
  context: Readonly<RouterContextProvider>,
  of: DownloadOf,
  { format, take }: { format: DownloadFormat; take: boolean },
) {
  const supabase = context.get(supabaseContext);
  const { country: requestCountry, env } = context.get(cloudflareContext);
  const country = requestCountry ?? undefined;
  const call =
    "track" in of
      ? supabase.rpc("download_track", { track_id: of.track, country, format, take })
      : supabase.rpc("download_release", { release_id: of.release, country, format, take });
  const result = await call.setHeader(...marketplaceHeader(context));
  if (result.error?.code === sqlState.insufficientPrivilege) throw data(notYours, { status: 403, headers: uncached });
  if (result.error?.code === sqlState.noDataFound) throw data("This track does not have an audio file", { status: 404, headers: uncached });
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

/** A download address's format, or 404 for one not on offer. */
export function requestedFormat(request: Request): DownloadFormat {
  const format = downloadFormatOf(new URL(request.url));
  if (!format) throw data("This format is not on offer", { status: 404, headers: uncached });
  return format;
}

/** The page that says a download is being prepared, and starts it when it is ready. */
export function preparingPath(of: DownloadOf, format: DownloadFormat): string {
  const path =
    "track" in of
      ? href("/download/:kind/:id", { kind: "track", id: of.track })
      : href("/download/:kind/:id", { kind: "album", id: of.release });
  return `${path}?format=${format}`;
}

/** The address that downloads the files (the page links to it once they are ready). */
export function downloadPath(of: DownloadOf, format: DownloadFormat): string {
  const path = "track" in of ? href("/track/:id/download", { id: of.track }) : href("/album/:id/download", { id: of.release });
  return format === "original" ? path : `${path}?format=${format}`;
}

/** A file's signed address for a minute: `name` makes it download under that name rather than open. */
export async function signedFile(context: Readonly<RouterContextProvider>, path: string, name?: string): Promise<string> {
  const { data: signed, error } = await context
    .get(supabaseContext)
    .storage.from("tracks")
    .createSignedUrl(path, 60, name ? { download: name } : undefined);
  if (error || !signed) {
    console.error("signing a download failed", path, error);
    throw data(tryAgain, { status: 502, headers: uncached });
  }
  return signed.signedUrl;
}
