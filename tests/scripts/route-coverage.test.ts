// Every route of app/routes.ts is exercised by a suite beyond the fuzz test (which reaches all of them by
// construction): a route test or a browser test names its address. A route added with no test fails here.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { routeUses } from "../../app/route-uses.ts";
import { routePatterns } from "../support/route-table.ts";

const root = join(import.meta.dirname, "..", "..");
const suites = ["tests/routes", "tests/e2e"].flatMap((folder) =>
  readdirSync(join(root, folder))
    .filter((file) => file.endsWith(".test.ts") && file !== "fuzz.test.ts")
    .map((file) => readFileSync(join(root, folder, file), "utf8")),
);

/** The pattern as test code writes its address: a parameter is a literal, or a `${…}` in a template. */
function addressPattern(pattern: string): RegExp {
  const parameter = "(?:\\$\\{[^}]+\\}|[^/\"'`?#\\s]+)";
  const path = pattern
    .split("/")
    .filter(Boolean)
    .map((part) => {
      if (part.endsWith("?")) return `(?:/${parameter})?`;
      if (part.startsWith(":") || part === "*") return `/${parameter}`;
      return `/${part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    })
    .join("");
  return new RegExp(`["'\`]${path}(?:["'\`?#]|\\$\\{)`);
}

it.each(routePatterns().filter((pattern) => pattern !== "/*" && pattern !== "/"))(
  "%s is exercised by a route or browser test",
  (pattern) => {
    expect(suites.some((suite) => addressPattern(pattern).test(suite))).toBe(true);
  },
);

it("would catch a route that no suite names", () => {
  expect(suites.some((suite) => addressPattern("/no-such-route/:id").test(suite))).toBe(false);
  expect(suites.some((suite) => addressPattern("/track/:id").test(suite))).toBe(true);
});

// robots.txt, the sitemap, oEmbed's matcher, the browser walk and the bench derive their lists from
// app/route-uses.ts: a route it does not name would be nobody's, one it names beyond routes.ts a ghost.
it("route-uses.ts says who every route of routes.ts serves, and names no other", () => {
  expect(Object.keys(routeUses).sort()).toEqual(routePatterns().sort());
});
