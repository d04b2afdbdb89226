import { href } from "react-router";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { TrackList } from "~/components/fan/track-list";
import { LinkButton } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Pagination } from "~/components/ui/pagination";
import { readOrThrow } from "~/lib/backend/backend.server";
import { formatTimeAgo } from "~/lib/format";
import { requireUser } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { firstPageIfPastTheEnd, pageCount, pageFrom } from "~/lib/ui/paging";
import { LikesSchema, trackSummaryColumns } from "~/lib/schemas/fan-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/liked";

export const meta = () => pageMeta("Liked Songs", "The tracks you liked, newest first.");

const pageSize = 50;

/** The user's liked tracks, newest first (their own rows only; the likes index by user and date). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const url = new URL(request.url);
  const page = pageFrom(url);
  const from = (page - 1) * pageSize;
  const read = await context
    .get(supabaseContext)
    .from("likes")
    .select(`created_at, track:tracks(${trackSummaryColumns})`, { count: "exact" })
    .eq("user_id", user.id)
    .order("created_at", { ascending: false })
    .range(from, from + pageSize - 1);
  firstPageIfPastTheEnd(read.error, url);
  const likes = readOrThrow(read, { what: "liked songs", schema: LikesSchema });
  return { likes, page, pages: pageCount(read.count ?? 0, pageSize), now: Date.now() };
}

export default function LikedSongs({ loaderData }: Route.ComponentProps) {
  const { likes, page, pages, now } = loaderData;
  const items = likes.flatMap(({ created_at, track }) =>
    track ? [{ key: track.id, track, detail: <time dateTime={created_at}>Liked {formatTimeAgo(created_at, now)}</time> }] : [],
  );
  return (
    <>
      <DashboardHeader title="Liked Songs" kicker="Your library" dashboard={href("/")}>
        The tracks you liked, newest first. Like a track with the heart on its page.
      </DashboardHeader>
      {items.length === 0 ? (
        <EmptyState title="No liked songs yet" action={<LinkButton to={href("/discover")}>Find Music</LinkButton>} />
      ) : (
        <TrackList label="Liked songs" items={items} />
      )}
      <Pagination path={href("/liked")} page={page} pages={pages} />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
