// Cloudflare's purge by tag, as the Worker asks for it after a change: only with its token, narrowly.
import { describe, expect, it, vi } from "vitest";
import { accountChanged, globalPurge, playlistChanged, trackChanged } from "~/lib/cache/edge-cache.server";

describe("globalPurge", () => {
  it("asks Cloudflare to purge the zone's cached answers by tag, with the purge token", async () => {
    const send = vi.fn<typeof fetch>(async () => new Response("{}"));
    await globalPurge({ CACHE_PURGE_TOKEN: "token", CLOUDFLARE_ZONE_ID: "zone" }, trackChanged("t1", "a1"), send);
    expect(send).toHaveBeenCalledOnce();
    const [url, init] = send.mock.calls[0]!;
    expect(url).toBe("https://api.cloudflare.com/client/v4/zones/zone/purge_cache");
    expect(init?.method).toBe("POST");
    expect(new Headers(init?.headers).get("Authorization")).toBe("Bearer token");
    expect(JSON.parse(String(init?.body))).toEqual({ tags: ["track:t1", "user:a1", "sitemap"] });
  });

  it("does nothing without a token or a zone, and logs a refusal without throwing", async () => {
    const send = vi.fn<typeof fetch>();
    expect(globalPurge({ CLOUDFLARE_ZONE_ID: "zone" }, ["news"], send)).toBeNull();
    expect(globalPurge({ CACHE_PURGE_TOKEN: "token" }, ["news"], send)).toBeNull();
    expect(send).not.toHaveBeenCalled();
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    await globalPurge({ CACHE_PURGE_TOKEN: "t", CLOUDFLARE_ZONE_ID: "z" }, ["news"], async () => new Response("no", { status: 403 }));
    await globalPurge({ CACHE_PURGE_TOKEN: "t", CLOUDFLARE_ZONE_ID: "z" }, ["news"], async () => Promise.reject(new Error("down")));
    expect(logged).toHaveBeenCalledTimes(2);
    logged.mockRestore();
  });

  it("names what each change drops: the thing, its owner's pages, the sitemap", () => {
    expect(playlistChanged("p1", "u1")).toEqual(["playlist:p1", "user:u1", "sitemap"]);
    expect(accountChanged("u1")).toEqual(["user:u1", "sitemap"]);
  });
});
