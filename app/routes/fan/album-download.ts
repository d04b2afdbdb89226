import { data, redirect } from "react-router";
import { isUuid } from "~/lib/catalog/catalog";
import { uncached } from "~/lib/http/http-cache";
import { albumFileNames, attachment } from "~/lib/media/downloads";
import { zipStream } from "~/lib/media/zip";
import { requireUser } from "~/lib/session/guards.server";
import { allReady, preparingPath, requestedFormat, signedFile, takeDownloads } from "./downloads.server";
import type { Route } from "./+types/album-download";

/**
 * An album's files, as uploaded or in `?format=` (mp3, flac; while they are being made, a redirect to the
 * page that says so), in one zip (`Artist - Album.zip`, a folder of `01 Title.ext`): all its
 * tracks for its artist, those bought for a buyer. Streamed: each file is signed and read only when its
 * turn comes and passes straight into the archive, so the Worker holds a few pieces, never the album.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw data("Album not found", { status: 404, headers: uncached });
  const format = requestedFormat(request);
  requireUser(request, context);
  const of = { release: params.id };
  const files = await takeDownloads(context, of, { format, take: true });
  if (!allReady(files)) throw redirect(preparingPath(of, format), { status: 303, headers: uncached });
  const names = albumFileNames(files);
  const entries = files.map((file, index) => ({
    name: names.entries[index]!,
    open: async () => {
      const response = await fetch(await signedFile(context, file.path));
      if (!response.ok || !response.body) throw new Error(`reading ${file.path} for a zip failed: ${response.status}`);
      return response.body;
    },
  }));
  return new Response(zipStream(entries), {
    headers: { ...uncached, "Content-Type": "application/zip", "Content-Disposition": attachment(names.zip) },
  });
}
