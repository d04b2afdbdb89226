// The `Database` type of the migrated schema, as Supabase's generator (@supabase/postgres-meta) prints it.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
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
  return databaseTypesOf(databaseUrl);
}

/** The public schema's types of the (migrated) database at `databaseUrl`. */
export async function databaseTypesOf(databaseUrl: string): Promise<string> {
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

/** The checked-in `Database` type's file. */
export const databaseTypesFile = join(root, "app", "lib", "backend", "database.types.ts");

/** Why the checked-in `Database` type is not `types` (null when it is). */
export function staleDatabaseTypes(types: string): string | null {
  return readFileSync(databaseTypesFile, "utf8") === types
    ? null
    : "app/lib/backend/database.types.ts is out of date with the migrations: run npm run db:types";
}
