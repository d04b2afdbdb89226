import { existsSync } from "node:fs";

/** Debian's Chromium, which the browser suite and the benches drive: its path, or a clear exit without it. */
export function requireChromium(): string {
  const path = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(path)) {
    console.error(`Chromium was not found at ${path}. Install Debian's package: apt-get install -y chromium`);
    process.exit(1);
  }
  return path;
}
