// Whose address a per-address limit counts by: Cloudflare's edge's word alone, never a header a client
// sent itself (locally, where no edge stands in front, the runtime keeps such a header as it came).
import { describe, expect, it } from "vitest";
import { clientAddress } from "~/lib/http/context.server";

const request = (cf?: Record<string, unknown>, address = "203.0.113.9") => {
  const sent = new Request("http://localhost/track/x/play", { headers: { "CF-Connecting-IP": address } });
  return cf ? Object.assign(sent, { cf }) : sent;
};

describe("a client's address", () => {
  it("is the edge's CF-Connecting-IP where the request passed an edge, and nobody's where it did not", () => {
    expect(clientAddress(request({ colo: "LHR", country: "GB" }))).toBe("203.0.113.9");
    // Locally: a client naming its own address changes nothing (the machine's clients share one limit).
    expect(clientAddress(request())).toBeNull();
    expect(clientAddress(request({ country: "US" }))).toBeNull();
  });

  it("is an IPv6 address's /64, so one home or phone (given a whole /64) is one address to every limit", () => {
    const edge = { colo: "LHR" };
    const from = (address: string) => clientAddress(request(edge, address));
    expect(from("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::");
    // Any other address in the same /64, however it is written, is the same one.
    expect(from("2001:0DB8:0001:0002::1")).toBe("2001:db8:1:2::");
    expect(from("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::");
    expect(from("2001:db8::5")).toBe("2001:db8:0:0::");
    expect(from("2001:db8:1:2::192.0.2.1")).toBe("2001:db8:1:2::");
    // The next /64 is another address.
    expect(from("2001:db8:1:3::1")).toBe("2001:db8:1:3::");
    // IPv4 (also mapped into IPv6) stays the address it is.
    expect(from("198.51.100.7")).toBe("198.51.100.7");
    expect(from("::ffff:198.51.100.7")).toBe("198.51.100.7");
  });
});
