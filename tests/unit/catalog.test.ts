import { describe, expect, it } from "vitest";
import { safeHttpUrl, socialProfile } from "~/lib/catalog/artist-profile";
import { containsPattern, countOf, isUuid } from "~/lib/catalog/catalog";
import { roundTripCounter } from "~/lib/backend/round-trips.server";

describe("links on public pages", () => {
  it("renders only http(s) addresses as links", () => {
    expect(safeHttpUrl("https://band.example")).toBe("https://band.example/");
    expect(safeHttpUrl("http://band.example/tour")).toBe("http://band.example/tour");
    for (const unsafe of ["javascript:alert(1)", "data:text/html,hi", "ftp://band.example", "band.example", "", null, undefined]) {
      expect(safeHttpUrl(unsafe)).toBeNull();
    }
  });

  it("shows social links as @handle, from a handle or a profile URL on that network only", () => {
    expect(socialProfile("twitter", "paperlanterns")).toEqual({
      label: "Twitter",
      handle: "@paperlanterns",
      href: "https://twitter.com/paperlanterns",
    });
    expect(socialProfile("twitter", "@paperlanterns")?.handle).toBe("@paperlanterns");
    expect(socialProfile("twitter", "https://x.com/paperlanterns/")?.handle).toBe("@paperlanterns");
    expect(socialProfile("instagram", "https://www.instagram.com/the.lanterns")?.href).toBe("https://instagram.com/the.lanterns");
    expect(socialProfile("instagram", "https://evil.example/the.lanterns")).toBeNull();
    expect(socialProfile("twitter", "javascript:alert(1)")).toBeNull();
    expect(socialProfile("twitter", "two words")).toBeNull();
    expect(socialProfile("twitter", null)).toBeNull();
  });
});

describe("small rules", () => {
  it("counts with the right plural", () => {
    expect(countOf(1, "follower")).toBe("1 follower");
    expect(countOf(0, "follower")).toBe("0 followers");
    expect(countOf(1200, "track")).toBe("1,200 tracks");
  });

  it("accepts only UUIDs as page ids", () => {
    expect(isUuid("a1000000-0000-4000-8000-000000000012")).toBe(true);
    expect(isUuid("not-an-id")).toBe(false);
    expect(isUuid(undefined)).toBe(false);
  });

  it("makes a search term a literal pattern", () => {
    expect(containsPattern("lan")).toBe("%lan%");
    expect(containsPattern("100%_\\")).toBe("%100\\%\\_\\\\%");
  });
});

describe("roundTripCounter", () => {
  it("counts requests in flight together as one round trip, and the ones after as another", async () => {
    const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(new Response("ok")), 5));
    const backend = roundTripCounter(slow as typeof fetch);
    await Promise.all([backend.fetch("a"), backend.fetch("b"), backend.fetch("c")]);
    expect(backend.roundTrips).toBe(1);
    await backend.fetch("d");
    expect(backend.roundTrips).toBe(2);
    expect(backend.serverTiming()).toMatch(/^backend;dur=[\d.]+;desc="2 round trips, 4 requests"$/);
  });
});
