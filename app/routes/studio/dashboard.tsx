import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireArtist } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/dashboard";

export const meta = () => pageMeta("Artist dashboard", "Your music, store, analytics and payouts.");

export function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  return { displayName: artist.displayName };
}

export default function ArtistDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">Artist dashboard</p>
      <h1 className="mt-2 text-4xl font-bold">Welcome back, {loaderData.displayName}</h1>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
