// The analytics figures as the Edge Function shapes them from the daily rollups, and the country the
// Worker records with a play.
import { describe, expect, it } from "vitest";
import { requestCountry } from "~/lib/http/context.server";
import { analyticsPeriod, shapeAnalytics, trend, type RawAnalytics } from "../../supabase/functions/_shared/analytics";

const raw = (days: RawAnalytics["days"]): RawAnalytics => ({
  today: "2026-11-23",
  currency: "GBP",
  days,
  top_sellers: [],
  geography: [],
  embeds: [],
});
const day = (date: string, plays: number, revenue = 0) => ({ day: date, plays, downloads: 0, sales: revenue > 0 ? 1 : 0, revenue });

describe("shapeAnalytics", () => {
  it("sums this period against the one before, to the cent", () => {
    const figures = shapeAnalytics(
      analyticsPeriod("7d")!,
      raw([day("2026-11-10", 5, 0.1), day("2026-11-16", 4, 0.2), day("2026-11-17", 3, 0.1), day("2026-11-23", 1, 0.2)]),
    );
    expect(figures).toMatchObject({ from: "2026-11-17", to: "2026-11-23", bucket: "day" });
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; in cents it is 30.
    expect(figures.revenue).toEqual({ total: 0.3, trend: 0 });
    expect(figures.streams).toEqual({ total: 4, trend: -55.6 }); // 4 against 9
    expect(figures.history.map((point) => point.plays)).toEqual([3, 0, 0, 0, 0, 0, 1]);
  });

  it("counts weeks back from today for 90 days, the first one shorter", () => {
    const figures = shapeAnalytics(
      analyticsPeriod("90d")!,
      raw([day("2026-08-26", 2), day("2026-08-31", 1), day("2026-09-01", 7), day("2026-11-17", 4)]),
    );
    expect(figures.bucket).toBe("week");
    expect(figures.history).toHaveLength(13);
    expect(figures.history[0]).toMatchObject({ start: "2026-08-26", end: "2026-08-31", plays: 3 });
    expect(figures.history[1]).toMatchObject({ start: "2026-09-01", end: "2026-09-07", plays: 7 });
    expect(figures.history[12]).toMatchObject({ start: "2026-11-17", end: "2026-11-23", plays: 4 });
  });

  it("leaves out days outside both periods", () => {
    const figures = shapeAnalytics(analyticsPeriod("7d")!, raw([day("2026-11-01", 50), day("2026-11-24", 50)]));
    expect(figures.streams).toEqual({ total: 0, trend: 0 });
  });
});

describe("trend", () => {
  it("is a signed percentage with one decimal; from nothing new (null), nothing to nothing 0", () => {
    expect(trend(3, 2)).toBe(50);
    expect(trend(1, 3)).toBe(-66.7);
    // from nothing: new, not a made-up +100%
    expect(trend(5, 0)).toBeNull();
    expect(trend(0, 0)).toBe(0);
  });
});

describe("requestCountry", () => {
  const request = (cf?: unknown) => Object.assign(new Request("https://example.com/"), cf === undefined ? {} : { cf });
  it("takes Cloudflare's two-letter country, and nothing it cannot vouch for", () => {
    expect(requestCountry(request({ country: "GB" }))).toBe("GB");
    expect(requestCountry(request({ country: "XX" }))).toBeNull();
    expect(requestCountry(request({ country: "T1" }))).toBeNull();
    expect(requestCountry(request({}))).toBeNull();
    expect(requestCountry(request())).toBeNull();
    expect(requestCountry(new Request("https://example.com/", { headers: { "CF-IPCountry": "FR" } }))).toBeNull();
  });
});
