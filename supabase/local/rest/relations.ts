import type { Db } from "../db.ts";
import { type SchemaEntries } from "../schema-cache.ts";
import { apiError } from "./responses.ts";
import { ident } from "./sql.ts";

// The schema: relations, columns and foreign keys, read from pg_catalog once per schema version
// (schema-cache.ts), so tables created a moment ago (migrations, tests) are there at once.

export type Relation = {
  schema: string;
  name: string;
  oid: number;
  columns: string[];
  /** SQL for the FROM clause: the quoted, schema-qualified name */
  source: string;
};

function findRelation(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Relation | null> {
  return cache.get(`relation:${schema}.${name}`, () => loadRelation(tx, schema, name));
}

async function loadRelation(tx: Db, schema: string, name: string): Promise<Relation | null> {
  const { rows } = await tx.query<{ oid: number; columns: string[] }>(
    `select c.oid::int8 as oid,
            coalesce((select array_agg(a.attname::text order by a.attnum) from pg_attribute a
                       where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '{}') as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname = $2 and c.relkind in ('r', 'p', 'v', 'm', 'f')`,
    [schema, name],
  );
  const row = rows[0];
  return row ? { schema, name, oid: row.oid, columns: row.columns, source: `${ident(schema)}.${ident(name)}` } : null;
}

export async function requireRelation(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Relation> {
  const relation = await findRelation(tx, cache, schema, name);
  if (relation) return relation;
  throw apiError(404, "PGRST205", `Could not find the table '${schema}.${name}' in the schema cache`);
}

type ForeignKey = {
  name: string;
  fromOid: number;
  fromColumns: string[];
  toOid: number;
  toColumns: string[];
  /** the referencing columns are unique, so the referencing side has at most one row: one-to-one */
  fromUnique: boolean;
};

function foreignKeysOf(tx: Db, cache: SchemaEntries, oids: number[]): Promise<ForeignKey[]> {
  return cache.get(`foreign keys:${oids.join(",")}`, () => loadForeignKeys(tx, oids));
}

async function loadForeignKeys(tx: Db, oids: number[]): Promise<ForeignKey[]> {
  const columnsOf = (relation: string, keys: string) =>
    `(select array_agg(a.attname::text order by k.i) from unnest(${keys}) with ordinality k(attnum, i)
        join pg_attribute a on a.attrelid = ${relation} and a.attnum = k.attnum)`;
  const { rows } = await tx.query<ForeignKey>(
    `select con.conname as "name", con.conrelid::int8 as "fromOid", ${columnsOf("con.conrelid", "con.conkey")} as "fromColumns",
            con.confrelid::int8 as "toOid", ${columnsOf("con.confrelid", "con.confkey")} as "toColumns",
            exists(select 1 from pg_index ix
                    where ix.indrelid = con.conrelid and ix.indisunique and ix.indpred is null
                      and ix.indkey::int2[] @> con.conkey and ix.indkey::int2[] <@ con.conkey) as "fromUnique"
       from pg_constraint con
      where con.contype = 'f' and (con.conrelid = any($1::oid[]) or con.confrelid = any($1::oid[]))
      order by con.conname`,
    [`{${oids.join(",")}}`],
  );
  return rows;
}

type Relationship = {
  target: Relation;
  /** one: a JSON object or null (many-to-one, one-to-one); many: a JSON array (one-to-many) */
  cardinality: "one" | "many";
  /** pairs of (parent column, target column) that must be equal */
  on: [string, string][];
};

/**
 * How `name` embeds in `parent`, as PostgREST resolves it without a hint: the one foreign key from the
 * parent to the target (many-to-one, an object) or from the target to the parent (one-to-many, an array;
 * one-to-one, an object, when the referencing columns are unique).
 */
export async function resolveEmbed(tx: Db, cache: SchemaEntries, parent: Relation, name: string): Promise<Relationship> {
  const target = await findRelation(tx, cache, parent.schema, name);
  if (!target) throw noRelationship(parent, name);
  const candidates: (Relationship & { constraint: string })[] = [];
  for (const key of await foreignKeysOf(tx, cache, [parent.oid, target.oid])) {
    if (key.fromOid === parent.oid && key.toOid === target.oid) {
      candidates.push({ target, cardinality: "one", on: key.fromColumns.map((c, i) => [c, key.toColumns[i]]), constraint: key.name });
    }
    if (key.fromOid === target.oid && key.toOid === parent.oid) {
      const cardinality = key.fromUnique ? "one" : "many";
      candidates.push({ target, cardinality, on: key.toColumns.map((c, i) => [c, key.fromColumns[i]]), constraint: key.name });
    }
  }
  if (candidates.length === 0) throw noRelationship(parent, name);
  if (candidates.length > 1) {
    throw apiError(300, "PGRST201", `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`, {
      details: candidates.map((r) => ({
        cardinality: r.cardinality === "many" ? "one-to-many" : "many-to-one",
        embedding: `${parent.name} with ${name}`,
        relationship: `${r.constraint} using ${parent.name}(${r.on.map(([p]) => p).join(", ")}) and ${name}(${r.on.map(([, t]) => t).join(", ")})`,
      })),
      hint: "Embedding hints are not supported by the local stack: the product embeds only unambiguous relationships.",
    });
  }
  return candidates[0];
}

function noRelationship(parent: Relation, name: string) {
  return apiError(400, "PGRST200", `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`, {
    details: `Searched for a foreign key relationship between '${parent.name}' and '${name}' in the schema '${parent.schema}', but no matches were found.`,
  });
}
