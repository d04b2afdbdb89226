// The declared schema (supabase/schemas, applied in file order) against what the migrations build, on a
// PostgreSQL 15 server: both start from what hosted Supabase provides (supabase/local/platform.sql).
// @pgkit/migra compares tables, columns, constraints, indexes, views, functions, policies, triggers,
// sequences, extensions and tables' grants; the grants on views and columns, functions' comments, the
// publications and the storage buckets (rows the product needs before its first request) it does not
// see, so they are compared here too.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { run as migra } from "@pgkit/migra";
import pg from "pg";
import { root } from "./app-server.ts";
import { copiedDatabase, databaseUrl } from "./supabase-cli.ts";

const schemasDir = join(root, "supabase", "schemas");

/** The schema files, in the order they apply (and Supabase's CLI reads them): by name. */
function schemaFiles(): string[] {
  return readdirSync(schemasDir)
    .filter((name) => name.endsWith(".sql"))
    .sort()
    .map((name) => join(schemasDir, name));
}

async function withDatabase<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * What the migrations build (the pushed database `template`) and supabase/schemas do not declare, or the
 * other way round: the SQL that would bring the migrations level, then the grants, publications and
 * buckets only one side has. Empty when they agree. `edit` changes a schema file's text (tests do).
 */
export async function schemaDrift(
  serverUrl: string,
  template: string,
  edit: (file: string, sql: string) => string = (_file, sql) => sql,
): Promise<string> {
  const suffix = `${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const migrated = `drift_migrated_${suffix}`;
  const declared = `drift_declared_${suffix}`;
  await migratedCopy(serverUrl, template, migrated);
  await declaredDatabase(serverUrl, declared, edit);
  return schemaDifference(serverUrl, migrated, declared);
}

/** A new database `name` holding platform.sql and then each schema file, as `edit` returns it. */
async function declaredDatabase(serverUrl: string, name: string, edit: (file: string, sql: string) => string): Promise<void> {
  await withDatabase(serverUrl, (server) => server.query(`create database ${name}`));
  await withDatabase(databaseUrl(serverUrl, name), async (database) => {
    await database.query(readFileSync(join(root, "supabase", "local", "platform.sql"), "utf8"));
    for (const file of schemaFiles()) {
      await database.query(edit(file, readFileSync(file, "utf8"))).catch((error: Error) => {
        throw new Error(`${file.slice(root.length + 1)}: ${error.message}`);
      });
    }
  });
}

/** A copy of the migrated database `template` without the CLI's own bookkeeping, which no schema declares. */
async function migratedCopy(serverUrl: string, template: string, name: string): Promise<void> {
  await copiedDatabase(serverUrl, template, name);
  await withDatabase(databaseUrl(serverUrl, name), (database) => database.query("drop schema if exists supabase_migrations cascade"));
}

// Privileges as the catalog holds them, one fact per grantee: migra leaves out views' and columns' grants.
const ourSchemas = `('public', 'private', 'storage')`;
const facts = {
  privilege: `select format('%s.%s %s', n.nspname, c.relname, acl::text) as fact
                from pg_class c join pg_namespace n on n.oid = c.relnamespace cross join unnest(c.relacl) as acl
               where n.nspname in ${ourSchemas} and c.relkind in ('r', 'p', 'v', 'm', 'f')
              union all
              select format('%s.%s(%s) %s', n.nspname, c.relname, a.attname, acl::text)
                from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
                cross join unnest(a.attacl) as acl
               where n.nspname in ${ourSchemas} and a.attnum > 0 and not a.attisdropped
              union all
              select format('%s.%s %s', n.nspname, p.oid::regprocedure, acl::text)
                from pg_proc p join pg_namespace n on n.oid = p.pronamespace cross join unnest(p.proacl) as acl
               where n.nspname in ${ourSchemas}
              order by 1`,
  // migra leaves out comments too; a function's says why it is not a public wrapper (supabase/schemas/README.md).
  comment: `select format('on function %I.%I(%s) is %L', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid),
                   d.description) as fact
              from pg_description d join pg_proc p on p.oid = d.objoid and d.classoid = 'pg_proc'::regclass
              join pg_namespace n on n.oid = p.pronamespace
             where n.nspname in ${ourSchemas}
             order by 1`,
  publication: `select pubname || ' ' || schemaname || '.' || tablename as fact from pg_publication_tables order by 1`,
  bucket: `select row_to_json(b)::text as fact from (select id, name, public, file_size_limit, allowed_mime_types
             from storage.buckets order by id) b`,
};

async function factsOf(url: string): Promise<Set<string>> {
  return withDatabase(url, async (database) => {
    const all = new Set<string>();
    for (const [kind, sql] of Object.entries(facts)) {
      for (const row of (await database.query<{ fact: string }>(sql)).rows) all.add(`${kind} ${row.fact}`);
    }
    return all;
  });
}

/** The SQL that turns the migrated database into the declared one (migra), then the facts only one side has. */
async function schemaDifference(serverUrl: string, migrated: string, declared: string): Promise<string> {
  const fromUrl = databaseUrl(serverUrl, migrated);
  const toUrl = databaseUrl(serverUrl, declared);
  const migration = await withoutDuplicateClientWarnings(() => migra(fromUrl, toUrl, { withPrivileges: true, unsafe: true }));
  const [fromFacts, toFacts] = await Promise.all([factsOf(fromUrl), factsOf(toUrl)]);
  const only = (a: Set<string>, b: Set<string>, side: string) =>
    [...a].filter((fact) => !b.has(fact)).map((fact) => `-- only in ${side}: ${fact}`);
  return [migration.sql.trim(), ...only(fromFacts, toFacts, "the migrations"), ...only(toFacts, fromFacts, "the schemas")]
    .filter(Boolean)
    .join("\n");
}

/**
 * migra opens a second pg-promise client on each database while it inspects it, and pg-promise warns
 * about that (through console.log) with a stack trace that reads like a failure. Only that warning is dropped.
 */
async function withoutDuplicateClientWarnings<T>(fn: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!String(args[0]).includes("Creating a duplicate database object for the same connection")) log(...args);
  };
  try {
    return await fn();
  } finally {
    console.log = log;
  }
}
