import { PGlite, type Transaction } from "@electric-sql/pglite";
import { pgcrypto } from "@electric-sql/pglite/contrib/pgcrypto";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import pg from "pg";

// One database interface over two backends: embedded PGlite (the default) and a real PostgreSQL server
// (DATABASE_URL). Both return the same value shapes: json/jsonb parsed, int8 as a number when it fits,
// numeric as a string, and dates/timestamps as the ISO strings Postgres itself writes in JSON.

export type Row = Record<string, unknown>;

export type QueryResult<T> = {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows: number;
};

export interface Db {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
  /** Several statements, no parameters (migrations, test fixtures). */
  exec(sql: string): Promise<void>;
  /**
   * Inside a transaction this nests as a savepoint. `opening`: statements without parameters to run as
   * the transaction begins, in the same round trip as BEGIN where the backend allows; fn gets the rows
   * of the last one. `readOnly`: the transaction is opened READ ONLY, and its COMMIT (which has nothing
   * to make durable) may still be under way when the result is returned.
   */
  transaction<T>(fn: (tx: Db, opened: Row[]) => Promise<T>, opts?: TransactionOptions): Promise<T>;
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a gzipped tarball, which `openDb({ memory, snapshot })` starts from. */
  snapshot?(): Promise<Blob>;
  kind: "pglite" | "postgres";
}

type TransactionOptions = { opening?: string; readOnly?: boolean };

/** The opening to send after BEGIN (or SAVEPOINT), read-only first when asked. */
function openingSql(opts: TransactionOptions | undefined): string {
  return `${opts?.readOnly ? "set transaction read only; " : ""}${opts?.opening ?? ""}`;
}

/** `snapshot`: an in-memory PGlite starts as a copy of that database (an earlier `snapshot()`). */
export async function openDb(opts: { dataDir?: string; databaseUrl?: string; memory?: boolean; snapshot?: Blob }): Promise<Db> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.memory ? undefined : opts.dataDir, opts.memory ? opts.snapshot : undefined);
}

const oid = { int8: 20, date: 1082, timestamp: 1114, timestamptz: 1184 };

// Postgres text output ('2026-01-02 03:04:05.678+00') → its JSON form ('2026-01-02T03:04:05.678+00:00'),
// which is what PostgREST and GoTrue hand to clients. The session time zone is UTC on both backends.
function isoTimestamp(text: string): string {
  if (text === "infinity" || text === "-infinity") return text;
  return text.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00");
}

function int8(text: string): number | string {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
}

const parsers: Record<number, (text: string) => unknown> = {
  [oid.int8]: int8,
  [oid.date]: (text) => text,
  [oid.timestamp]: isoTimestamp,
  [oid.timestamptz]: isoTimestamp,
};

async function openPglite(dataDir: string | undefined, snapshot: Blob | undefined): Promise<Db> {
  const pglite = await PGlite.create(dataDir, { extensions: { pgcrypto, pg_trgm }, parsers, loadDataDir: snapshot });
  await pglite.exec(`set timezone = 'UTC'`);

  type Runner = Pick<Transaction, "query" | "exec">;
  const run = (runner: Runner) => ({
    async query<T>(sql: string, params?: unknown[]) {
      const result = await runner.query<T>(sql, params);
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows ?? 0 };
    },
    async exec(sql: string) {
      await runner.exec(sql);
    },
  });
  const opened = async (tx: Transaction, opts: TransactionOptions | undefined) => {
    const opening = openingSql(opts);
    return opening ? (((await tx.exec(opening)).at(-1)?.rows ?? []) as Row[]) : [];
  };

  // PGlite is one connection: its transaction() and query() share one mutex, so a query issued while
  // another caller's transaction is open waits for it instead of running inside it.
  const inTransaction = (tx: Transaction, depth: number): Db => ({
    ...run(tx),
    transaction: (fn, opts) => savepoint(inTransaction(tx, depth + 1), depth, async (inner) => fn(inner, await opened(tx, opts))),
    listen: (channel, onPayload) => pglite.listen(channel, onPayload, tx),
    close: () => Promise.reject(new Error("close() inside a transaction")),
    kind: "pglite",
  });

  return {
    ...run(pglite),
    // PGlite sends its own BEGIN; the opening follows as one more call, still before any other caller's
    transaction: (fn, opts) => pglite.transaction(async (tx) => fn(inTransaction(tx, 1), await opened(tx, opts))),
    listen: (channel, onPayload) => pglite.listen(channel, onPayload),
    close: () => pglite.close(),
    snapshot: () => pglite.dumpDataDir("gzip"),
    kind: "pglite",
  };
}

