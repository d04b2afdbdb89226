// The `Database` type of the migrated schema, as Supabase's generator (@supabase/postgres-meta) prints it.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { openDb, migrate } from "@crate/local-supabase";
import { root } from "./app-server.ts";

const generator = join(root, "node_modules", "@supabase", "postgres-meta", "dist", "server", "server.js");

/** Migrates the (empty) database at `databaseUrl`, then prints its public schema's types. */
export async function generateDatabaseTypes(databaseUrl: string): Promise<string> {
  const db = await openDb({ databaseUrl });
  try {
    await migrate(db, { seed: false });
  } finally {
    await db.close();
  }
  const child = spawn(process.execPath, [generator], {
    env: {
      ...process.env,
      PG_META_DB_URL: databaseUrl,
      PG_META_GENERATE_TYPES: "typescript",
      PG_META_GENERATE_TYPES_INCLUDED_SCHEMAS: "public",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (errors += chunk));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0 || !output.includes("export type Database")) throw new Error(`Type generation failed (${code}): ${errors}`);
  return output;
}
