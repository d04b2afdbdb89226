// The studio's CSV files: a field that a spreadsheet would split, or run as a formula, is written so it
// reads back as the one value it is.
import { describe, expect, it } from "vitest";
import { csvField } from "~/lib/media/csv.server";

describe("csvField", () => {
  it("leaves a plain value as it is", () => {
    expect(csvField("Greenhouse")).toBe("Greenhouse");
  });

  it("quotes a value holding a comma, a semicolon, a quote or a line break", () => {
    expect(csvField("Salt, Iron")).toBe('"Salt, Iron"');
    expect(csvField("Salt; Iron")).toBe('"Salt; Iron"');
    expect(csvField('The "Best" Song')).toBe('"The ""Best"" Song"');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
  });

  it("never lets a spreadsheet read a value as a formula", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("=SUM(A1;A2)")).toBe('"\'=SUM(A1;A2)"');
  });
});
