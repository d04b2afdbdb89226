import { data, href, Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { HistoryChart } from "~/components/studio/history-chart";
import { StatCard } from "~/components/studio/stat-card";
import { DashboardHeader } from "~/components/layout/dashboard-header";
import { Card } from "~/components/ui/card";
import { DataTable } from "~/components/ui/data-table";
import { PillNav } from "~/components/ui/pill-nav";
import { albumPath, trackEditPath } from "~/lib/catalog/catalog";
import { invokeFunction } from "~/lib/backend/backend.server";
import { formatCount, formatCountry, formatDayRange, formatPrice, requestLocale } from "~/lib/format";
import { requireArtist } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { supabaseContext } from "~/lib/session/session.server";
import {
  analyticsPeriod,
  analyticsPeriods,
  AnalyticsSchema,
  defaultAnalyticsPeriod,
  type Analytics,
} from "../../../supabase/functions/_shared/analytics";
import type { Route } from "./+types/analytics";

export const meta = () => pageMeta("Analytics", "Your sales, plays and listeners over time.");

const analyticsPath = href("/dashboard/artist/analytics");

/**
 * One backend round trip: the artist-analytics Edge Function, called as the artist (their JWT), shapes the
 * period's figures from the database's daily rollups. The period is in the URL, so every view is a link.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  const period = analyticsPeriod(new URL(request.url).searchParams.get("period")) ?? analyticsPeriod(defaultAnalyticsPeriod)!;
  const analytics = await invokeFunction(context.get(supabaseContext), "artist-analytics", { period: period.id }, AnalyticsSchema);
  // Spec section 8: an analytics load error replaces the page's content.
  if (!analytics.ok) throw data("Unable to load analytics. Please try again later.", { status: 502 });
  return { analytics: analytics.data, locale: requestLocale(request) };
}

export default function AnalyticsPage({ loaderData }: Route.ComponentProps) {
  const { analytics, locale } = loaderData;
  const period = analyticsPeriod(analytics.period)!;
  const range = formatDayRange(analytics.from, analytics.to, locale);
  const per = analytics.bucket === "day" ? "per day" : "per week";
  const against = `against the ${period.days} days before`;
  const bars = (value: (point: Analytics["history"][number]) => number) =>
    analytics.history.map((point) => ({ label: formatDayRange(point.start, point.end, locale), value: value(point) }));
  const best = (value: (point: Analytics["history"][number]) => number) =>
    analytics.history.reduce<Analytics["history"][number] | null>((top, point) => (!top || value(point) > value(top) ? point : top), null);
  const bestRevenue = best((point) => point.revenue);
  const bestPlays = best((point) => point.plays);

  return (
    <section>
      <DashboardHeader title="Analytics">
        {period.label}: {range}
      </DashboardHeader>

      <PillNav
        label="Period"
        items={analyticsPeriods.map((choice) => ({
          to: `${analyticsPath}?period=${choice.id}`,
          label: choice.label,
          current: choice.id === analytics.period,
        }))}
      />

      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Totals">
        <StatCard
          label="Revenue"
          value={formatPrice(analytics.revenue.total, analytics.currency)}
          trend={analytics.revenue.trend}
          against={against}
        />
        <StatCard label="Downloads" value={formatCount(analytics.downloads.total)} trend={analytics.downloads.trend} against={against} />
        <StatCard label="Streams" value={formatCount(analytics.streams.total)} trend={analytics.streams.trend} against={against} />
        <StatCard label="Sales" value={formatCount(analytics.sales.total)} trend={analytics.sales.trend} against={against} />
      </ul>

      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <HistoryChart
          title={`Revenue ${per}`}
          bars={bars((point) => point.revenue)}
          format={(amount) => formatPrice(amount, analytics.currency)}
          summary={
            bestRevenue && bestRevenue.revenue > 0
              ? `${formatPrice(analytics.revenue.total, analytics.currency)} in all; the best ${analytics.bucket} was ${formatDayRange(bestRevenue.start, bestRevenue.end, locale)} with ${formatPrice(bestRevenue.revenue, analytics.currency)}.`
              : "No sales in this period."
          }
        />
        <HistoryChart
          title={`Plays ${per}`}
          bars={bars((point) => point.plays)}
          format={formatCount}
          summary={
            bestPlays && bestPlays.plays > 0
              ? `${formatCount(analytics.streams.total)} plays in all; the busiest ${analytics.bucket} was ${formatDayRange(bestPlays.start, bestPlays.end, locale)} with ${formatCount(bestPlays.plays)}.`
              : "No plays in this period."
          }
        />
      </div>

      <details className="mt-4 rounded-2xl border border-stage-700 bg-stage-850 p-5">
        <summary className="cursor-pointer font-semibold">The figures {per}, as a table</summary>
        <div className="mt-3 overflow-x-auto">
          <DataTable
            framed={false}
            caption={`Revenue, plays and downloads ${per}, ${range}`}
            rows={analytics.history}
            rowKey={(point) => point.start}
            columns={[
              { heading: analytics.bucket === "day" ? "Day" : "Week", cell: (point) => formatDayRange(point.start, point.end, locale) },
              { heading: "Revenue", figures: true, cell: (point) => formatPrice(point.revenue, analytics.currency) },
              { heading: "Plays", figures: true, cell: (point) => formatCount(point.plays) },
              { heading: "Downloads", figures: true, cell: (point) => formatCount(point.downloads) },
            ]}
          />
        </div>
      </details>

      <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="text-xl font-bold">Top sellers</h2>
          {analytics.topSellers.length === 0 ? (
            <p className="mt-3 text-ink-muted">No plays or sales in this period.</p>
          ) : (
            <div className="mt-3">
              <DataTable
                framed={false}
                rows={analytics.topSellers}
                rowKey={(item) => item.id}
                columns={[
                  { heading: "Item", cell: (item) => <TopSeller item={item} /> },
                  { heading: "Sales", figures: true, cell: (item) => formatCount(item.sales) },
                  { heading: "Plays", figures: true, cell: (item) => (item.kind === "merch" ? "—" : formatCount(item.plays)) },
                  { heading: "Revenue", figures: true, cell: (item) => formatPrice(item.revenue, analytics.currency) },
                ]}
              />
              {/* The same count as the totals above, Payments and Your Tracks: the ledger's. */}
              <p className="mt-3 text-sm text-ink-muted">
                Sales count each item of an order once, as Payments and Your Tracks do: an album is one sale, and so are two shirts in one
                order. A refund is taken off on the day it was made.
              </p>
            </div>
          )}
        </Card>

        <Card>
          <h2 className="text-xl font-bold">Where your listeners are</h2>
          <Geography geography={analytics.geography} />
        </Card>

        <Card>
          <h2 className="text-xl font-bold">Sites that embed your music</h2>
          {analytics.embeds.length === 0 ? (
            <p className="mt-3 text-ink-muted">No plays in embedded players in this period.</p>
          ) : (
            <div className="mt-3">
              <DataTable
                framed={false}
                rows={analytics.embeds}
                rowKey={(site) => site.origin}
                columns={[
                  { heading: "Site", className: "break-all", cell: (site) => new URL(site.origin).host },
                  { heading: "Plays", figures: true, cell: (site) => formatCount(site.plays) },
                ]}
              />
            </div>
          )}
        </Card>
      </div>
    </section>
  );
}

