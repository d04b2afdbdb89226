import { describe, expect, it } from "vitest";
import { formatDate, formatDuration, formatPrice, formatTimeAgo, formatTrend, genreLabel, requestLocale } from "~/lib/format";

describe("formatPrice", () => {
  it("writes dollars with two decimals", () => {
    expect(formatPrice(1.29)).toBe("$1.29");
    expect(formatPrice(1)).toBe("$1.00");
    expect(formatPrice("0.99")).toBe("$0.99");
    expect(formatPrice(1234.5)).toBe("$1,234.50");
  });
});

describe("formatTimeAgo", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it("says 'just now' under a minute, also for a clock slightly ahead", () => {
    expect(formatTimeAgo(ago(0), now)).toBe("just now");
    expect(formatTimeAgo(ago(59), now)).toBe("just now");
    expect(formatTimeAgo(ago(-5), now)).toBe("just now");
  });

  it("counts minutes, hours, days under 30, then months", () => {
    expect(formatTimeAgo(ago(60), now)).toBe("1m ago");
    expect(formatTimeAgo(ago(59 * 60 + 59), now)).toBe("59m ago");
    expect(formatTimeAgo(ago(3600), now)).toBe("1h ago");
    expect(formatTimeAgo(ago(23 * 3600), now)).toBe("23h ago");
    expect(formatTimeAgo(ago(86400), now)).toBe("1d ago");
    expect(formatTimeAgo(ago(29 * 86400), now)).toBe("29d ago");
    expect(formatTimeAgo(ago(30 * 86400), now)).toBe("1mo ago");
    expect(formatTimeAgo(ago(400 * 86400), now)).toBe("13mo ago");
  });
});

describe("formatTrend", () => {
  it("signs a change, and calls a figure that had nothing before new", () => {
    expect(formatTrend(12.5)).toBe("+12.5%");
    expect(formatTrend(-3)).toBe("−3%");
    expect(formatTrend(0)).toBe("0%");
    expect(formatTrend(null)).toBe("New");
  });
});

describe("formatDuration", () => {
  it("writes m:ss", () => {
    expect(formatDuration(0)).toBe("0:00");
    expect(formatDuration(7.9)).toBe("0:07");
    expect(formatDuration(65)).toBe("1:05");
    expect(formatDuration(4504)).toBe("75:04");
  });

  it("shows 0:00 for an unknown length", () => {
    expect(formatDuration(Number.NaN)).toBe("0:00");
    expect(formatDuration(-3)).toBe("0:00");
  });
});

describe("formatDate", () => {
  it("writes a calendar date the reader's way, never shifted by a time zone", () => {
    expect(formatDate("2026-03-04", "en-US")).toBe("March 4, 2026");
    expect(formatDate("2026-03-04", "en-GB")).toBe("4 March 2026");
    expect(formatDate("2026-03-04", "de-DE")).toBe("4. März 2026");
  });
});

describe("requestLocale", () => {
  const request = (acceptLanguage?: string) =>
    new Request("https://crate.test/", { headers: acceptLanguage ? { "Accept-Language": acceptLanguage } : {} });

  it("takes the first language the browser prefers", () => {
    expect(requestLocale(request("de-DE,de;q=0.9,en;q=0.8"))).toBe("de-DE");
    expect(requestLocale(request("fr"))).toBe("fr");
  });

  it("skips wildcards and nonsense, and falls back to en-US", () => {
    expect(requestLocale(request("*, en-GB"))).toBe("en-GB");
    expect(requestLocale(request("not a tag!!"))).toBe("en-US");
    expect(requestLocale(request())).toBe("en-US");
  });
});

describe("genreLabel", () => {
  it("shows a genre as it is, and 'Uncategorized' when there is none", () => {
    expect(genreLabel("Jazz")).toBe("Jazz");
    for (const missing of [null, undefined, "", "  "]) expect(genreLabel(missing)).toBe("Uncategorized");
  });
});
