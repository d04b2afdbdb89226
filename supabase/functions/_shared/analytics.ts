// The analytics page's figures, shaped from the database's daily rollups and the ledger
// (public.artist_analytics): totals and trends for a period, its history per day or per week, its top
// sellers and countries, and the sites that embed the artist's music.
// Shared by the artist-analytics Edge Function (which computes them) and the app (periods and types).
// Plain TypeScript and valibot, no Deno or Worker APIs.
import * as v from "valibot";

/** The period selector (spec section 2), in the URL as `?period=`; 30 days unless another is asked for. */
export const analyticsPeriods = [
  { id: "7d", label: "Last 7 days", days: 7, bucketDays: 1 },
  { id: "30d", label: "Last 30 days", days: 30, bucketDays: 1 },
  { id: "90d", label: "Last 90 days", days: 90, bucketDays: 7 },
  { id: "1y", label: "Last year", days: 365, bucketDays: 7 },
] as const;

export type AnalyticsPeriod = (typeof analyticsPeriods)[number];
export type AnalyticsPeriodId = AnalyticsPeriod["id"];

export const defaultAnalyticsPeriod: AnalyticsPeriodId = "30d";

export function analyticsPeriod(id: unknown): AnalyticsPeriod | undefined {
  return analyticsPeriods.find((period) => period.id === id);
}

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** A day's or a bucket's revenue: the ledger's, where a refund counts on the day it was made, so a day may be below zero. */
const revenue = v.number();
const isoDay = v.pipe(v.string(), v.isoDate());

/** Sales as the ledger counts them: a line sold is one, a refund takes one off on its day (so a day may be below zero). */
const sales = v.pipe(v.number(), v.integer());

/** One day of the rollups, as the database sums them (revenue in currency units, two decimals). */
const DailyFiguresSchema = v.object({ day: isoDay, plays: count, downloads: count, sales, revenue });

/**
 * A release (an album, or a single with its track) or a merch item, with the period's sales and revenue as
 * the ledger counts them (an album sold is one sale of the album) and, for a release, its tracks' plays and downloads.
 */
const TopSellerSchema = v.object({
  kind: v.picklist(["album", "single", "merch"]),
  id: v.string(),
  track_id: v.nullable(v.string()),
  title: v.string(),
  sales,
  revenue,
  plays: count,
  downloads: count,
});

/** `country` is an ISO 3166-1 alpha-2 code, or null when the country is unknown. */
const CountryFiguresSchema = v.object({ country: v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{2}$/))), plays: count, downloads: count });

/** A site that embeds the artist's music (its origin, `https://blog.example`) and the plays there. */
const EmbedFiguresSchema = v.object({ origin: v.pipe(v.string(), v.regex(/^https?:\/\/[^/\s]+$/)), plays: count });

/** What public.artist_analytics() answers. */
export const RawAnalyticsSchema = v.object({
  today: isoDay,
  /** What the revenue is in: the artist's currency. */
  currency: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
  days: v.array(DailyFiguresSchema),
  top_sellers: v.array(TopSellerSchema),
  geography: v.array(CountryFiguresSchema),
  embeds: v.array(EmbedFiguresSchema),
});

const TotalSchema = v.object({ total: v.number(), trend: v.nullable(v.number()) });

/** What the artist-analytics function answers. History points are the days from `start` to `end`. */
export const AnalyticsSchema = v.object({
  period: v.picklist(analyticsPeriods.map((period) => period.id)),
  currency: v.string(),
  from: isoDay,
  to: isoDay,
  bucket: v.picklist(["day", "week"]),
  revenue: TotalSchema,
  downloads: TotalSchema,
  streams: TotalSchema,
  sales: TotalSchema,
  history: v.array(v.object({ start: isoDay, end: isoDay, revenue, plays: count, downloads: count })),
  topSellers: v.array(TopSellerSchema),
  geography: v.array(CountryFiguresSchema),
  embeds: v.array(EmbedFiguresSchema),
});

export type RawAnalytics = v.InferOutput<typeof RawAnalyticsSchema>;
export type Analytics = v.InferOutput<typeof AnalyticsSchema>;
export type HistoryPoint = Analytics["history"][number];

const dayMs = 86_400_000;

/** `YYYY-MM-DD` plus `days` (negative to go back), in UTC like the rollups. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/**
 * The change against the previous period as a signed percentage, one decimal; from nothing to something
 * null (new: no percentage), from nothing to nothing 0 (the same rule as the dashboard's `private.trend`).
 */
export function trend(recent: number, previous: number): number | null {
  if (previous === 0) return recent > 0 ? null : 0;
  return Math.round(((recent - previous) / previous) * 1000) / 10;
}

/** Sums money in whole cents, so a year of sales adds up to the cent. */
const cents = (amount: number) => Math.round(amount * 100);

/**
 * The page's figures for `period` from the rollups of this period and the one before. Buckets end on
 * `today`: per day for 7 and 30 days, per week for 90 days and a year (the first week may be shorter).
 */
export function shapeAnalytics(period: AnalyticsPeriod, raw: RawAnalytics): Analytics {
  const to = raw.today;
  const from = addDays(to, -(period.days - 1));
  const previousFrom = addDays(from, -period.days);

  const current = { revenue: 0, plays: 0, downloads: 0, sales: 0 };
  const previous = { revenue: 0, plays: 0, downloads: 0, sales: 0 };
  const bucketCount = Math.ceil(period.days / period.bucketDays);
  const history = Array.from({ length: bucketCount }, (_, index) => {
    const end = addDays(to, -(bucketCount - 1 - index) * period.bucketDays);
    const start = index === 0 ? from : addDays(end, -(period.bucketDays - 1));
    return { start, end, revenue: 0, plays: 0, downloads: 0 };
  });

  for (const day of raw.days) {
    if (day.day < previousFrom || day.day > to) continue;
    const sums = day.day >= from ? current : previous;
    sums.revenue += cents(day.revenue);
    sums.plays += day.plays;
    sums.downloads += day.downloads;
    sums.sales += day.sales;
    if (day.day < from) continue;
    const offset = Math.round((Date.parse(`${day.day}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / dayMs);
    // Buckets are counted back from today, so the first one holds what is left over.
    const fromEnd = period.days - 1 - offset;
    const point = history[bucketCount - 1 - Math.floor(fromEnd / period.bucketDays)];
    if (!point) continue;
    point.revenue += cents(day.revenue);
    point.plays += day.plays;
    point.downloads += day.downloads;
  }

  return {
    period: period.id,
    currency: raw.currency,
    from,
    to,
    bucket: period.bucketDays === 1 ? "day" : "week",
    revenue: { total: current.revenue / 100, trend: trend(current.revenue, previous.revenue) },
    downloads: { total: current.downloads, trend: trend(current.downloads, previous.downloads) },
    streams: { total: current.plays, trend: trend(current.plays, previous.plays) },
    sales: { total: current.sales, trend: trend(current.sales, previous.sales) },
    history: history.map((point) => ({ ...point, revenue: point.revenue / 100 })),
    topSellers: raw.top_sellers,
    geography: raw.geography,
    embeds: raw.embeds,
  };
}