const sellerKind = { album: "Album", single: "Single", merch: "Merch" } as const;

/** A release or merch item that sold, with what it is; a single links to its track's edit page, an album to its page. */
function TopSeller({ item }: { item: Analytics["topSellers"][number] }) {
  const to = item.kind === "album" ? albumPath(item.id) : item.track_id ? trackEditPath(item.track_id) : null;
  return (
    <>
      {to ? (
        <Link to={to} className="hover:text-accent hover:underline">
          {item.title}
        </Link>
      ) : (
        item.title
      )}
      <span className="block text-xs text-ink-faint">{sellerKind[item.kind]}</span>
    </>
  );
}

/** Countries by plays and downloads, each with a bar for its share of the busiest. */
function Geography({ geography }: { geography: Analytics["geography"] }) {
  if (geography.length === 0) return <p className="mt-3 text-ink-muted">No listeners in this period.</p>;
  const busiest = Math.max(...geography.map((country) => country.plays + country.downloads));
  return (
    <div className="mt-3">
      <DataTable
        framed={false}
        rows={geography}
        rowKey={(country) => country.country ?? "unknown"}
        columns={[
          {
            heading: "Country",
            cell: (country) => (
              <>
                {formatCountry(country.country)}
                <svg aria-hidden="true" className="mt-1 block h-1.5 w-full">
                  <rect width="100%" height="100%" rx="3" className="fill-stage-700" />
                  <rect
                    width={`${Math.round(((country.plays + country.downloads) / busiest) * 100)}%`}
                    height="100%"
                    rx="3"
                    className="fill-accent"
                  />
                </svg>
              </>
            ),
          },
          { heading: "Plays", figures: true, cell: (country) => formatCount(country.plays) },
          { heading: "Downloads", figures: true, cell: (country) => formatCount(country.downloads) },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
