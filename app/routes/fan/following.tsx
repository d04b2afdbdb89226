import { href, Link } from "react-router";
import { ProfileImage } from "~/components/catalog/artist-image";
import { FollowButton, useFollow } from "~/components/catalog/follow-button";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LinkButton } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { readOrThrow } from "~/lib/backend/backend.server";
import { artistPath, countOf } from "~/lib/catalog/catalog";
import { requireFan } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { FollowedArtistsSchema, type FollowedArtistSummary } from "~/lib/schemas/fan-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/following";

export const meta = () => pageMeta("Following", "The artists you follow, newest first.");

/** How many followed artists the page lists (the newest); the count on the dashboard is the full one. */
const listLimit = 200;

/** The artists the fan follows, newest first (the followers index by fan and date). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  const following = readOrThrow(
    await context
      .get(supabaseContext)
      .from("followers")
      .select("created_at, artist:artist_profiles(id, artist_name, profile_image_url, short_description, follower_count)")
      .eq("fan_id", fan.id)
      .order("created_at", { ascending: false })
      .limit(listLimit),
    { what: "followed artists", schema: FollowedArtistsSchema },
  );
  return { following };
}

export default function Following({ loaderData }: Route.ComponentProps) {
  const { following } = loaderData;
  return (
    <>
      <DashboardHeader title="Following" kicker="Your music" dashboard={href("/dashboard/fan")}>
        The artists you follow, newest first.
      </DashboardHeader>
      {following.length === 0 ? (
        <EmptyState title="You are not following anyone yet" action={<LinkButton to={href("/discover")}>Discover Artists</LinkButton>} />
      ) : (
        <ul aria-label="Artists you follow" className="divide-y divide-stage-700 rounded-2xl border border-stage-700 bg-stage-850">
          {following.map(({ artist }) => (
            <FollowedArtist key={artist.id} artist={artist} />
          ))}
        </ul>
      )}
    </>
  );
}

function FollowedArtist({ artist }: { artist: FollowedArtistSummary }) {
  const follow = useFollow(artist.id, true, artist.follower_count);
  return (
    <li className="flex items-center gap-4 p-3">
      <ProfileImage name={artist.artist_name} src={artist.profile_image_url} className="size-14 shrink-0 rounded-full" />
      <div className="min-w-0 flex-1">
        <Link to={artistPath(artist.id)} className="block truncate font-semibold text-ink hover:text-accent hover:underline">
          {artist.artist_name}
        </Link>
        <p className="truncate text-sm text-ink-muted">{artist.short_description ?? countOf(follow.followerCount, "follower")}</p>
      </div>
      <FollowButton follow={follow} artistName={artist.artist_name} />
    </li>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
