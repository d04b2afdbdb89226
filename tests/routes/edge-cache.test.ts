// What the Workers cache may keep: never a render made for a session, however the request spelled its
// cookies; and nothing private, withdrawn or deleted outlives its change at any address that shows it.
import { describe, expect, it } from "vitest";
import { appUrl, cachedCopyOf, sessionCookie, signedIn, storesMadeSoFarLanded, text } from "./support.ts";

/** The demo fan's private playlist ("Saturday kitchen"). */
const privatePlaylist = "/playlist/b1000000-0000-4000-8000-000000000002";

describe("a render made for a session", () => {
  it.each([
    ["a space before =", (name: string, value: string) => `${name} =${value}`],
    ["a tab before =", (name: string, value: string) => `${name}\t=${value}`],
    ["a space before the name", (name: string, value: string) => ` ${name}=${value}`],
    ["no space after the previous cookie's semicolon", (name: string, value: string) => `theme=dark;${name}=${value}`],
    ["spaces on both sides", (name: string, value: string) => `a=1 ;  ${name}  =  ${value}`],
  ])("with %s is the reader's alone: never stored, and the next visitor gets the public answer", async (_, spell) => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const name = sessionCookie(fan)!;
    const path = `${privatePlaylist}?spelling=${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const owner = await fetch(new URL(path, appUrl), { headers: { Cookie: spell(name, fan.cookies.get(name)!) } });
    const page = text(await owner.text());
    // The auth client reads the session whatever the spelling, so the owner sees their playlist, privately.
    expect(owner.status).toBe(200);
    expect(page).toContain("Saturday kitchen");
    expect(owner.headers.get("cache-control")).toBe("private, no-store");
    await storesMadeSoFarLanded();
    const next = await fetch(new URL(path, appUrl));
    expect(next.status).toBe(404);
    expect(next.headers.get("cf-cache-status")).toBeNull();
    expect(text(await next.text())).not.toContain("Saturday kitchen");
  });

  it("a public page rendered for a padded session cookie is not kept either; the visitor's own render is", async () => {
    const fan = await signedIn("fan@example.com", "fan-demo-pass");
    const name = sessionCookie(fan)!;
    const path = `/genres?padded=${Date.now()}`;
    const owner = await fetch(new URL(path, appUrl), { headers: { Cookie: `${name} =${fan.cookies.get(name)!}` } });
    await owner.text();
    expect(owner.headers.get("cache-control")).toBe("private, no-store");
    await storesMadeSoFarLanded();
    const next = await fetch(new URL(path, appUrl));
    await next.text();
    expect(next.headers.get("cf-cache-status")).toBeNull();
    expect(next.headers.get("cache-control")).toMatch(/^public/);
    expect((await cachedCopyOf(path))?.headers.get("cf-cache-status")).toBe("HIT");
  });
});
