import { useEffect, useRef } from "react";
import { data, href, useParams, useRevalidator } from "react-router";
import { AccessDenied, errorMessage, GeneralErrorBoundary, SomethingWentWrong } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { LinkButton } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { isUuid } from "~/lib/catalog/catalog";
import { uncached } from "~/lib/http/http-cache";
import { downloadLabel } from "~/lib/media/downloads";
import { dashboardPath } from "~/lib/session/redirects";
import { pageMeta } from "~/lib/sharing/meta";
import { downloadPath, requestedFormat, requireDownloader, takeDownloads } from "./downloads.server";
import type { Route } from "./+types/download";

export const meta = () => pageMeta("Preparing your download", "Your download is being prepared; it starts by itself when it is ready.");

/** How often the page asks whether the files are ready, with JavaScript (without, it reloads itself as often). */
const checkEverySeconds = 3;

/**
 * A download in a made format (MP3, FLAC) that is not ready yet: the download address sends the fan here,
 * and this page has the files made (the first time they are asked for), says how far along they are,
 * and starts the download the moment they are ready: with JavaScript it asks again every few seconds
 * without a reload; without, it reloads itself and then goes to the file. Asking takes nothing (the
 * download is recorded when the file is taken).
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if ((params.kind !== "track" && params.kind !== "album") || !isUuid(params.id)) {
    throw data("Download not found", { status: 404, headers: uncached });
  }
  const format = requestedFormat(request);
  // A guest's receipt link (its downloads are as uploaded), or a signed-in user.
  const { guestOrder, pass, user } = await requireDownloader(request, context, format);
  const of = params.kind === "track" ? { track: params.id } : { release: params.id };
  const files = await takeDownloads(context, of, { format, take: false, guestOrder });
  const [first] = files;
  const ready = files.filter((file) => file.state === "ready").length;
  return data(
    {
      title: params.kind === "album" ? (first!.album_title ?? first!.title) : first!.title,
      artist: first!.artist_name,
      format: format === "original" ? "the format it was uploaded in" : downloadLabel(format),
      total: files.length,
      ready,
      state: files.some((file) => file.state === "failed") ? "failed" : ready === files.length ? "ready" : "preparing",
      download: downloadPath(of, format, pass),
      original: downloadPath(of, "original", pass),
      back:
        user === null
          ? href("/receipt/:pass", { pass })
          : user.role === "fan"
            ? href("/dashboard/fan/purchased")
            : dashboardPath(user.role),
    },
    { headers: uncached },
  );
}

export default function PreparingDownload({ loaderData }: Route.ComponentProps) {
  const { title, artist, format, total, ready, state, download, original, back } = loaderData;
  const revalidator = useRevalidator();
  // The download starts by itself once this page has waited for it; a page opened when the files were
  // ready already offers the button.
  const waited = useRef(false);
  useEffect(() => {
    if (state === "preparing") {
      waited.current = true;
      const timer = window.setInterval(() => void revalidator.revalidate(), checkEverySeconds * 1000);
      return () => window.clearInterval(timer);
    }
    if (state === "ready" && waited.current) {
      // A file saved as an attachment: the page stays, and says it has started.
      waited.current = false;
      window.location.assign(download);
    }
    return undefined;
  }, [state, download, revalidator]);
  return (
    <>
      {/* Without JavaScript the page asks again by reloading itself, and goes to the file once it is ready. */}
      {state === "failed" ? null : (
        <noscript>
          <meta httpEquiv="refresh" content={state === "ready" ? `0;url=${download}` : String(checkEverySeconds)} />
        </noscript>
      )}
      <DashboardHeader
        title={
          state === "ready" ? "Your download is ready" : state === "failed" ? "This download could not be made" : "Preparing your download"
        }
        kicker="Your music"
        dashboard={back}
      >
        {title} by {artist}, in {format}.
      </DashboardHeader>
      <Card role="status" className="grid max-w-xl gap-4">
        {state === "failed" ? (
          <p className="text-ink-muted">
            Something went wrong while making the {format} files. Please try again in an hour, or take the files as their artist uploaded
            them.
          </p>
        ) : (
          <>
            <p className="text-ink-muted">
              {state === "ready"
                ? "If your download does not start by itself, use the button below."
                : `We are making the ${format} ${total === 1 ? "file" : "files"} for you, once: your download starts by itself when ${total === 1 ? "it is" : "they are"} ready. You may leave this page and come back.`}
            </p>
            <div className="grid gap-1">
              <label htmlFor="download-progress" className="text-sm font-semibold text-ink">
                {ready} of {total} {total === 1 ? "file" : "files"} ready
              </label>
              <progress
                id="download-progress"
                value={ready}
                max={total}
                className="h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-accent [&::-webkit-progress-bar]:bg-stage-700 [&::-webkit-progress-value]:bg-accent"
              />
            </div>
          </>
        )}
        <div className="flex flex-wrap gap-3">
          {state === "ready" ? (
            <LinkButton to={download} reloadDocument>
              Download {title}
            </LinkButton>
          ) : null}
          {state === "failed" ? (
            <LinkButton to={original} reloadDocument>
              Download as uploaded
            </LinkButton>
          ) : null}
          <LinkButton to={back} variant="secondary">
            {back === href("/dashboard/fan/purchased") ? "Back to Purchased" : "Back to your dashboard"}
          </LinkButton>
        </div>
      </Card>
    </>
  );
}

/** A download refused: not the reader's (403, with the way to buy it), a format not on offer (404), or too many at once (429). */
export function ErrorBoundary() {
  const { kind, id } = useParams();
  const page = kind === "album" ? href("/album/:id", { id: id ?? "" }) : href("/track/:id", { id: id ?? "" });
  return (
    <GeneralErrorBoundary
      statusHandlers={{
        403: ({ error }) => <AccessDenied message={errorMessage(error)} also={{ to: `${page}?buy=1`, label: "Buy it" }} />,
        429: ({ error }) => <SomethingWentWrong message={errorMessage(error)} />,
      }}
    />
  );
}
