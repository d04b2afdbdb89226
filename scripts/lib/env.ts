// The project's variables: `.env` when a developer made one, otherwise the committed local defaults in
// `.env.example`, so a fresh clone runs with no configuration. Real environment variables win over both.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..", "..");

export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = line.match(/^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/);
    if (!match) continue;
    values[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, "$2");
  }
  return values;
}

export function loadEnv(): Record<string, string> {
  const file = existsSync(join(root, ".env")) ? ".env" : ".env.example";
  const fromFile = parseEnvFile(readFileSync(join(root, file), "utf8"));
  const fromProcess = Object.fromEntries(Object.keys(fromFile).flatMap((key) => (process.env[key] ? [[key, process.env[key]!]] : [])));
  return { ...fromFile, ...fromProcess };
}
