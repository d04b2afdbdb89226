import { redirect } from "react-router";
import { isUuid } from "~/lib/catalog/catalog";
import { uncached } from "~/lib/http/http-cache";
import { albumFileNames, attachment } from "~/lib/media/downloads";
import { zipStream } from "~/lib/media/zip";
import {
  allReady,
  preparingPath,
  refuseWithDownloadPage,
  requestedFormat,
  requireDownloader,
  storedFiles,
  takeDownloads,
} from "./downloads.server";
import type { Route } from "./+types/album-download";

/**
 * An album's files, as uploaded or in `?format=` (mp3, flac; while they are being made, a redirect to the
 * page that says so), in one zip (`Artist - Album.zip`, a folder of `01 Title.ext`): all its
 * tracks for its artist, those bought for a buyer. Streamed: each file is signed and read only when its
 * turn comes and passes straight into the archive, so the Worker holds a few pieces, never the album; its
 * size and CRC-32, kept since it was stored or made, go in its header, so nothing is checksummed here.
 * What cannot be given goes to the download page, which answers it as a page.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const of = { release: params.id };
  const refuse = refuseWithDownloadPage(of, request);
  if (!isUuid(params.id)) refuse(404, "Album not found");
  const format = requestedFormat(request, refuse);
  const { guestOrder, pass } = await requireDownloader(request, context, format, refuse);
  const files = await takeDownloads(context, of, { format, take: true, refuse, guestOrder });
  if (!allReady(files)) throw redirect(preparingPath(of, format, pass), { status: 303, headers: uncached });
  const names = albumFileNames(files);
  const stored = await storedFiles(context, guestOrder);
  const entries = files.map((file, index) => ({
    name: names.entries[index]!,
    size: file.size,
    crc: file.crc32,
    open: async () => (await stored(file.path)).body!,
  }));
  return new Response(zipStream(entries), {
    headers: { ...uncached, "Content-Type": "application/zip", "Content-Disposition": attachment(names.zip) },
  });
}
