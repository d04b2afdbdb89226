import { href, Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { EmptyState } from "~/components/ui/empty-state";
import { LinkButton } from "~/components/ui/button";
import { Pagination } from "~/components/ui/pagination";
import { readOrThrow } from "~/lib/backend/backend.server";
import { countOf } from "~/lib/catalog/catalog";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import { StudioReleasesSchema } from "~/lib/schemas/studio-data";
import { firstPageIfPastTheEnd, pageCount, pageFrom } from "~/lib/ui/paging";
import type { Route } from "./+types/codes";

export const meta = () => pageMeta("Download Codes", "Give a release away with codes fans redeem: with a record, at a show.");

const pageSize = 50;

/** The artist's releases, newest first, each with its codes counted (one read: studio_releases()). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  const url = new URL(request.url);
  const page = pageFrom(url);
  const studio = readOrThrow(await context.get(supabaseContext).rpc("studio_releases", { page, page_size: pageSize }), {
    what: "releases",
    schema: StudioReleasesSchema,
  });
  const pages = pageCount(studio.release_count, pageSize);
  firstPageIfPastTheEnd(page > pages, url);
  return { releases: studio.releases, page, pages };
}

export default function DownloadCodes({ loaderData }: Route.ComponentProps) {
  const { releases, page, pages } = loaderData;
  return (
    <>
      <DashboardHeader title="Download Codes">
        Codes give a release away without payment: print them on a card with a record, hand them out at a show. Each works once, and a fan
        who redeems one can download the release.
      </DashboardHeader>
      {releases.length === 0 ? (
        <EmptyState title="No releases yet" action={<LinkButton to={href("/dashboard/artist/upload")}>Upload New Track</LinkButton>}>
          Codes are made for a release: publish one first.
        </EmptyState>
      ) : (
        <ul aria-label="Your releases" className="grid gap-2">
          {releases.map((release) => (
            <li key={release.id} className="flex flex-wrap items-center gap-4 rounded-2xl border border-stage-700 bg-stage-850 p-4">
              <div className="min-w-0 flex-1">
                <p className="truncate font-semibold text-ink">{release.title}</p>
                <p className="text-sm text-ink-muted">
                  {release.kind === "album" ? `Album · ${countOf(release.track_count, "track")}` : "Single"} ·{" "}
                  {release.codes === 0 ? "No codes yet" : `${countOf(release.codes, "code")}, ${release.redeemed} redeemed`}
                </p>
              </div>
              <Link
                to={href("/dashboard/artist/codes/:id", { id: release.id })}
                className="rounded-full border border-stage-600 px-4 py-2 text-sm font-semibold text-ink hover:bg-stage-800"
                aria-label={`Codes for ${release.title}`}
              >
                Codes
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pagination path={href("/dashboard/artist/codes")} page={page} pages={pages} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
