// `@crate/local-supabase/testing`: helpers for tests that run against the stack, the stack's own
// conformance tests and the product's.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { Claims } from "./context.ts";
import { openDb, type Db } from "./db.ts";
import { migrate } from "./migrate.ts";
import { startLocalStack, type LocalStack } from "./server.ts";

export { asRole, type Claims } from "./context.ts";
export { stopFunctions } from "./functions.ts";
export { signJwt } from "./jwt.ts";

type Options = Omit<NonNullable<Parameters<typeof startLocalStack>[0]>, "memory" | "databaseUrl" | "dataDir" | "port" | "snapshot">;

/** Where this test run's migrated databases are (`makeTestSnapshots`), for its test files to copy. */
let snapshots: string | undefined;
const snapshotFile = (dir: string, seed: boolean) => join(dir, seed ? "seeded.tar.gz" : "migrated.tar.gz");

/**
 * Migrates two in-memory databases once for a whole test run, one with the seed and one without, and keeps
 * them in `dir` as PGlite snapshots: each test file's stack then starts as a copy instead of replaying
 * every migration (a vitest global setup calls this; made afresh per run, so the seed's `now()` is today's).
 */
export async function makeTestSnapshots(dir: string): Promise<void> {
  for (const seed of [false, true]) {
    const db = await openDb({ memory: true });
    try {
      await migrate(db, { seed });
      writeFileSync(snapshotFile(dir, seed), new Uint8Array(await (await db.snapshot!()).arrayBuffer()));
    } finally {
      await db.close();
    }
  }
}

/** In a test file's process: the folder `makeTestSnapshots` wrote (none: every stack migrates afresh). */
export function useTestSnapshots(dir: string | undefined): void {
  snapshots = dir;
}

/** The run's snapshot for these options, where one was made and the stack would not make demo media on it. */
function testSnapshot(options: Options): Blob | undefined {
  const dir = snapshots;
  const seed = options.seed ?? true;
  // Demo media is made only on the seed's first run, which a copy of a seeded database has had.
  if (!dir || (seed && options.seedMedia !== false)) return undefined;
  const file = snapshotFile(dir, seed);
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** A fresh in-memory database with the migrations applied (no seed): a copy of the run's, where one was made. */
export async function openTestDb(): Promise<Db> {
  const db = await openDb({ memory: true, snapshot: testSnapshot({ seed: false }) });
  await migrate(db, { seed: false });
  return db;
}

/**
 * A local stack on a fresh database for one test file: embedded PGlite in memory (a copy of the run's
 * migrated database where the global setup made one), or, when TEST_DATABASE_URL names a PostgreSQL
 * server (CI runs the suite against PostgreSQL 15), a new database there that is dropped afterwards.
 */
export async function startTestStack(options: Options = {}): Promise<LocalStack> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return startLocalStack({ port: 0, memory: true, snapshot: testSnapshot(options), ...options });

  const name = `test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  // A copy of the database the CLI pushed the migrations to, where `npm run test:postgres` made one.
  const template = process.env.TEST_DATABASE_TEMPLATE;
  await server.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const dropDatabase = async () => {
    await server.query(`drop database if exists ${name} with (force)`);
    await server.end();
  };
  try {
    const local = await startLocalStack({ port: 0, dataDir: null, databaseUrl: url.toString(), ...options });
    return {
      ...local,
      async close() {
        await local.close();
        await dropDatabase();
      },
    };
  } catch (error) {
    await dropDatabase();
    throw error;
  }
}

/**
 * A user written as the superuser, the way an operator or the seed would: an auth.users row (its sign-up
 * metadata is what the product's trigger makes profiles from), and the claims of a JWT for it.
 */
export type TestUser = { id: string; email: string; claims: Claims };

let serial = 0;

export async function createUser(
  db: Db,
  metadata: Record<string, unknown>,
  appMetadata: Record<string, unknown> = { provider: "email", providers: ["email"] },
): Promise<TestUser> {
  const email = `user${++serial}-${Date.now()}@example.test`;
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (email, raw_user_meta_data, raw_app_meta_data, email_confirmed_at)
     values ($1, $2, $3, now()) returning id`,
    [email, metadata, appMetadata],
  );
  const id = rows[0].id;
  const claims: Claims = {
    role: "authenticated",
    aud: "authenticated",
    sub: id,
    email,
    app_metadata: appMetadata,
    user_metadata: metadata,
    session_id: crypto.randomUUID(),
    exp: Math.floor(Date.now() / 1000) + 3600,
  };
  return { id, email, claims };
}
