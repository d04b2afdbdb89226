// The page of a long list that an address asks for (`?page=`), and how many pages a list makes.
import { describe, expect, it } from "vitest";
import { pageCount, pageFrom } from "~/lib/ui/paging";

const pageOf = (search: string) => pageFrom(new URL(`https://marketplace.test/artists${search}`));

describe("pageFrom", () => {
  it("reads a whole number from 1", () => {
    expect(pageOf("?page=3")).toBe(3);
    expect(pageOf("?page=1")).toBe(1);
  });

  it("reads anything else as the first page", () => {
    for (const search of ["", "?page=", "?page=0", "?page=-4", "?page=abc", "?page=%00", "?page=NaN"]) expect(pageOf(search)).toBe(1);
  });

  it("reads a page past the furthest, or past the database's integers, as the furthest", () => {
    expect(pageOf("?page=10000")).toBe(10_000);
    expect(pageOf("?page=10001")).toBe(10_000);
    expect(pageOf("?page=99999999999999999999")).toBe(10_000);
  });
});

describe("pageCount", () => {
  it("counts whole pages, an empty list being one", () => {
    expect(pageCount(0, 24)).toBe(1);
    expect(pageCount(24, 24)).toBe(1);
    expect(pageCount(25, 24)).toBe(2);
  });
});
