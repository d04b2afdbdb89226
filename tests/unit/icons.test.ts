import { describe, expect, it } from "vitest";
import { iconNames } from "~/components/ui/icon";
import sprite from "~/components/ui/icons.svg?raw";

// The sprite and the names pages may ask for are one list: a name with no symbol would draw nothing.
const symbols = [...sprite.matchAll(/<symbol id="([^"]+)" viewBox="0 0 (20 20|24 24)"/g)].map((match) => match[1]);

describe("the icon sprite", () => {
  it("has a symbol, with its grid, for every icon name, and none besides", () => {
    expect([...symbols].sort()).toEqual([...iconNames].sort());
  });

  it("leaves an outline icon's stroke width to the page, so it can be set per use", () => {
    expect(sprite).not.toMatch(/stroke-width/);
  });
});
