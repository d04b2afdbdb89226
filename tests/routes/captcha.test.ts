// The security check (Cloudflare Turnstile) with a site key and Auth's secret set: the four forms Auth
// guards show it (and their CSP lets only Turnstile in), pass its token on, and say so when it is missing;
// a guest's checkout shows it too and, without its token, starts no payment.
// A marketplace of its own, with Turnstile's test keys: the test secret takes the token the test site key
// gives the page in a browser, which these requests send as the widget would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMarketplace, type Marketplace } from "../../scripts/lib/marketplace.ts";
import { trackId } from "./support.ts";

const testKeys = { siteKey: "1x00000000000000000000AA", secret: "1x0000000000000000000000000000000AA" };
const dummyToken = "XXXX.DUMMY.TOKEN.XXXX";
const captchaFailed = "Please complete the security check, then try again.";

let marketplace: Marketplace;
beforeAll(async () => {
  marketplace = await startMarketplace({ seedMedia: false, captcha: testKeys });
}, 120_000);
afterAll(() => marketplace?.stop());

const post = (path: string, fields: Record<string, string>) =>
  fetch(new URL(path, marketplace.appUrl), {
    method: "POST",
    redirect: "manual",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: marketplace.appUrl },
  });

const page = async (path: string) => {
  const response = await fetch(new URL(path, marketplace.appUrl));
  return { html: await response.text(), csp: response.headers.get("content-security-policy") ?? "" };
};

describe("the security check", () => {
  it("shows on sign-in, both sign-ups and recovery, says it needs JavaScript, and lets only those pages load it", async () => {
    for (const path of ["/login", "/register/artist", "/register/fan", "/forgot-password"]) {
      const { html, csp } = await page(path);
      expect(html, path).toContain(`data-sitekey="${testKeys.siteKey}"`);
      expect(html, path).toContain("https://challenges.cloudflare.com/turnstile/v0/api.js");
      expect(html, path).toContain("This form has a security check that needs JavaScript");
      expect(csp, path).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
      expect(csp, path).toMatch(/frame-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    }
    const elsewhere = await page("/about");
    expect(elsewhere.html).not.toContain("cf-turnstile");
    expect(elsewhere.csp).not.toContain("challenges.cloudflare.com");
  });

  it("signs in with the widget's token, and without one says the check is missing", async () => {
    const credentials = { email: "fan@example.com", password: "fan-demo-pass" };
    const refused = await post("/login", credentials);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(captchaFailed);
    const signedIn = await post("/login", { ...credentials, "cf-turnstile-response": dummyToken });
    expect(signedIn.status).toBe(302);
  });

  it("signs up and sends a reset link only with the token", async () => {
    const fan = {
      email: `checked-${Date.now().toString(36)}@example.com`,
      username: "checked",
      password: "a-long-password",
      confirmPassword: "a-long-password",
      terms: "on",
    };
    const refusedSignUp = await post("/register/fan", fan);
    expect(refusedSignUp.status).toBe(400);
    expect(await refusedSignUp.text()).toContain(captchaFailed);
    expect((await post("/register/fan", { ...fan, "cf-turnstile-response": dummyToken })).status).toBe(302);

    const refusedReset = await post("/forgot-password", { email: fan.email });
    expect(refusedReset.status).toBe(400);
    expect(await refusedReset.text()).toContain(captchaFailed);
    const reset = await post("/forgot-password", { email: fan.email, "cf-turnstile-response": dummyToken });
    expect(reset.status).toBe(200);
    expect(await reset.text()).toContain("we've sent a link to reset your password");
  });

  it("asks a guest's checkout for the check too, and without its token starts no payment", async () => {
    const added = await post("/cart", { intent: "add", kind: "track", id: trackId("Salt and Iron"), amount: "" });
    const cookie = added.headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
    const cart = await fetch(new URL("/cart", marketplace.appUrl), { headers: { Cookie: cookie } });
    const html = await cart.text();
    expect(html).toContain(`data-sitekey="${testKeys.siteKey}"`);
    expect(cart.headers.get("content-security-policy")).toMatch(/script-src [^;]*https:\/\/challenges\.cloudflare\.com/);
    const refused = await fetch(new URL("/cart", marketplace.appUrl), {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ intent: "checkout", currency: "USD", email: "guest@example.com", waiveWithdrawal: "on" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: marketplace.appUrl, Cookie: cookie },
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(captchaFailed);
  });
});
