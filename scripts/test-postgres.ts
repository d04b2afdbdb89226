// `npm run test:postgres`: the integration and local-stack suites against a real PostgreSQL 15 server (a throwaway cluster,
// see lib/postgres.ts) instead of embedded PGlite. Extra arguments go to vitest, e.g. a test file's name.
// The schema gets there as a hosted deploy puts it: the Supabase CLI's `db push` (migrations, and on one
// database the seed too) onto what hosted Supabase provides first (supabase/local/platform.sql), then the
// CLI's schema linter, which fails the run on any error, and the drift check: the migrated database must
// have exactly the schema supabase/schemas declares (lib/schema-drift.ts). Each test file's database is a copy of the pushed
// one (TEST_DATABASE_TEMPLATE). The server is stopped and its files removed whatever happens; the exit
// code is vitest's.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { exitCodeOf, root } from "./lib/app-server.ts";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./lib/postgres.ts";
import { schemaDrift } from "./lib/schema-drift.ts";
import { databaseUrl, pushedDatabase, supabaseCli } from "./lib/supabase-cli.ts";

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

try {
  postgres = await startThrowawayPostgres();
  console.log(`PostgreSQL 15 at ${postgres.url}`);
  console.log("supabase db push: the migrations and the seed, as a deploy applies them; then supabase db lint…");
  await pushedDatabase(postgres.url, "deployed", { seed: true });
  supabaseCli(["db", "lint", "--db-url", databaseUrl(postgres.url, "deployed"), "--fail-on", "error"]);
  await pushedDatabase(postgres.url, template, { seed: false });
  console.log("Drift: what supabase/migrations build against what supabase/schemas declare…");
  const drift = await schemaDrift(postgres.url, template);
  if (drift !== "")
    throw new Error(`The migrations do not build the declared schema. What is missing (npm run db:diff writes it):\n${drift}`);
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
