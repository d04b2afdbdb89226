import { href, Link } from "react-router";
import { DashboardSection } from "~/components/layout/dashboard-header";
import { ArtistGrid } from "~/components/catalog/artist-card";
import { Artwork } from "~/components/catalog/artist-image";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { LinkButton } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { readOrThrow } from "~/lib/backend/backend.server";
import { artistPath, fanPath, trackPath } from "~/lib/catalog/catalog";
import { formatCount, genreLabel } from "~/lib/format";
import { ReleaseCards } from "~/components/catalog/release-cards";
import { requireFan } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { FanDashboardSchema, type RecommendedRelease } from "~/lib/schemas/fan-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/dashboard";

export const meta = () => pageMeta("Your Music", "Your purchases, the artists you follow and what you played recently.");

/** Everything on the dashboard in one backend round trip (`fan_dashboard()`, row-level security deciding). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const fan = requireFan(request, context);
  const dashboard = readOrThrow(await context.get(supabaseContext).rpc("fan_dashboard"), {
    what: "fan dashboard",
    schema: FanDashboardSchema,
  });
  return { displayName: fan.displayName, fanId: fan.id, dashboard };
}

export default function FanDashboard({ loaderData }: Route.ComponentProps) {
  const { displayName, fanId, dashboard } = loaderData;
  const cards = [
    { to: href("/dashboard/fan/purchased"), label: "Purchased Tracks", count: dashboard.purchased_count },
    { to: href("/dashboard/fan/following"), label: "Following", count: dashboard.following_count },
    { to: href("/dashboard/fan/recent"), label: "Recently Played", count: dashboard.recent_count, note: "in the last 30 days" },
  ];
  return (
    <section>
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">Signed in as {displayName}</p>
      <h1 className="mt-2 text-4xl font-bold">Your Music</h1>

      <ul className="mt-8 grid gap-4 sm:grid-cols-3" aria-label="Your numbers">
        {cards.map((card) => (
          <li key={card.to}>
            <Link
              to={card.to}
              className="flex h-full flex-col rounded-2xl border border-stage-600 bg-stage-850 p-5 transition-colors hover:border-accent"
            >
              <span className="text-sm text-ink-muted">{card.label}</span>
              <span className="mt-1 text-3xl font-bold text-ink tabular-nums">{formatCount(card.count)}</span>
              {card.note ? <span className="text-sm text-ink-faint">{card.note}</span> : null}
            </Link>
          </li>
        ))}
      </ul>

      <nav aria-label="Your settings" className="mt-6 flex flex-wrap gap-3">
        {/* The fan's public page holds their collection and wishlist, as others see them and as they do. */}
        <LinkButton to={`${fanPath(fanId)}#wishlist`} variant="secondary">
          Your collection and wishlist
        </LinkButton>
        <LinkButton to={href("/dashboard/fan/memberships")} variant="secondary">
          Memberships
        </LinkButton>
        <LinkButton to={href("/dashboard/fan/payments")} variant="secondary">
          Payment Settings
        </LinkButton>
        <LinkButton to={href("/dashboard/fan/profile")} variant="secondary">
          Edit Profile
        </LinkButton>
        <LinkButton to={href("/dashboard/fan/settings")} variant="secondary">
          Account settings
        </LinkButton>
      </nav>

      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <DashboardSection
          id="library-heading"
          title="Your library"
          more={dashboard.library.length > 0 ? { to: href("/dashboard/fan/purchased"), label: "All purchases" } : null}
        >
          {dashboard.library.length === 0 ? (
            <div className="mt-3">
              <EmptyState title="Your library is empty" action={<LinkButton to={href("/discover")}>Find Music</LinkButton>} />
            </div>
          ) : (
            <ul className="mt-3 grid grid-cols-2 gap-4 sm:grid-cols-3">
              {dashboard.library.map((track) => (
                <li key={track.id}>
                  <Link to={trackPath(track.id)} className="group block">
                    <Artwork src={track.artwork_url} className="aspect-square w-full rounded-xl" />
                    <span className="mt-2 block truncate font-semibold text-ink group-hover:text-accent">{track.title}</span>
                  </Link>
                  <Link to={artistPath(track.artist_id)} className="block truncate text-sm leading-6 text-ink-muted hover:text-ink">
                    {track.artist_name}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </DashboardSection>

        <DashboardSection id="recommendations-heading" title="Recommended for you">
          {dashboard.recommended_releases.length === 0 && dashboard.recommendations.length === 0 ? (
            <div className="mt-3">
              <EmptyState title="Nothing to recommend yet" action={<LinkButton to={href("/discover")}>Browse Artists</LinkButton>}>
                {dashboard.following_count > 0
                  ? "We will suggest more once the artists you follow, and others like them, release new music."
                  : "Pick your favourite genres, follow a few artists or buy something you love, and we will suggest more."}
              </EmptyState>
            </div>
          ) : (
            <div className="mt-3 grid gap-6">
              {dashboard.recommended_releases.length > 0 ? (
                <ReleaseCards releases={dashboard.recommended_releases} noteOf={reasonFor} label="Recommended releases" />
              ) : null}
              {dashboard.recommendations.length > 0 ? (
                <ArtistGrid
                  artists={dashboard.recommendations}
                  noteOf={(artist) => (artist.because ? `Because you like ${genreLabel(artist.because)}` : null)}
                />
              ) : null}
            </div>
          )}
        </DashboardSection>
      </div>
    </section>
  );
}

/** Why a release is recommended, in the fan's words. */
function reasonFor(release: RecommendedRelease): string {
  switch (release.reason) {
    case "bought":
      return `Fans who bought ${release.because} bought this`;
    case "follow":
      return `Because you follow ${release.because}`;
    case "like":
      return `Because you liked ${release.because}`;
    case "genre":
      return `Because you play a lot of ${genreLabel(release.because)}`;
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
