// The Supabase CLI (npm's `supabase`, pinned) on the database path, as a hosted deploy uses it: `db push`
// onto what hosted Supabase provides before our migrations (supabase/local/platform.sql), without Docker.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { root } from "./app-server.ts";

const supabase = join(root, "node_modules", ".bin", "supabase");

/** A database of the server, as the CLI is given it. */
export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  url.searchParams.set("sslmode", "disable");
  return url.toString();
}

export function supabaseCli(args: string[]): void {
  const result = spawnSync(supabase, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`supabase ${args.slice(0, 2).join(" ")} failed:\n${result.stdout}${result.stderr}`);
}

/** `name`, holding what hosted Supabase provides, then what `supabase db push` adds. */
/** A new database `name` on the server, a copy of `template` (which nobody may be connected to meanwhile). */
export async function copiedDatabase(serverUrl: string, template: string, name: string): Promise<string> {
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  try {
    await server.query(`create database ${name} template ${template}`);
  } finally {
    await server.end();
  }
  return name;
}

export async function pushedDatabase(serverUrl: string, name: string, { seed }: { seed: boolean }): Promise<void> {
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  await server.query(`create database ${name}`);
  await server.end();
  const database = new pg.Client({ connectionString: databaseUrl(serverUrl, name) });
  await database.connect();
  await database.query(readFileSync(join(root, "supabase", "local", "platform.sql"), "utf8"));
  await database.end();
  supabaseCli(["db", "push", "--db-url", databaseUrl(serverUrl, name), "--yes", ...(seed ? ["--include-seed"] : [])]);
}
