import { href } from "react-router";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { EmptyState } from "~/components/ui/empty-state";
import { requireUser } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/playlists";

export const meta = () => pageMeta("Your Playlists", "Your playlists.");

/** The spec's placeholder: playlists are not built yet. */
export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(request, context);
  return null;
}

export default function Playlists() {
  return (
    <>
      <DashboardHeader title="Your Playlists" kicker="Your library" dashboard={href("/")}>
        Collect tracks into playlists of your own.
      </DashboardHeader>
      <EmptyState title="No playlists created yet">Playlists are coming soon.</EmptyState>
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
