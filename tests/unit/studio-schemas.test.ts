import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms/forms";
import { ArtistProfileSchema, StoreSettingsSchema, TrackDetailsSchema } from "~/lib/schemas/studio";
import { isCalendarDate } from "~/lib/schemas/text";

/** A form as the browser posts it. */
function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const item of ([] as string[]).concat(value)) data.append(name, item);
  return data;
}

const day = (offsetDays: number, years = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + years);
  date.setUTCDate(date.getUTCDate() + offsetDays);
  return date.toISOString().slice(0, 10);
};

const track = { title: "Song", genre: "Rock", price: "1.99", releaseDate: "2026-01-10", description: "A song" };
const errorsOf = (fields: Record<string, string>) => {
  const result = parseForm(TrackDetailsSchema, form({ ...track, ...fields }));
  return result.success ? {} : result.reply.fieldErrors;
};

describe("calendar dates", () => {
  it("are days that exist, written YYYY-MM-DD", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2023-02-29")).toBe(false);
    expect(isCalendarDate("2024-02-30")).toBe(false);
    expect(isCalendarDate("2024-1-1")).toBe(false);
    expect(isCalendarDate("soon")).toBe(false);
  });
});

describe("a track's details", () => {
  it("take what the catalog holds", () => {
    expect(errorsOf({})).toEqual({});
    expect(errorsOf({ releaseDate: day(0, 2) })).toEqual({});
    expect(errorsOf({ price: "1000" })).toEqual({});
  });

  it.each([
    [{ genre: "NotAGenre" }, "genre", "Please choose a genre from the list"],
    [{ price: "1000.01" }, "price", "Price can be at most 1,000.00"],
    [{ price: "1e15" }, "price", "Price can be at most 1,000.00"],
    [{ price: "Infinity" }, "price", "Price must be at least 0.99"],
    [{ releaseDate: "1899-12-31" }, "releaseDate", "Release date must be between 1900 and 2 years from today"],
    [{ releaseDate: day(1, 2) }, "releaseDate", "Release date must be between 1900 and 2 years from today"],
    [{ releaseDate: "2024-02-30" }, "releaseDate", "Release date must be a date"],
    [{ title: "t".repeat(201) }, "title", "Title can be at most 200 characters"],
    [{ description: "d".repeat(5001) }, "description", "Description can be at most 5000 characters"],
    [{ subgenre: "s".repeat(101) }, "subgenre", "Subgenre can be at most 100 characters"],
  ])("refuse %o", (fields, field, message) => {
    expect(errorsOf(fields)[field]).toBe(message);
  });
});

describe("lists", () => {
  it("are counted before any row is read", () => {
    const ids = Array.from({ length: 21 }, (_, row) => `t${row}`);
    // rows with nothing in them: a per-row check would speak of their names first
    const result = parseForm(StoreSettingsSchema, form({ tierId: ids }), { arrays: ["tierId"] });
    expect(result.success ? null : result.reply.fieldErrors).toEqual({ tierId: "At most 20 pricing tiers" });
  });
});

describe("social links", () => {
  it("are a handle or a profile address on their own network", () => {
    const profile = (fields: Record<string, string>) => parseForm(ArtistProfileSchema, form({ artistName: "Band", ...fields }));
    expect(profile({ twitter: "@band", instagram: "https://www.instagram.com/the.band" }).success).toBe(true);
    for (const link of ["javascript:alert(1)", "https://evil.example/band", "https://twitter.com.evil.example/band"]) {
      const result = profile({ twitter: link });
      expect(result.success ? null : result.reply.fieldErrors.twitter, link).toBe(
        "Enter a Twitter handle like @name, or a link to your Twitter profile",
      );
    }
  });
});
