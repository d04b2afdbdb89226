import type { Db } from "../db.ts";
import { type SchemaEntries } from "../schema-cache.ts";
import { parseQuery } from "./query-language.ts";
import { apiError, respond, type RestRequest, unsupported } from "./responses.ts";
import { Params, filterSql, ident, orderSql } from "./sql.ts";
import { readRows } from "./tables.ts";

// Functions: POST /rpc/fn with named arguments in a JSON object (postgrest-js's rpc())

type Routine = {
  args: { name: string; type: string }[];
  required: number;
  returnsSet: boolean;
  /** 'c' composite (a table's row or OUT parameters), 'b'/'d'/'e'/'r' scalar, 'p' pseudo (void, record) */
  returnKind: string;
  returnType: string;
  outColumns: number;
};

function findRoutines(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Routine[]> {
  return cache.get(`routines:${schema}.${name}`, () => loadRoutines(tx, schema, name));
}

async function loadRoutines(tx: Db, schema: string, name: string): Promise<Routine[]> {
  const { rows } = await tx.query<Routine>(
    `select coalesce((select json_agg(json_build_object('name', a.name, 'type', format_type(a.type, null)) order by a.i)
                        from unnest(p.proargnames, coalesce(p.proallargtypes, p.proargtypes::oid[]),
                                    coalesce(p.proargmodes, array_fill('i'::"char", array[p.pronargs])))
                             with ordinality as a(name, type, mode, i)
                       where a.mode in ('i', 'b', 'v')), '[]') as args,
            p.pronargs - p.pronargdefaults as required,
            p.proretset as "returnsSet",
            t.typtype as "returnKind",
            format_type(p.prorettype, null) as "returnType",
            (select count(*) from unnest(p.proargmodes) m where m in ('o', 'b', 't'))::int as "outColumns"
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace join pg_type t on t.oid = p.prorettype
      where n.nspname = $1 and p.proname = $2 and p.prokind = 'f'`,
    [schema, name],
  );
  return rows;
}

export async function callFunction(tx: Db, cache: SchemaEntries, request: RestRequest, name: string): Promise<Response> {
  if (request.method === "GET" || request.method === "HEAD") throw unsupported("Calling a function by GET");
  if (request.method !== "POST") throw apiError(405, "PGRST101", `Cannot use the ${request.method} method on RPC`);
  const body = request.body ?? {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw apiError(400, "PGRST102", "Empty or invalid json");
  const given = Object.keys(body);
  const routines = await findRoutines(tx, cache, request.schema, name);
  const routine = routines.find(
    (r) => given.every((k) => r.args.some((a) => a.name === k)) && r.args.slice(0, r.required).every((a) => given.includes(a.name)),
  );
  if (!routine) {
    const list = given.slice().sort().join(", ");
    throw apiError(
      404,
      "PGRST202",
      `Could not find the function ${request.schema}.${name}${given.length ? `(${list})` : " without parameters"} in the schema cache`,
    );
  }

  const params = new Params();
  const argList = given.map((k) => `${ident(k)} => pgrst_args.${ident(k)}`).join(", ");
  const argColumns = given.map((k) => `${ident(k)} ${routine.args.find((a) => a.name === k)!.type}`).join(", ");
  const argsFrom = given.length
    ? `json_to_record(${params.add(request.bodyText)}::json) as pgrst_args(${argColumns})`
    : "(select) as pgrst_args";
  const call = `${ident(request.schema)}.${ident(name)}(${argList})`;

  if (routine.returnKind !== "c" && routine.outColumns === 0) {
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
    const range = routine.returnsSet ? `${page > 0 ? `0-${page - 1}` : "*"}/${request.count ? page : "*"}` : "0-0/*";
    return respond(200, body ?? "null", request, new Headers({ "content-range": range }));
  }

  // rows: filtered, ordered and paged like a table's; one row (not a set) answers as an object
  const select = request.params.get("select");
  if (select !== null && select.trim() !== "*") throw unsupported("Choosing or embedding columns of a function's rows");
  const query = parseQuery(request.params);
  const where = query.filters.map((filter) => filterSql(filter, name, params));
  const from = `from (select pgrst_call.* from ${argsFrom} cross join lateral ${call} as pgrst_call) as ${ident(name)}
                ${where.length ? `where ${where.join(" and ")}` : ""}`;
  const sql = { select: `${ident(name)}.*`, from, order: orderSql(query.order, name) };
  return readRows(tx, request, params, sql, query, request.singleObject || !routine.returnsSet);
}
