// `npm run test:db`: the access rules proved in SQL alone, as `supabase test db` runs them (pgTAP files in
// supabase/tests/database), without Docker: a throwaway PostgreSQL 15 (lib/postgres.ts) gets what hosted
// Supabase provides and the migrations through `supabase db push`, then `pg_prove` runs them
// (lib/pgtap.ts). `npm run test:postgres` proves them too, on its own cluster. The exit code is pg_prove's.
import { proveAccessRules } from "./lib/pgtap.ts";
import { startThrowawayPostgres, type ThrowawayPostgres } from "./lib/postgres.ts";
import { pushedDatabase } from "./lib/supabase-cli.ts";

let postgres: ThrowawayPostgres | undefined;
let exitCode = 1;
try {
  postgres = await startThrowawayPostgres();
  await pushedDatabase(postgres.url, "tested", { seed: false });
  exitCode = await proveAccessRules(postgres.url, "tested", process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  await postgres?.stop();
}
process.exit(exitCode);
