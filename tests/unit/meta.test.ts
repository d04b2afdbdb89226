import { describe, expect, it } from "vitest";
import { cx } from "~/lib/cx";
import { pageMeta } from "~/lib/meta";

describe("pageMeta", () => {
  it("suffixes the title with the brand and carries the description", () => {
    expect(pageMeta("Terms of Use", "The rules")).toEqual([
      { title: "Terms of Use · Crate" },
      { name: "description", content: "The rules" },
      { property: "og:title", content: "Terms of Use" },
      { property: "og:description", content: "The rules" },
    ]);
  });

  it("does not repeat the brand on the home page", () => {
    expect(pageMeta("Crate", "Home")[0]).toEqual({ title: "Crate" });
  });
});

describe("cx", () => {
  it("joins the classes that are set", () => {
    expect(cx("a", false, null, undefined, "b")).toBe("a b");
  });
});
