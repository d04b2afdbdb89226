import { describe, expect, it } from "vitest";
import { isCrossSiteRequest } from "~/lib/http/cross-site.server";

const request = (method: string, headers: Record<string, string>) => new Request("https://crate.test/logout", { method, headers });

describe("isCrossSiteRequest", () => {
  it.each([
    ["our own page", { Origin: "https://crate.test", "Sec-Fetch-Site": "same-origin" }],
    ["our own page, Origin only (older browsers)", { Origin: "https://crate.test" }],
    ["something the person did themselves", { "Sec-Fetch-Site": "none" }],
    ["a client that is not a browser", {}],
  ])("lets a POST from %s through", (_, headers) => {
    expect(isCrossSiteRequest(request("POST", headers))).toBe(false);
  });

  it.each([
    ["another site", { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" }],
    ["another site that hides its Origin", { "Sec-Fetch-Site": "cross-site" }],
    ["a sibling site", { Origin: "https://shop.crate.test", "Sec-Fetch-Site": "same-site" }],
    ["another origin (older browsers)", { Origin: "https://evil.example" }],
    ["our host over plain HTTP", { Origin: "http://crate.test" }],
    ["an opaque origin", { Origin: "null" }],
  ])("refuses a POST from %s", (_, headers) => {
    expect(isCrossSiteRequest(request("POST", headers))).toBe(true);
  });

  it("refuses every other state-changing method the same way, and never a read", () => {
    const headers = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };
    for (const method of ["PUT", "PATCH", "DELETE"]) expect(isCrossSiteRequest(request(method, headers))).toBe(true);
    for (const method of ["GET", "HEAD", "OPTIONS"]) expect(isCrossSiteRequest(request(method, headers))).toBe(false);
  });
});
