import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./db.ts";

// Brings a database up to date the way the Supabase CLI does: the platform shim (what hosted Supabase
// provides before our migrations run), then every pending migration in filename order, each in its own
// transaction and recorded in supabase_migrations.schema_migrations, then the seed once per database.

const supabaseDir = join(import.meta.dirname, "..");
const platformVersion = "00000000000000";

type Migration = { version: string; name: string; sql: () => string };

function migrations(): Migration[] {
  const platformFile = join(import.meta.dirname, "platform.sql");
  const platform = { version: platformVersion, name: "platform", sql: () => readSql(platformFile) };
  const dir = join(supabaseDir, "migrations");
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".sql"))
        .sort()
    : [];
  return [
    // Absent only while the schema is being written; it is applied as soon as it exists.
    ...(existsSync(platformFile) ? [platform] : []),
    ...files.map((file) => {
      const [, version, name] = /^(\d+)_?(.*)\.sql$/.exec(file) ?? [file, file.slice(0, -4), ""];
      return { version, name, sql: () => readSql(join(dir, file)) };
    }),
  ];
}

export async function migrate(db: Db, opts: { seed: boolean }): Promise<{ applied: string[]; seeded: boolean }> {
  await db.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key, name text, applied_at timestamptz not null default now());
    create table if not exists supabase_migrations.seed_files (
      path text primary key, hash text not null, applied_at timestamptz not null default now());`);

  const done = new Set(
    (await db.query<{ version: string }>("select version from supabase_migrations.schema_migrations")).rows.map((r) => r.version),
  );
  // As `supabase db push` does: a database that recorded migrations this project no longer has (its
  // history was squashed into a baseline, say) cannot be brought up to date, only rebuilt.
  const known = new Set(migrations().map((migration) => migration.version));
  const unknown = [...done].filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new Error(
      `This database has migrations that supabase/migrations no longer holds (${unknown.slice(0, 3).join(", ")}${unknown.length > 3 ? ", …" : ""}): run npm run db:reset.`,
    );
  }
  const applied: string[] = [];
  for (const migration of migrations()) {
    if (done.has(migration.version)) continue;
    const sql = migration.sql();
    await db
      .transaction(async (tx) => {
        await tx.exec(sql);
        await tx.query("insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)", [
          migration.version,
          migration.name,
        ]);
      })
      .catch((error) => {
        throw new Error(`migration ${migration.version}_${migration.name} failed: ${error.message}`, { cause: error });
      });
    applied.push(`${migration.version}_${migration.name}`);
  }

  const seeded = opts.seed && (await seedOnce(db));
  return { applied, seeded };
}

async function seedOnce(db: Db): Promise<boolean> {
  const path = "supabase/seed.sql";
  const file = join(supabaseDir, "seed.sql");
  if (!existsSync(file)) return false;
  const { rows } = await db.query("select 1 from supabase_migrations.seed_files limit 1");
  if (rows.length > 0) return false;
  const sql = readSql(file);
  await db
    .transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query("insert into supabase_migrations.seed_files (path, hash) values ($1, $2)", [
        path,
        createHash("sha256").update(sql).digest("hex"),
      ]);
    })
    .catch((error) => {
      throw new Error(`${path} failed: ${error.message}`, { cause: error });
    });
  return true;
}

function readSql(file: string): string {
  return readFileSync(file, "utf8");
}
