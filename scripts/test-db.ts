// `npm run test:db`: the access rules proved in SQL, as `supabase test db` runs them (pgTAP files in
// supabase/tests/database), without Docker: a throwaway PostgreSQL 15 (lib/postgres.ts) gets what hosted
// Supabase provides and the migrations through `supabase db push`, then Debian's `pg_prove` runs every
// *.test.sql there (each in its own transaction, rolled back). The exit code is pg_prove's.
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { exitCodeOf, root } from "./lib/app-server.ts";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./lib/postgres.ts";
import { pushedDatabase } from "./lib/supabase-cli.ts";

const testsDir = join(root, "supabase", "tests", "database");
const pgProve = "/usr/bin/pg_prove";

if (!existsSync(pgProve)) {
  console.error("pg_prove is missing: apt-get install -y postgresql-15-pgtap (it brings pg_prove and pgTAP).");
  process.exit(1);
}

let postgres: ThrowawayPostgres | undefined;
let exitCode = 1;
try {
  postgres = await startThrowawayPostgres();
  await pushedDatabase(postgres.url, "tested", { seed: false });
  const url = new URL(postgres.url);
  const files = readdirSync(testsDir)
    .filter((file) => file.endsWith(".test.sql"))
    .sort()
    .map((file) => join(testsDir, file));
  const prove = spawn(
    pgProve,
    ["--host", url.hostname, "--port", url.port, "--username", url.username, "--dbname", "tested", "--verbose", ...files],
    { cwd: testsDir, stdio: "inherit", env: { ...process.env, PGOPTIONS: "--client-min-messages=warning" } },
  );
  exitCode = await exitCodeOf(prove);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  await postgres?.stop();
}
process.exit(exitCode);
