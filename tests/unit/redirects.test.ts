import { describe, expect, it } from "vitest";
import { dashboardPath, loginPath, safeRedirectPath } from "~/lib/session/redirects";

describe("safeRedirectPath", () => {
  it.each(["/dashboard/fan", "/recent?page=2", "/artist/1#top", "/genres/R%26B"])("keeps the on-site path %s", (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    "https://evil.example/",
    "//evil.example/path",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "evil.example",
    "",
    null,
    undefined,
    42,
  ])("refuses %j", (target) => {
    expect(safeRedirectPath(target)).toBeNull();
  });

  // Each resolves to `//evil.example`, which a browser takes to another site.
  it.each([
    "/..//evil.example",
    "/.//evil.example",
    "/%2e%2e//evil.example",
    "/%2E%2E//evil.example/path?x=1",
    "/%2e//evil.example",
    "/a/..//evil.example",
    "/a/b/../..//evil.example",
    "/./..//evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/.\\/evil.example",
  ])("refuses %j, which normalises to another site", (target) => {
    expect(safeRedirectPath(target)).toBeNull();
  });

  it("keeps a path that normalises to another path on this site", () => {
    expect(safeRedirectPath("/a/../dashboard/fan")).toBe("/dashboard/fan");
    expect(safeRedirectPath("/%2e%2e/artists?q=x")).toBe("/artists?q=x");
  });
});

describe("where people land", () => {
  it("sends each role to its dashboard and anyone else home", () => {
    expect(dashboardPath("artist")).toBe("/dashboard/artist");
    expect(dashboardPath("fan")).toBe("/dashboard/fan");
    expect(dashboardPath(null)).toBe("/");
  });

  it("carries the original path and query to the login page", () => {
    expect(loginPath(new Request("http://site.test/dashboard/fan/recent?from=mail&x=1"))).toBe(
      "/login?redirectTo=%2Fdashboard%2Ffan%2Frecent%3Ffrom%3Dmail%26x%3D1",
    );
  });

  it("sends a request for a page's data (a form sent with JavaScript) back to the page itself", () => {
    expect(loginPath(new Request("http://site.test/artist/a1.data?_routes=routes%2Fartist.%24id"))).toBe(
      "/login?redirectTo=%2Fartist%2Fa1",
    );
    expect(loginPath(new Request("http://site.test/_.data?tab=2"))).toBe("/login?redirectTo=%2F%3Ftab%3D2");
  });
});
