import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { asRole, openTestDb, type Claims } from "@crate/local-supabase/testing";
import { openDb, type Db, migrate } from "@crate/local-supabase";
import { marketplaceSecretHeader } from "../../../app/lib/http/backend-env.ts";

// What the schema tests share: the database they run on, migrated as a deploy would (embedded PGlite in
// `npm test`, a copy of the run's migrated database; under `npm run test:postgres`, a fresh database on
// the PostgreSQL server it names in TEST_DATABASE_URL, a copy of the pushed one), and the ways they act
// as a role. Each suite runs once per run of either command.

/** `open`: a database of the suite's own with the migrations applied. */
type Backend = { name: "pglite" | "postgres"; open(): Promise<{ db: Db; drop(): Promise<void> }> };

function postgresBackend(serverUrl: string): Backend {
  return {
    name: "postgres",
    async open() {
      const name = `schema_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      const template = process.env.TEST_DATABASE_TEMPLATE;
      await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      const db = await openDb({ databaseUrl: url.toString() });
      // What the template lacks, if anything (all of it, where no template was pushed)
      await migrate(db, { seed: false });
      return {
        db,
        async drop() {
          await db.close();
          await admin.query(`drop database ${name}`);
          await admin.end();
        },
      };
    },
  };
}

const serverUrl = process.env.TEST_DATABASE_URL;
const backend: Backend = serverUrl
  ? postgresBackend(serverUrl)
  : { name: "pglite", open: async () => ({ db: await openTestDb(), drop: async () => {} }) };

// Plays, stored files and a ban's end are told only to the marketplace's server, which sends its registered secret.
export const marketplaceSecret = "schema-test-marketplace-secret-0123456789";

/**
 * Runs `body`'s tests on a database of their own with the migrations applied (no demo data) and the
 * marketplace's secret registered: `database()` is that database while they run, and `backend` says
 * which kind it is.
 */
export function describeOnTestDatabase(title: string, body: (database: () => Db, backend: Backend) => void) {
  describe(`${title} on ${backend.name}`, () => {
    let opened: Awaited<ReturnType<typeof openMigrated>> | undefined;
    beforeAll(async () => {
      opened = await openMigrated(backend);
    });
    afterAll(() => opened?.drop());
    body(() => {
      if (!opened) throw new Error("the database opens before the tests run");
      return opened.db;
    }, backend);
  });
}

async function openMigrated(backend: Backend): Promise<{ db: Db; drop(): Promise<void> }> {
  const opened = await backend.open();
  await opened.db.query("select private.trust_marketplace_secret($1)", [marketplaceSecret]);
  return opened;
}

export const visitor: Claims = { role: "anon" };

export function as<T>(db: Db, claims: Claims, fn: (tx: Db) => Promise<T>) {
  return asRole(db, claims, fn);
}

export function asMarketplace<T>(db: Db, claims: Claims, fn: (tx: Db) => Promise<T>, secret = marketplaceSecret) {
  return asRole(db, claims, fn, { headers: new Headers({ [marketplaceSecretHeader]: secret }) });
}

export async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error("expected the statement to fail");
}
