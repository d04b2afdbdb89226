import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { asRole, type Claims } from "@crate/local-supabase/testing";
import { openDb, type Db, migrate } from "@crate/local-supabase";

// What the schema tests share: the databases they run on (embedded PGlite, and a fresh database on the
// PostgreSQL server npm run test:postgres names in TEST_DATABASE_URL), each migrated as a deploy would,
// and the ways they act as a role.

type Backend = { name: string; open(): Promise<{ db: Db; drop(): Promise<void> }> };

const backends: Backend[] = [{ name: "pglite", open: async () => ({ db: await openDb({ memory: true }), drop: async () => {} }) }];
const serverUrl = process.env.TEST_DATABASE_URL;
if (serverUrl) {
  backends.push({
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
      return {
        db,
        async drop() {
          await db.close();
          await admin.query(`drop database ${name}`);
          await admin.end();
        },
      };
    },
  });
}

// Plays, stored files and a ban's end are told only to the marketplace's server, which sends its registered secret.
export const marketplaceSecret = "schema-test-marketplace-secret-0123456789";

/**
 * Runs `body`'s tests on each backend, on a database of its own with the migrations applied (no demo
 * data) and the marketplace's secret registered: `database()` is that database while they run, and
 * `backend` says which it is.
 */
export function describeOnEachBackend(title: string, body: (database: () => Db, backend: Backend) => void) {
  describe.each(backends)(`${title} on $name`, (backend) => {
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
  await migrate(opened.db, { seed: false });
  await opened.db.query("select private.trust_marketplace_secret($1)", [marketplaceSecret]);
  return opened;
}

export const visitor: Claims = { role: "anon" };

export function as<T>(db: Db, claims: Claims, fn: (tx: Db) => Promise<T>) {
  return asRole(db, claims, fn);
}

export function asMarketplace<T>(db: Db, claims: Claims, fn: (tx: Db) => Promise<T>, secret = marketplaceSecret) {
  return asRole(db, claims, fn, { headers: new Headers({ "X-Marketplace-Secret": secret }) });
}

export async function errorOf(promise: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error("expected the statement to fail");
}
