import { href, Link } from "react-router";
import { DashboardSection } from "~/components/layout/dashboard-header";
import { Artwork } from "~/components/catalog/artist-image";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { StatCard } from "~/components/studio/stat-card";
import { readOrThrow } from "~/lib/backend/backend.server";
import { envFrom } from "~/lib/http/env.server";
import { useRevalidateOnEvents } from "~/lib/backend/use-live-revalidation";
import { albumPath, trackPath } from "~/lib/catalog/catalog";
import { formatCount, formatPrice, formatTimeAgo } from "~/lib/format";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { ArtistDashboardSchema, type ArtistDashboard } from "~/lib/schemas/studio-data";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/dashboard";

export const meta = () => pageMeta("Artist dashboard", "Your music, store, analytics and payouts.");

/** Everything on the dashboard in one backend round trip (`artist_dashboard()`, row-level security deciding). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const artist = requireArtist(request, context);
  const dashboard = readOrThrow(await context.get(supabaseContext).rpc("artist_dashboard"), {
    what: "artist dashboard",
    schema: ArtistDashboardSchema,
  });
  // Times are written against the loader's clock, so the server and the browser say the same thing.
  const env = envFrom(context);
  return {
    displayName: artist.displayName,
    artistId: artist.id,
    dashboard,
    now: Date.now(),
    backend: { url: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY },
  };
}

/** The six tiles (spec section 2), in the spec's order, and Memberships. */
const tiles = [
  { to: href("/dashboard/artist/upload"), title: "Upload Music", description: "Publish a single, an album or merchandise." },
  { to: href("/dashboard/artist/media"), title: "Media Manager", description: "Your artwork and product images." },
  { to: href("/dashboard/artist/store"), title: "Store Settings", description: "Pricing tiers, discount codes and bundles." },
  { to: href("/dashboard/artist/analytics"), title: "Analytics", description: "Sales, plays and listeners over time." },
  { to: href("/dashboard/artist/payments"), title: "Payment Settings", description: "Your PayPal email, minimum price and withdrawals." },
  { to: href("/dashboard/artist/profile"), title: "Edit Profile", description: "Your name, bio, links, tour dates and picture." },
  { to: href("/dashboard/artist/memberships"), title: "Memberships", description: "Tiers fans join to support you, and your members." },
];

/** The statistics row; revenue in the artist's currency. */
const statistics = [
  { key: "revenue", label: "Revenue", format: (amount: number, currency: string) => formatPrice(amount, currency) },
  { key: "downloads", label: "Downloads", format: formatCount },
  { key: "streams", label: "Streams", format: formatCount },
  { key: "followers", label: "Followers", format: formatCount },
] as const;

const activityVerb: Record<ArtistDashboard["activity"][number]["type"], string> = {
  purchase: "bought",
  gift: "bought",
  code: "redeemed a download code for",
  download: "downloaded",
  play: "played",
  comment: "commented on",
};

export default function ArtistDashboardPage({ loaderData }: Route.ComponentProps) {
  const { displayName, dashboard, now, backend, artistId } = loaderData;
  // With JavaScript, Recent Activity and the figures follow what happens, without a reload.
  useRevalidateOnEvents(
    async (onActivity) => (await import("~/lib/backend/live-activity")).watchActivity(backend, artistId, onActivity),
    `${backend.url}:${artistId}`,
  );
  return (
    <section>
      <p className="text-sm font-semibold tracking-wider text-accent uppercase">Artist dashboard</p>
      {/* Back is for an artist with something here already; a first visit is a welcome. */}
      <h1 className="mt-2 text-4xl font-bold">
        {dashboard.library.length > 0 || dashboard.activity.length > 0 ? "Welcome back" : "Welcome"}, {displayName}
      </h1>

      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Statistics">
        {statistics.map(({ key, label, format }) => (
          <StatCard
            key={key}
            label={label}
            value={format(dashboard.stats[key].total, dashboard.currency)}
            trend={dashboard.stats[key].trend}
            against="in the last 30 days"
          />
        ))}
      </ul>

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

      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <DashboardSection
          id="library-preview"
          title="Your library"
          more={{ to: href("/dashboard/artist/tracks"), label: "View All Tracks" }}
        >
          {dashboard.library.length === 0 ? (
            <p className="mt-3 text-ink-muted">Nothing published yet.</p>
          ) : (
            <ul className="mt-3 grid gap-2">
              {dashboard.library.map((track) => (
                <li key={track.id}>
                  <Link to={trackPath(track.id)} className="flex items-center gap-3 rounded-xl p-2 hover:bg-stage-850">
                    <Artwork src={track.artwork_url} alt="" className="size-12 shrink-0 rounded-lg" />
                    <span className="min-w-0 flex-1 truncate font-medium">{track.title}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </DashboardSection>

        <DashboardSection id="recent-activity" title="Recent Activity">
          <p className="sr-only" aria-live="polite">
            {dashboard.activity[0]
              ? `Latest: ${dashboard.activity[0].username ?? "Unknown User"} ${activityVerb[dashboard.activity[0].type]} ${dashboard.activity[0].title ?? "a track"}${dashboard.activity[0].type === "gift" ? " as a gift" : ""}`
              : ""}
          </p>
          {dashboard.activity.length === 0 ? (
            <p className="mt-3 text-ink-muted">No activity yet: sales, plays and comments on your tracks show here.</p>
          ) : (
            <ol className="mt-3 grid gap-2">
              {dashboard.activity.map((item) => (
                <li key={`${item.type}-${item.id}`} className="rounded-xl border border-stage-700 bg-stage-850 p-3 text-sm">
                  <p>
                    <span className="font-semibold">{item.username ?? "Unknown User"}</span> {activityVerb[item.type]}{" "}
                    {item.quantity > 1 ? `${item.quantity} × ` : null}
                    <ActivityItem item={item} />
                    {item.type === "gift" ? " as a gift" : null}
                    {item.amount !== null ? <> for {formatPrice(item.amount, item.currency ?? dashboard.currency)}</> : null}
                    {item.refunded ? " (refunded)" : null}
                  </p>
                  {item.content ? <p className="mt-1 text-ink-muted">“{item.content}”</p> : null}
                  <p className="mt-1 text-xs text-ink-faint">
                    <time dateTime={item.created_at}>{formatTimeAgo(item.created_at, now)}</time>
                  </p>
                </li>
              ))}
            </ol>
          )}
        </DashboardSection>
      </div>
    </section>
  );
}

/** What an activity is about, linked to its page: a track's, an album's; merch has none. */
function ActivityItem({ item }: { item: ArtistDashboard["activity"][number] }) {
  const title = item.title ?? "a track";
  const to = item.album_id ? albumPath(item.album_id) : item.track_id ? trackPath(item.track_id) : null;
  if (!to) return <span className="font-semibold text-ink">{title}</span>;
  return (
    <Link to={to} className="font-semibold text-ink hover:underline">
      {title}
    </Link>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
