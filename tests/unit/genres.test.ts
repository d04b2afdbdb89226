import { describe, expect, it } from "vitest";
import { genres } from "~/lib/constants";
import helpers from "../../supabase/migrations/20261121000100_private_helpers.sql?raw";

// The genre list lives twice: in the app (pickers, filters, validation) and in the database's check on
// artist and fan profiles (private.is_genre_list). They must be the same list, or a genre one side
// offers the other refuses.

describe("the genre list", () => {
  it("is the one the database checks", () => {
    const list = helpers.match(/array\[((?:\s*'[^']*',?)+)\s*\]/)?.[1];
    expect(list, "the genre array in private_helpers.sql").toBeDefined();
    const inSql = [...list!.matchAll(/'([^']*)'/g)].map((match) => match[1]);
    expect(inSql).toEqual([...genres]);
  });
});
