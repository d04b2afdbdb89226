// Whose address a per-address limit counts by: Cloudflare's edge's word alone, never a header a client
// sent itself (locally, where no edge stands in front, the runtime keeps such a header as it came).
import { describe, expect, it } from "vitest";
import { clientAddress } from "~/lib/http/context.server";

const request = (cf?: Record<string, unknown>) => {
  const sent = new Request("http://localhost/track/x/play", { headers: { "CF-Connecting-IP": "203.0.113.9" } });
  return cf ? Object.assign(sent, { cf }) : sent;
};

describe("a client's address", () => {
  it("is the edge's CF-Connecting-IP where the request passed an edge, and nobody's where it did not", () => {
    expect(clientAddress(request({ colo: "LHR", country: "GB" }))).toBe("203.0.113.9");
    // Locally: a client naming its own address changes nothing (the machine's clients share one limit).
    expect(clientAddress(request())).toBeNull();
    expect(clientAddress(request({ country: "US" }))).toBeNull();
  });
});
