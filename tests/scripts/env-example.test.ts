// `.env.example` lists every variable the scripts read through loadEnv: loadEnv takes from the shell only
// the keys the file names, so a variable missing there could not be set at all (a second local instance
// could not move the mail stand-in's port, for one).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnvFile } from "../../scripts/lib/env.ts";

const root = join(import.meta.dirname, "..", "..");

describe(".env.example", () => {
  it("names every variable a script reads from loadEnv", () => {
    const listed = Object.keys(parseEnvFile(readFileSync(join(root, ".env.example"), "utf8")));
    const scripts = [join(root, "scripts"), join(root, "scripts", "lib")].flatMap((folder) =>
      readdirSync(folder)
        .filter((name) => name.endsWith(".ts"))
        .map((name) => readFileSync(join(folder, name), "utf8")),
    );
    // `env.NAME` on what loadEnv() answered (the shell-only operator settings are read as process.env.NAME)
    const read = new Set(
      scripts.flatMap((source) => [...source.matchAll(/(?<!process\.)\benv\.([A-Z][A-Z0-9_]*)/g)].map((found) => found[1]!)),
    );
    expect(read).toContain("MAIL_PORT");
    expect([...read].filter((name) => !listed.includes(name))).toEqual([]);
  });
});
