// `npm run test:postgres`: everything that needs a real PostgreSQL 15, on one throwaway cluster (see
// lib/postgres.ts). The schema gets there as a hosted deploy puts it: the Supabase CLI's `db push`
// (migrations, and on one database the seed too) onto what hosted Supabase provides first
// (supabase/local/platform.sql). Then, in order, each failing the run: the CLI's schema linter; the drift
// check (the migrated database must have exactly the schema supabase/schemas declares,
// lib/schema-drift.ts); the checked-in `Database` type against the migrated schema's; the pgTAP access
// rules (lib/pgtap.ts), on a copy; and the integration and local-stack suites, instead of embedded
// PGlite, each test file's database a copy of the pushed one (TEST_DATABASE_TEMPLATE). Extra arguments go
// to vitest (a test file's name) and leave the lint, drift, types and pgTAP steps out. The server is
// stopped and its files removed whatever happens.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { exitCodeOf, root } from "./lib/app-server.ts";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./lib/postgres.ts";
import { databaseTypesOf, staleDatabaseTypes } from "./lib/database-types.ts";
import { proveAccessRules } from "./lib/pgtap.ts";
import { schemaDrift } from "./lib/schema-drift.ts";
import { copiedDatabase, databaseUrl, pushedDatabase, supabaseCli } from "./lib/supabase-cli.ts";

const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
const template = "pushed";

let postgres: ThrowawayPostgres | undefined;
let exitCode = 1;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    await postgres?.stop();
    process.exit(130);
  });
}

// Only some suites asked for: the checks of the whole schema are left to a whole run.
const whole = process.argv.length <= 2;

try {
  postgres = await startThrowawayPostgres();
  console.log(`PostgreSQL 15 at ${postgres.url}`);
  console.log("supabase db push: the migrations and the seed, as a deploy applies them; then supabase db lint…");
  await pushedDatabase(postgres.url, "deployed", { seed: true });
  if (whole) supabaseCli(["db", "lint", "--db-url", databaseUrl(postgres.url, "deployed"), "--fail-on", "error"]);
  await pushedDatabase(postgres.url, template, { seed: false });
  if (whole) {
    console.log("Drift: what supabase/migrations build against what supabase/schemas declare…");
    const drift = await schemaDrift(postgres.url, template);
    if (drift !== "")
      throw new Error(`The migrations do not build the declared schema. What is missing (npm run db:diff writes it):\n${drift}`);
    console.log("The Database type against the migrated schema's…");
    const stale = staleDatabaseTypes(
      await databaseTypesOf(databaseUrl(postgres.url, await copiedDatabase(postgres.url, template, "typed"))),
    );
    if (stale) throw new Error(stale);
    console.log("pgTAP: the access rules proved in SQL…");
    if ((await proveAccessRules(postgres.url, await copiedDatabase(postgres.url, template, "proved"))) !== 0) {
      throw new Error("pg_prove found access rules that do not hold (above).");
    }
  }
  const runner = spawn(
    process.execPath,
    [vitest, "run", "--project", "integration", "--project", "local-stack", ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, TEST_DATABASE_URL: postgres.url, TEST_DATABASE_TEMPLATE: template },
    },
  );
  exitCode = await exitCodeOf(runner);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  await postgres?.stop();
}
process.exit(exitCode);
