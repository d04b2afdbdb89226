import { redirect } from "react-router";
import { isUuid } from "~/lib/catalog/catalog";
import { uncached } from "~/lib/http/http-cache";
import { attachment, trackFileName } from "~/lib/media/downloads";
import {
  allReady,
  preparingPath,
  refuseWithDownloadPage,
  requestedFormat,
  requireDownloader,
  storedFiles,
  takeDownloads,
} from "./downloads.server";
import type { Route } from "./+types/track-download";

/** What a file's answer passes on from Storage's (a resumed download asks for a Range). */
const passedOn = ["Content-Type", "Content-Length", "Content-Range", "Accept-Ranges", "Last-Modified", "ETag"];

/**
 * A track's file, as uploaded or in `?format=` (mp3, flac), for its artist or someone who bought it: the
 * file itself, read from Storage for the reader and saved under its exact title, `Artist - Title.ext`
 * (`filename` and `filename*`: Storage's own name is percent-encoded twice through supabase-js, and curl
 * reads only `filename`); while a made format is being made, a redirect to the page that says so. What
 * cannot be given goes to that page too, which answers it as a page. A visitor signs in first and comes
 * back here.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const of = { track: params.id };
  const refuse = refuseWithDownloadPage(of, request);
  if (!isUuid(params.id)) refuse(404, "Track not found");
  const format = requestedFormat(request, refuse);
  const { guestOrder, pass } = await requireDownloader(request, context, format, refuse);
  const files = await takeDownloads(context, of, { format, take: true, refuse, guestOrder });
  if (!allReady(files)) throw redirect(preparingPath(of, format, pass), { status: 303, headers: uncached });
  const [file] = files;
  const stored = await (await storedFiles(context, guestOrder))(file!.path, request.headers.get("Range"));
  const headers = new Headers({ ...uncached, "Content-Disposition": attachment(trackFileName(file!)) });
  for (const name of passedOn) {
    const value = stored.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(stored.body, { status: stored.status, headers });
}
