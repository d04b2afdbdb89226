import { describe, expect, it } from "vitest";
import { moveItem } from "~/lib/ui/ordering";

describe("moving an album's tracks (their numbers follow their positions)", () => {
  const tracks = ["Dawn", "Noon", "Dusk", "Night"];

  it("moves one track up, down, or by dragging far, keeping the others in order", () => {
    expect(moveItem(tracks, 2, 1)).toEqual(["Dawn", "Dusk", "Noon", "Night"]);
    expect(moveItem(tracks, 0, 1)).toEqual(["Noon", "Dawn", "Dusk", "Night"]);
    expect(moveItem(tracks, 3, 0)).toEqual(["Night", "Dawn", "Noon", "Dusk"]);
  });

  it("leaves the list as it is past either end, or for a track no longer there", () => {
    expect(moveItem(tracks, 0, -1)).toEqual(tracks);
    expect(moveItem(tracks, 3, 4)).toEqual(tracks);
    expect(moveItem(tracks, -1, 2)).toEqual(tracks);
  });
});
