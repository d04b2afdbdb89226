import { describe, expect, it } from "vitest";
import { genres } from "~/lib/constants";
import foundation from "../../supabase/schemas/01_foundation.sql?raw";

// The genre list lives twice: in the app (pickers, filters, validation) and in the database's check on
// artist and fan profiles (private.is_genre_list). They must be the same list, or a genre one side
// offers the other refuses.

describe("the genre list", () => {
  it("is the one the database checks", () => {
    const list = foundation.match(/array\[((?:\s*'[^']*',?)+)\s*\]/)?.[1];
    expect(list, "the genre array of private.genre_list in 01_foundation.sql").toBeDefined();
    const inSql = [...list!.matchAll(/'([^']*)'/g)].map((match) => match[1]);
    expect(inSql).toEqual([...genres]);
  });
});
