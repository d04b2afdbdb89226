import { rmSync } from "node:fs";
import { openDb } from "./db.ts";
import { repoDataDir, startLocalStack } from "./server.ts";

// The local Supabase-compatible stack as a process: `node supabase/local/main.ts [--reset]`.
// Env: SUPABASE_PORT (default 54321), DATABASE_URL (else embedded PGlite under .data/).
// --reset wipes the database (and stored files), migrates and seeds it afresh, then exits.

const port = Number(process.env.SUPABASE_PORT ?? 54321);
const databaseUrl = process.env.DATABASE_URL || undefined;
const reset = process.argv.includes("--reset");

if (reset) {
  if (await isServing(port)) {
    console.error(`A stack is running on port ${port}; stop it before resetting its database.`);
    process.exit(1);
  }
  rmSync(repoDataDir, { recursive: true, force: true });
  if (databaseUrl) await dropEverything(databaseUrl);
}

// Reset on the real port too: seeded artwork URLs carry the stack's address.
const local = await startLocalStack({ port, databaseUrl, dataDir: repoDataDir, verbose: true });

if (reset) {
  await local.close();
  console.log("Database reset: migrations applied and seed loaded.");
  process.exit(0);
}

console.log(`Local Supabase stack on ${local.url}
  database:         ${databaseUrl ? "DATABASE_URL" : `PGlite in ${repoDataDir}`}
  anon key:         ${local.anonKey}
  service_role key: ${local.serviceRoleKey}
  JWT secret:       ${local.stack.config.jwtSecret}`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await local.close();
    process.exit(0);
  });
}

async function isServing(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

// Every schema but Postgres's own goes, with what lives in it; roles are cluster-wide and stay, which
// platform.sql tolerates.
async function dropEverything(url: string): Promise<void> {
  const db = await openDb({ databaseUrl: url });
  const { rows } = await db.query<{ name: string }>(
    `select nspname as name from pg_namespace
      where nspname not like 'pg\\_%' and nspname <> 'information_schema'`,
  );
  await db.transaction(async (tx) => {
    for (const { name } of rows) await tx.exec(`drop schema "${name.replaceAll('"', '""')}" cascade`);
    await tx.exec(`create schema public; drop publication if exists supabase_realtime;`);
  });
  await db.close();
}
