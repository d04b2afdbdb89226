import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { genres } from "~/lib/constants";

// The genre list lives twice: in the app (pickers, filters, validation) and in the database's check on
// tracks and profiles. They must be the same list, or a genre one side offers the other refuses.
const migrations = new URL("../../supabase/migrations/", import.meta.url);

describe("the genre list", () => {
  it("is the one the database checks", () => {
    const sql = readFileSync(new URL("20261121000100_private_helpers.sql", migrations), "utf8");
    const list = sql.match(/array\[((?:\s*'[^']*',?)+)\s*\]/)?.[1];
    expect(list, "the genre array in private_helpers.sql").toBeDefined();
    const inSql = [...list!.matchAll(/'([^']*)'/g)].map((match) => match[1]);
    expect(inSql).toEqual([...genres]);
  });
});