async function savepoint<T>(tx: Db, depth: number, fn: (tx: Db, opened: Row[]) => Promise<T>): Promise<T> {
  const name = `nested_${depth}`;
  await tx.exec(`savepoint ${name}`);
  try {
    const result = await fn(tx, []);
    await tx.exec(`release savepoint ${name}`);
    return result;
  } catch (error) {
    await tx.exec(`rollback to savepoint ${name}`);
    throw error;
  }
}

async function openPostgres(databaseUrl: string): Promise<Db> {
  const types = {
    getTypeParser(typeId: number, format?: "text" | "binary") {
      return parsers[typeId] ?? pg.types.getTypeParser(typeId, format);
    },
  };
  // Enough connections for the concurrent requests a developer machine or a bench sends (each request
  // holds one for its transaction), plus the one a LISTEN keeps.
  const pool = new pg.Pool({ connectionString: databaseUrl, types, options: "-c TimeZone=UTC", max: 20 });
  // A pool error on an idle client must not crash the process; the next query reports it.
  pool.on("error", () => {});

  const run = (client: pg.Pool | pg.PoolClient) => ({
    async query<T>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params as unknown[]);
      const changed = ["INSERT", "UPDATE", "DELETE", "MERGE"].includes(result.command);
      return {
        rows: result.rows as T[],
        fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
        affectedRows: changed ? (result.rowCount ?? 0) : 0,
      };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  });

  const listener = notificationListener(pool);

  // A multi-statement simple query answers with one result per statement.
  const lastRows = (result: pg.QueryResult | pg.QueryResult[]) => (Array.isArray(result) ? result.at(-1)!.rows : result.rows) as Row[];

  const inTransaction = (client: pg.PoolClient, depth: number): Db => ({
    ...run(client),
    transaction: (fn, opts) =>
      savepoint(inTransaction(client, depth + 1), depth, async (inner) => {
        const opening = openingSql(opts);
        return fn(inner, opening ? lastRows(await client.query(opening)) : []);
      }),
    listen: listener.listen,
    close: () => Promise.reject(new Error("close() inside a transaction")),
    kind: "postgres",
  });

  return {
    ...run(pool),
    async transaction(fn, opts) {
      const client = await pool.connect();
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        // BEGIN and the opening in one round trip
        const begin = opts?.readOnly ? "begin read only" : "begin";
        const begun = await client.query(opts?.opening ? `${begin}; ${opts.opening}` : begin);
        result = await fn(inTransaction(client, 1), opts?.opening ? lastRows(begun) : []);
      } catch (error) {
        await client.query("rollback").catch(() => {});
        client.release();
        throw error;
      }
      const commit = client.query("commit");
      if (opts?.readOnly) {
        // Nothing to make durable and nothing it can refuse, so the caller need not wait a round trip
        // for the answer. The connection goes back to the pool only once COMMIT is answered, so the
        // next transaction on it never starts inside this one; a failure (a lost connection) drops it.
        commit.then(
          () => client.release(),
          (error: Error) => client.release(error),
        );
        return result;
      }
      try {
        await commit;
      } catch (error) {
        await client.query("rollback").catch(() => {});
        client.release();
        throw error;
      }
      client.release();
      return result;
    },
    listen: listener.listen,
    async close() {
      await listener.close();
      await pool.end();
    },
    kind: "postgres",
  };
}

// LISTEN needs a connection of its own that stays open; one is shared by every listener of this Db.
function notificationListener(pool: pg.Pool) {
  let client: Promise<pg.PoolClient> | null = null;
  const callbacks = new Map<string, Set<(payload: string) => void>>();

  const connect = () => {
    client ??= pool.connect().then((c) => {
      c.on("notification", (message) => {
        for (const callback of callbacks.get(message.channel) ?? []) callback(message.payload ?? "");
      });
      return c;
    });
    return client;
  };

  return {
    async listen(channel: string, onPayload: (payload: string) => void) {
      const c = await connect();
      let set = callbacks.get(channel);
      if (!set) {
        set = new Set();
        callbacks.set(channel, set);
        await c.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
      set.add(onPayload);
      return async () => {
        set.delete(onPayload);
        if (set.size === 0 && callbacks.get(channel) === set) {
          callbacks.delete(channel);
          await c.query(`unlisten ${pg.escapeIdentifier(channel)}`);
        }
      };
    },
    async close() {
      if (!client) return;
      const c = await client;
      c.release(true);
      client = null;
    },
  };
}
