import type { Db } from "../db.ts";
import { type SchemaEntries } from "../schema-cache.ts";
import { apiError, closest } from "./responses.ts";
import { ident } from "./sql.ts";

// The schema: relations, columns, foreign keys and functions, read from pg_catalog once per schema
// version (schema-cache.ts), so tables created a moment ago (migrations, tests) are there at once.

type Column = { name: string; type: string; default: string | null; identity: string; generated: string };

export type Relation = {
  schema: string;
  name: string;
  /** the pg_class oid whose foreign keys relate it to others (a function's returned table too) */
  oid: number | null;
  /** a view's base tables, whose foreign keys it shares for the columns it shows under the same names */
  baseOids: number[];
  columns: Column[];
  primaryKey: string[];
  /** SQL for the FROM clause: a quoted table name or a function call */
  source: string;
};

export function findRelation(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Relation | null> {
  return cache.get(`relation:${schema}.${name}`, () => loadRelation(tx, schema, name));
}

async function loadRelation(tx: Db, schema: string, name: string): Promise<Relation | null> {
  const { rows } = await tx.query<{ oid: number; columns: Column[]; primary_key: string[] | null; base_oids: number[] | null }>(
    `select c.oid::int8 as oid,
            coalesce((select json_agg(json_build_object(
                'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
                'default', pg_get_expr(d.adbin, d.adrelid), 'identity', a.attidentity, 'generated', a.attgenerated)
                order by a.attnum)
              from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '[]') as columns,
            (select array_agg(a.attname::text order by k.i)
               from pg_constraint p, unnest(p.conkey) with ordinality k(attnum, i), pg_attribute a
              where p.conrelid = c.oid and p.contype = 'p' and a.attrelid = c.oid and a.attnum = k.attnum) as primary_key,
            (select json_agg(distinct d.refobjid::int8)
               from pg_rewrite r join pg_depend d on d.objid = r.oid
              where r.ev_class = c.oid and d.classid = 'pg_rewrite'::regclass
                and d.refclassid = 'pg_class'::regclass and d.refobjid <> c.oid) as base_oids
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    [schema, name],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    schema,
    name,
    oid: row.oid,
    baseOids: row.base_oids ?? [],
    columns: row.columns,
    primaryKey: row.primary_key ?? [],
    source: `${ident(schema)}.${ident(name)}`,
  };
}

export async function requireRelation(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Relation> {
  const relation = await findRelation(tx, cache, schema, name);
  if (relation) return relation;
  const { rows } = await tx.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    [schema],
  );
  const suggestion = closest(
    name,
    rows.map((r) => r.name),
  );
  throw apiError(404, "PGRST205", `Could not find the table '${schema}.${name}' in the schema cache`, {
    hint: suggestion ? `Perhaps you meant the table '${schema}.${suggestion}'` : null,
  });
}

type ForeignKey = {
  name: string;
  fromOid: number;
  fromSchema: string;
  fromTable: string;
  fromColumns: string[];
  toOid: number;
  toSchema: string;
  toTable: string;
  toColumns: string[];
  /** the referencing columns are unique, so the referencing side has at most one row: one-to-one */
  fromUnique: boolean;
};

function foreignKeysOf(tx: Db, cache: SchemaEntries, oids: number[]): Promise<ForeignKey[]> {
  return cache.get(`foreign keys:${oids.join(",")}`, () => loadForeignKeys(tx, oids));
}

async function loadForeignKeys(tx: Db, oids: number[]): Promise<ForeignKey[]> {
  const { rows } = await tx.query<ForeignKey>(
    `select con.conname as "name",
            con.conrelid::int8 as "fromOid", fn.nspname as "fromSchema", f.relname as "fromTable",
            (select array_agg(a.attname::text order by k.i) from unnest(con.conkey) with ordinality k(attnum, i)
               join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.attnum) as "fromColumns",
            con.confrelid::int8 as "toOid", tn.nspname as "toSchema", t.relname as "toTable",
            (select array_agg(a.attname::text order by k.i) from unnest(con.confkey) with ordinality k(attnum, i)
               join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.attnum) as "toColumns",
            exists(select 1 from pg_index ix
                    where ix.indrelid = con.conrelid and ix.indisunique and ix.indpred is null
                      and ix.indkey::int2[] @> con.conkey and ix.indkey::int2[] <@ con.conkey) as "fromUnique"
       from pg_constraint con
       join pg_class f on f.oid = con.conrelid join pg_namespace fn on fn.oid = f.relnamespace
       join pg_class t on t.oid = con.confrelid join pg_namespace tn on tn.oid = t.relnamespace
      where con.contype = 'f' and (con.conrelid = any($1::oid[]) or con.confrelid = any($1::oid[]))
      order by con.conname`,
    [`{${oids.join(",")}}`],
  );
  return rows;
}

type Relationship = {
  target: Relation;
  /** one: a JSON object or null; many: a JSON array */
  cardinality: "one" | "many";
  /** pairs of (parent column, target column) that must be equal */
  on: [string, string][];
  constraint: string;
};

/**
 * How `name` embeds in `parent`, as PostgREST resolves it: a foreign key from the parent to the target
 * (many-to-one, an object), from the target to the parent (one-to-many, an array; one-to-one when the
 * referencing columns are unique), optionally narrowed by a hint naming the constraint or a column.
 * Views share their base tables' foreign keys for the columns they show under the same names.
 */
export async function resolveEmbed(
  tx: Db,
  cache: SchemaEntries,
  parent: Relation,
  name: string,
  hint: string | undefined,
): Promise<Relationship> {
  const target = await findRelation(tx, cache, parent.schema, name);
  const notFound = () =>
    apiError(400, "PGRST200", `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`, {
      details: `Searched for a foreign key relationship between '${parent.name}' and '${name}'${hint ? ` using the hint '${hint}'` : ""} in the schema '${parent.schema}', but no matches were found.`,
    });
  if (!target) throw notFound();
  const parentOids = parent.oid === null ? [] : [parent.oid, ...parent.baseOids];
  const targetOids = target.oid === null ? [] : [target.oid, ...target.baseOids];
  const keys = await foreignKeysOf(tx, cache, [...parentOids, ...targetOids]);
  const has = (relation: Relation, columns: string[]) => columns.every((c) => relation.columns.some((col) => col.name === c));

  const candidates: Relationship[] = [];
  for (const key of keys) {
    if (parentOids.includes(key.fromOid) && targetOids.includes(key.toOid) && has(parent, key.fromColumns) && has(target, key.toColumns)) {
      candidates.push({
        target,
        cardinality: "one",
        on: key.fromColumns.map((c, i) => [c, key.toColumns[i]]),
        constraint: key.name,
      });
    }
    if (targetOids.includes(key.fromOid) && parentOids.includes(key.toOid) && has(target, key.fromColumns) && has(parent, key.toColumns)) {
      candidates.push({
        target,
        cardinality: key.fromUnique ? "one" : "many",
        on: key.toColumns.map((c, i) => [c, key.fromColumns[i]]),
        constraint: key.name,
      });
    }
  }
  const matching = hint ? candidates.filter((r) => r.constraint === hint || r.on.some(([p, t]) => p === hint || t === hint)) : candidates;
  const unique = [...new Map(matching.map((r) => [`${r.constraint}:${r.cardinality}:${JSON.stringify(r.on)}`, r])).values()];
  if (unique.length === 0) throw notFound();
  if (unique.length > 1) {
    throw apiError(300, "PGRST201", `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`, {
      details: unique.map((r) => ({
        cardinality: r.cardinality === "many" ? "one-to-many" : "many-to-one",
        embedding: `${parent.name} with ${name}`,
        relationship: `${r.constraint} using ${parent.name}(${r.on.map(([p]) => p).join(", ")}) and ${name}(${r.on.map(([, t]) => t).join(", ")})`,
      })),
      hint: `Try changing '${name}' to one of the following: ${unique.map((r) => `'${name}!${r.constraint}'`).join(", ")}. Find the desired relationship in the 'details' key.`,
    });
  }
  return unique[0];
}
