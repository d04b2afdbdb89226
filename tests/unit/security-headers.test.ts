import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce, withSecurityHeaders } from "~/lib/http/security-headers.server";

const env = {
  SUPABASE_URL: "https://project.supabase.co",
  SUPABASE_ANON_KEY: "key",
  MARKETPLACE_SECRET: "0123456789abcdef0123456789abcdef",
};
const page = () => new Response("<!doctype html>", { headers: { "Content-Type": "text/html" } });

describe("security headers", () => {
  it("adds HSTS over HTTPS only", () => {
    const secure = withSecurityHeaders(new Request("https://crate.example/"), page(), { nonce: "n", env, development: false });
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const plain = withSecurityHeaders(new Request("http://127.0.0.1/"), page(), { nonce: "n", env, development: false });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });

  it("names the Supabase origin for its WebSocket too, and no script but ours or the nonce's", () => {
    const policy = contentSecurityPolicy("abc", "https://project.supabase.co/");
    expect(policy).toContain("connect-src 'self' https://project.supabase.co wss://project.supabase.co");
    expect(policy).toContain("script-src 'self' 'nonce-abc'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
  });

  it("lets forms go on to the payment page alone, where fans can pay (a checkout answers with a redirect there)", () => {
    expect(contentSecurityPolicy("n", null)).toContain("form-action 'self';");
    expect(contentSecurityPolicy("n", null, { checkout: "https://checkout.stripe.com" })).toContain(
      "form-action 'self' https://checkout.stripe.com;",
    );
  });

  it("leaves the policy out in development (Vite's inline scripts) and off what is not HTML", () => {
    const dev = withSecurityHeaders(new Request("http://localhost/"), page(), { nonce: "n", env, development: true });
    expect(dev.headers.get("content-security-policy")).toBeNull();
    expect(dev.headers.get("x-content-type-options")).toBe("nosniff");
    const json = withSecurityHeaders(new Request("http://localhost/"), Response.json({}), { nonce: "n", env, development: false });
    expect(json.headers.get("content-security-policy")).toBeNull();
  });

  it("makes a different nonce every time", () => {
    expect(newNonce()).not.toBe(newNonce());
    expect(newNonce()).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  });
});
