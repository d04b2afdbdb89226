import type { Db } from "../db.ts";
import { type SchemaEntries } from "../schema-cache.ts";
import { type BuildContext, Params, buildShape, ident } from "./sql.ts";
import { type Relation, findRelation } from "./relations.ts";
import type { RestRequest } from "./handler.ts";
import { apiError, respond } from "./responses.ts";
import { contentRange, readRows } from "./tables.ts";
import { parseLevels, parseSelect } from "./query-language.ts";

// Functions: POST /rpc/fn with named arguments in a JSON object, GET /rpc/fn?arg=value

type Routine = {
  name: string;
  args: { name: string; type: string }[];
  required: number;
  returnsSet: boolean;
  /** 'c' composite (a table's row or OUT parameters), 'b'/'d'/'e'/'r' scalar, 'p' pseudo (void, record) */
  returnKind: string;
  returnType: string;
  /** the table whose rows the function returns, so its results can embed related tables */
  returnRelation: number | null;
  outColumns: number;
};

function findRoutines(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Routine[]> {
  return cache.get(`routines:${schema}.${name}`, () => loadRoutines(tx, schema, name));
}

async function loadRoutines(tx: Db, schema: string, name: string): Promise<Routine[]> {
  const { rows } = await tx.query<Routine>(
    `select p.proname as name,
            coalesce((select json_agg(json_build_object('name', a.name, 'type', format_type(a.type, null)) order by a.i)
                        from unnest(p.proargnames, coalesce(p.proallargtypes, p.proargtypes::oid[]),
                                    coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs])))
                             with ordinality as a(name, type, mode, i)
                       where a.mode in ('i', 'b', 'v')), '[]') as args,
            p.pronargs - p.pronargdefaults as required,
            p.proretset as "returnsSet",
            t.typtype as "returnKind",
            format_type(p.prorettype, null) as "returnType",
            nullif(t.typrelid, 0)::int8 as "returnRelation",
            (select count(*) from unnest(p.proargmodes) m where m in ('o', 'b', 't'))::int as "outColumns"
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type t on t.oid = p.prorettype
      where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'`,
    [schema, name],
  );
  return rows;
}

export async function callFunction(tx: Db, cache: SchemaEntries, request: RestRequest, name: string): Promise<Response> {
  const routines = await findRoutines(tx, cache, request.schema, name);
  const viaGet = request.method === "GET" || request.method === "HEAD";
  if (!viaGet && request.method !== "POST") throw apiError(405, "PGRST101", `Cannot use the ${request.method} method on RPC`);

  let args: Record<string, unknown>;
  if (viaGet) {
    const names = new Set(routines.flatMap((r) => r.args.map((a) => a.name)));
    args = {};
    for (const [key, value] of request.params) if (names.has(key)) args[key] = value;
  } else {
    const body = request.body ?? {};
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw apiError(400, "PGRST102", "Empty or invalid json");
    args = body as Record<string, unknown>;
  }
  const given = Object.keys(args);
  const routine = routines.find(
    (r) => given.every((k) => r.args.some((a) => a.name === k)) && r.args.slice(0, r.required).every((a) => given.includes(a.name)),
  );
  if (!routine) {
    const list = given.slice().sort().join(", ");
    throw apiError(
      404,
      "PGRST202",
      `Could not find the function ${request.schema}.${name}${given.length ? `(${list})` : " without parameters"} in the schema cache`,
      {
        details: `Searched for the function ${request.schema}.${name}${given.length ? ` with parameter${given.length > 1 ? "s" : ""} ${list}` : " without parameters"} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
      },
    );
  }

  const params = new Params();
  const argList = given.map((k) => `${ident(k)} => pgrst_args.${ident(k)}`).join(", ");
  const argColumns = given.map((k) => `${ident(k)} ${routine.args.find((a) => a.name === k)!.type}`).join(", ");
  const argsFrom = given.length
    ? `json_to_record(${params.add(viaGet ? JSON.stringify(args) : request.bodyText)}::json) as pgrst_args(${argColumns})`
    : "(select) as pgrst_args";
  const call = `${ident(request.schema)}.${ident(name)}(${argList})`;
  const tableLike = routine.returnKind === "c" || routine.outColumns > 0;

  if (!tableLike) {
    // a scalar, or a set of scalars: the JSON value itself, or an array of them
    const { rows } = await tx.query<{ body: string | null; page: number }>(
      routine.returnsSet
        ? `select coalesce(json_agg(pgrst_call.value), '[]')::text as body, count(*)::int8 as page
             from ${argsFrom} cross join lateral ${call} as pgrst_call(value)`
        : `select to_json(${call})::text as body, 1::int8 as page from ${argsFrom}`,
      params.values,
    );
    if (routine.returnType === "void") return respond(204, null, request, new Headers());
    const { body, page } = rows[0];
    const total = request.prefer.has("count") ? page : null;
    const headers = new Headers({ "content-range": routine.returnsSet ? contentRange(0, page, total) : "0-0/*" });
    return respond(200, body ?? "null", request, headers);
  }

  // rows: filter, order, page and embed them like a table's
  const relation: Relation = {
    schema: request.schema,
    name,
    oid: routine.returnRelation,
    baseOids: [],
    columns: [],
    primaryKey: [],
    source: `(select pgrst_call.* from ${argsFrom} cross join lateral ${call} as pgrst_call)`,
  };
  if (routine.returnRelation !== null) {
    const returnRelation = routine.returnRelation;
    const owner = await cache.get(`relation name:${returnRelation}`, async () => {
      const { rows } = await tx.query<{ schema: string; name: string }>(
        `select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where c.oid = $1`,
        [returnRelation],
      );
      return rows[0] ?? null;
    });
    const table = owner && (await findRelation(tx, cache, owner.schema, owner.name));
    if (table) relation.columns = table.columns;
  }
  const levels = parseLevels(request.params, viaGet ? new Set(given) : new Set());
  const ctx: BuildContext = { tx, cache, params, levels, aliases: new Map([[name, 0]]) };
  const shape = await buildShape(ctx, relation, name, parseSelect(request.params.get("select") ?? "*"), "");
  // a function returning one row (not a set) answers with that row as an object
  const single = request.singleObject || !routine.returnsSet;
  return readRows(tx, request, params, shape, `${relation.source} as ${ident(name)}`, name, levels.get(""), single);
}
