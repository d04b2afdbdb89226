// The short-lived access token the dashboard's live feed asks for: only a signed-in user gets it, only
// from a page of this site, never cached, and it is the session's own access token.
import { describe, expect, it } from "vitest";
import { Visitor, appUrl, signedIn } from "./support.ts";

const path = "/account/realtime-token";

describe("the Realtime token route", () => {
  it("gives a signed-in user their access token and when it expires, never cached", async () => {
    const artist = await signedIn("artist@example.com", "artist-demo-pass");
    const { response, html } = await artist.get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const body = JSON.parse(html);
    const claims = JSON.parse(Buffer.from(body.accessToken.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ sub: "a1000000-0000-4000-8000-000000000012", role: "authenticated" });
    expect(body.expiresAt).toBe(claims.exp);
  });

  it("refuses a visitor and a request from another site", async () => {
    expect((await new Visitor().get(path)).response.status).toBe(401);
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const response = await fetch(new URL(path, appUrl), {
      headers: { Cookie: [...fan.cookies].map(([name, value]) => `${name}=${value}`).join("; "), "Sec-Fetch-Site": "cross-site" },
    });
    expect(response.status).toBe(403);
    // an older browser names only the page's origin
    for (const origin of ["https://evil.example", "null"]) {
      const foreign = await fetch(new URL(path, appUrl), {
        headers: { Cookie: [...fan.cookies].map(([name, value]) => `${name}=${value}`).join("; "), Origin: origin },
      });
      expect(foreign.status, origin).toBe(403);
      expect(await foreign.text()).not.toContain("accessToken");
    }
    const sameSite = await fetch(new URL(path, appUrl), {
      headers: { Cookie: [...fan.cookies].map(([name, value]) => `${name}=${value}`).join("; "), Origin: new URL(appUrl).origin },
    });
    expect(sameSite.status).toBe(200);
  });
});
