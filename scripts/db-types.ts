// `npm run db:types`: writes app/lib/backend/database.types.ts, the `Database` type of the migrated schema, with
// Supabase's own generator (@supabase/postgres-meta, what `supabase gen types` runs) against a throwaway
// PostgreSQL 15 holding the migrations. `--check` writes nothing and fails when the file is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib/app-server.ts";
import { generateDatabaseTypes } from "./lib/database-types.ts";
import { startThrowawayPostgres } from "./lib/postgres.ts";

const file = join(root, "app", "lib", "backend", "database.types.ts");
const check = process.argv.includes("--check");

const postgres = await startThrowawayPostgres();
try {
  const types = await generateDatabaseTypes(postgres.url);
  if (!check) {
    writeFileSync(file, types);
    console.log("Wrote app/lib/backend/database.types.ts");
  } else if (readFileSync(file, "utf8") !== types) {
    console.error("app/lib/backend/database.types.ts is out of date with the migrations: run npm run db:types");
    process.exitCode = 1;
  }
} finally {
  await postgres.stop();
}
