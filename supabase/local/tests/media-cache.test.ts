// The demo media cache (media/cache.ts): each piece made once by the same code, then read back.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";

const home = mkdtempSync(join(tmpdir(), "demo-media-"));
vi.stubEnv("XDG_CACHE_HOME", home);
// (read as the module loads: loaded afresh, after the setup that loaded it already)
vi.resetModules();
const { cachedMedia } = await import("../media/cache.ts");

afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
});

it("makes each piece once, keeps it under the code's hash, and reads it back", () => {
  let made = 0;
  const make = (byte: number) => () => {
    made += 1;
    return new Uint8Array([byte, byte, byte]);
  };
  expect(cachedMedia("track one", make(1))).toEqual(new Uint8Array([1, 1, 1]));
  expect(cachedMedia("track one", make(9))).toEqual(new Uint8Array([1, 1, 1]));
  expect(cachedMedia("track two", make(2))).toEqual(new Uint8Array([2, 2, 2]));
  expect(made).toBe(2);
  const versions = readdirSync(join(home, "crate-demo-media"));
  expect(versions).toHaveLength(1);
  expect(readdirSync(join(home, "crate-demo-media", versions[0]!))).toHaveLength(2);
});
