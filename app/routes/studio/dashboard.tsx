import { Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireArtist } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/dashboard";

export const meta = () => pageMeta("Artist dashboard", "Your music, store, analytics and payouts.");

export function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  return { displayName: artist.displayName };
}

/** The studio's screens that exist so far; the dashboard's other tiles come with their screens. */
const tiles = [
  { to: "/dashboard/artist/upload", title: "Upload Music", description: "Publish a single, an album or merchandise." },
  { to: "/dashboard/artist/tracks", title: "Your Tracks", description: "Everything you have published, with its plays." },
  { to: "/dashboard/artist/media", title: "Media Manager", description: "Your artwork and product images." },
  { to: "/dashboard/artist/store", title: "Store Settings", description: "Pricing tiers, discount codes and bundles." },
  { to: "/dashboard/artist/payments", title: "Payment Settings", description: "Your PayPal email, minimum price and withdrawals." },
];

export default function ArtistDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <section>
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">Artist dashboard</p>
      <h1 className="mt-2 text-4xl font-bold">Welcome back, {loaderData.displayName}</h1>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {tiles.map((tile) => (
          <li key={tile.to}>
            <Link
              to={tile.to}
              className="flex h-full flex-col rounded-2xl border border-stage-600 bg-stage-850 p-5 transition-colors hover:border-accent"
            >
              <span className="text-lg font-semibold text-ink">{tile.title}</span>
              <span className="mt-1 text-sm text-ink-muted">{tile.description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
