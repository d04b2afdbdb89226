import { href } from "react-router";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { TrackList } from "~/components/fan/track-list";
import { LinkButton } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { readOrThrow } from "~/lib/backend/backend.server";
import { formatTimeAgo } from "~/lib/format";
import { requireFan, requireUser } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { PlaysSchema, trackSummaryColumns } from "~/lib/schemas/fan-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/recent";

export const meta = () => pageMeta("Recently Played", "What you listened to in the last 30 days.");

/** Spec section 9: the last 30 days, 30 plays at most. */
const days = 30;
const limit = 30;

/**
 * The user's plays of the last 30 days, newest first (the events index by listener, type and date). The
 * sidebar's /recent is for any signed-in user; /dashboard/fan/recent is the fan dashboard's, for fans.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const inFanSpace = new URL(request.url).pathname.startsWith(href("/dashboard/fan"));
  const user = inFanSpace ? requireFan(request, context) : requireUser(request, context);
  const plays = readOrThrow(
    await context
      .get(supabaseContext)
      .from("analytics_events")
      .select(`id, created_at, track:tracks(${trackSummaryColumns})`)
      .eq("user_id", user.id)
      .eq("type", "play")
      .gte("created_at", new Date(Date.now() - days * 86_400_000).toISOString())
      .order("created_at", { ascending: false })
      .limit(limit),
    { what: "recent plays", schema: PlaysSchema },
  );
  return { plays, inFanSpace, now: Date.now() };
}

export default function RecentlyPlayed({ loaderData }: Route.ComponentProps) {
  const { plays, inFanSpace, now } = loaderData;
  const items = plays.flatMap(({ id, created_at, track }) =>
    track ? [{ key: id, track, detail: <time dateTime={created_at}>{formatTimeAgo(created_at, now)}</time> }] : [],
  );
  return (
    <>
      <DashboardHeader title="Recently Played" kicker="Your music" dashboard={inFanSpace ? href("/dashboard/fan") : "/"}>
        What you listened to in the last {days} days.
      </DashboardHeader>
      {items.length === 0 ? (
        <EmptyState title="No recently played tracks" action={<LinkButton to={href("/discover")}>Find Music</LinkButton>} />
      ) : (
        <TrackList label="Recently played tracks" items={items} />
      )}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
