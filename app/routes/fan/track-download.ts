import { data, redirect } from "react-router";
import { isUuid } from "~/lib/catalog/catalog";
import { uncached } from "~/lib/http/http-cache";
import { trackFileName } from "~/lib/media/downloads";
import { requireUser } from "~/lib/session/guards.server";
import { signedFile, takeDownloads } from "./downloads.server";
import type { Route } from "./+types/track-download";

/**
 * A track's file, as uploaded, for its artist or someone who bought it: a redirect to a minute-long
 * signed address that saves it as `Artist - Title.ext`. A visitor signs in first and comes back here.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isUuid(params.id)) throw data("Track not found", { status: 404, headers: uncached });
  requireUser(request, context);
  const [file] = await takeDownloads(context, { track: params.id });
  throw redirect(await signedFile(context, file!.path, trackFileName(file!)), { status: 302, headers: uncached });
}
