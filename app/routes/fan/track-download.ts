import { data, redirect } from "react-router";
import { isUuid } from "~/lib/catalog/catalog";
import { uncached } from "~/lib/http/http-cache";
import { trackFileName } from "~/lib/media/downloads";
import { requireUser } from "~/lib/session/guards.server";
import { allReady, preparingPath, requestedFormat, signedFile, takeDownloads } from "./downloads.server";
import type { Route } from "./+types/track-download";

/**
 * A track's file, as uploaded or in `?format=` (mp3, flac), for its artist or someone who bought it: a
 * redirect to a minute-long signed address that saves it as `Artist - Title.ext`, or, while a made format
 * is being made, to the page that says so. A visitor signs in first and comes back here.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw data("Track not found", { status: 404, headers: uncached });
  const format = requestedFormat(request);
  requireUser(request, context);
  const of = { track: params.id };
  const files = await takeDownloads(context, of, { format, take: true });
  if (!allReady(files)) throw redirect(preparingPath(of, format), { status: 303, headers: uncached });
  const [file] = files;
  throw redirect(await signedFile(context, file!.path, trackFileName(file!)), { status: 302, headers: uncached });
}
