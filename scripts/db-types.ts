// `npm run db:types`: writes app/lib/backend/database.types.ts, the `Database` type of the migrated schema, with
// Supabase's own generator (@supabase/postgres-meta, what `supabase gen types` runs) against a throwaway
// PostgreSQL 15 holding the migrations. `--check` writes nothing and fails when the file is out of date
// (`npm run test:postgres` checks it too, on its own cluster).
import { writeFileSync } from "node:fs";
import { databaseTypesFile, generateDatabaseTypes, staleDatabaseTypes } from "./lib/database-types.ts";
import { startThrowawayPostgres } from "./lib/postgres.ts";

const check = process.argv.includes("--check");

const postgres = await startThrowawayPostgres();
try {
  const types = await generateDatabaseTypes(postgres.url);
  if (!check) {
    writeFileSync(databaseTypesFile, types);
    console.log("Wrote app/lib/backend/database.types.ts");
  } else {
    const stale = staleDatabaseTypes(types);
    if (stale) {
      console.error(stale);
      process.exitCode = 1;
    }
  }
} finally {
  await postgres.stop();
}
