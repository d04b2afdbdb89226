import { data, type RouterContextProvider } from "react-router";
import * as v from "valibot";
import { read } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { cloudflareContext } from "~/lib/http/context.server";
import { marketplaceHeader } from "~/lib/http/env.server";
import { uncached } from "~/lib/http/http-cache";
import { count, nullableText } from "~/lib/schemas/columns";
import { supabaseContext } from "~/lib/session/session.server";

// Taking home what one owns: the database says which files the reader may take (13_downloads.sql: the
// artist, or a buyer) and records each buyer's download; Storage signs each file for a minute, for this
// reader alone (its policies: the artist's own folder, or a master the reader bought). Nothing here is
// ever cached.

const notYours = "Only the artist and those who bought it can download this.";
const tryAgain = "The download could not be prepared. Please try again.";

const DownloadedFilesSchema = v.pipe(
  v.array(
    v.object({
      track: v.string(),
      path: v.string(),
      title: v.string(),
      artist_name: v.string(),
      album_title: nullableText,
      track_number: v.nullable(count),
    }),
  ),
  v.minLength(1),
);

/** The files the reader may take of a track or of a release, in order (each a download recorded), or the answer saying why not. */
export async function takeDownloads(context: Readonly<RouterContextProvider>, of: { track: string } | { release: string }) {
  const supabase = context.get(supabaseContext);
  const country = context.get(cloudflareContext).country ?? undefined;
  const call =
    "track" in of
      ? supabase.rpc("download_track", { track_id: of.track, country })
      : supabase.rpc("download_release", { release_id: of.release, country });
  const result = await call.setHeader(...marketplaceHeader(context));
  if (result.error?.code === sqlState.insufficientPrivilege) throw data(notYours, { status: 403, headers: uncached });
  if (result.error?.code === sqlState.noDataFound) throw data("This track does not have an audio file", { status: 404, headers: uncached });
  const files = read(result, { what: "files to download", schema: DownloadedFilesSchema, describe: () => tryAgain });
  if (files.status !== "found") throw data(tryAgain, { status: 503, headers: uncached });
  return files.data;
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
