import type { Db } from "./db.ts";

// PostgREST's schema cache: what REST requests learn from pg_catalog (relations, columns, foreign keys,
// functions) is kept in memory, so a request does not pay a catalog query. It must never be stale: tests
// and migrations create tables and policies and call REST the next moment. So the database counts its
// own schema changes: an event trigger on ddl_command_end (which fires for every DDL command, drops,
// grants and policies included, from any connection) bumps a one-row counter. Every REST request reads
// the counter in the statement that switches its role (no extra round trip), and cached entries are only
// used under the counter value they were read with. The counter is a row, not a sequence, so the bump is
// transactional: a request sees the new value exactly when it can see the new catalog. Installing an
// event trigger needs a superuser; without one, nothing is cached and every request reads the catalog.
// `NOTIFY pgrst, 'reload schema'` (PostgREST's own signal) also empties the cache.

const schemaName = "supabase_local";

const installSql = `
  create schema if not exists ${schemaName};
  create table if not exists ${schemaName}.schema_version (
    id boolean primary key default true check (id), version int8 not null default 0);
  insert into ${schemaName}.schema_version default values on conflict do nothing;
  grant usage on schema ${schemaName} to public;
  grant select on ${schemaName}.schema_version to public;
  create or replace function ${schemaName}.bump_schema_version() returns event_trigger
    language plpgsql security definer set search_path = '' as $$
    begin
      update ${schemaName}.schema_version set version = version + 1;
    end $$;
  drop event trigger if exists supabase_local_schema_version;
  create event trigger supabase_local_schema_version on ddl_command_end
    execute function ${schemaName}.bump_schema_version();`;

/** A select-list expression giving the schema version, for the statement that starts a request. */
export const schemaVersionSql = `(select version from ${schemaName}.schema_version)`;

export class SchemaCache {
  /** false when the counter could not be installed: then nothing is cached */
  enabled = false;
  #version = -1;
  #entries = new Map<string, unknown>();

  /** Installs the counter (as the stack's superuser connection) and listens for PostgREST's reload signal. */
  async install(db: Db): Promise<void> {
    try {
      await db.exec(installSql);
      this.enabled = true;
    } catch {
      this.enabled = false;
    }
    await db.listen("pgrst", (payload) => {
      if (payload === "" || payload === "reload schema") this.#entries = new Map();
    });
  }

  /**
   * The entries valid at `version`, the counter as the request's transaction saw it. A newer version
   * starts the cache afresh; a request still on an older one gets entries of its own, used once.
   */
  at(version: unknown): SchemaEntries {
    if (!this.enabled || typeof version !== "number" || version < this.#version) return new SchemaEntries(new Map());
    if (version > this.#version) {
      this.#version = version;
      this.#entries = new Map();
    }
    return new SchemaEntries(this.#entries);
  }
}

/** One request's view of the cache: a lookup is loaded once per schema version, then reused. */
export class SchemaEntries {
  #entries: Map<string, unknown>;
  constructor(entries: Map<string, unknown>) {
    this.#entries = entries;
  }

  async get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.#entries.has(key)) return this.#entries.get(key) as T;
    const value = await load();
    this.#entries.set(key, value);
    return value;
  }
}
