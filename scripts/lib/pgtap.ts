// The access rules proved in SQL, as `supabase test db` runs them: Debian's `pg_prove` runs every pgTAP file
// of supabase/tests/database (each in its own transaction, rolled back) against a migrated database.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { exitCodeOf, root } from "./app-server.ts";

const testsDir = join(root, "supabase", "tests", "database");
const pgProve = "/usr/bin/pg_prove";

/**
 * pg_prove's exit code for every *.test.sql against `database` on the server at `serverUrl`, or for those
 * whose names hold one of `only` (`npm run test:db -- orders guest`).
 */
export async function proveAccessRules(serverUrl: string, database: string, only: readonly string[] = []): Promise<number> {
  if (!existsSync(pgProve)) {
    throw new Error("pg_prove is missing: apt-get install -y postgresql-15-pgtap (it brings pg_prove and pgTAP).");
  }
  const url = new URL(serverUrl);
  const files = readdirSync(testsDir)
    .filter((file) => file.endsWith(".test.sql") && (only.length === 0 || only.some((part) => file.includes(part))))
    .sort()
    .map((file) => join(testsDir, file));
  const prove = spawn(
    pgProve,
    ["--host", url.hostname, "--port", url.port, "--username", url.username, "--dbname", database, "--verbose", ...files],
    { cwd: testsDir, stdio: "inherit", env: { ...process.env, PGOPTIONS: "--client-min-messages=warning" } },
  );
  return exitCodeOf(prove);
}
