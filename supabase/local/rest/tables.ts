import type { Db } from "../db.ts";
import { type SchemaEntries } from "../schema-cache.ts";
import { type Query, type SelectItem, parseQuery, parseSelect, splitTopLevel, unquote } from "./query-language.ts";
import { type Relation, requireRelation, resolveEmbed } from "./relations.ts";
import { apiError, respond, type RestRequest, singularityError, unsupported } from "./responses.ts";
import { Params, filterSql, ident, orderSql, pageSql } from "./sql.ts";

// Reads and writes on tables and views

export async function queryRelation(tx: Db, cache: SchemaEntries, request: RestRequest, name: string): Promise<Response> {
  const relation = await requireRelation(tx, cache, request.schema, name);
  const params = new Params();
  const query = parseQuery(request.params);
  const alias = relation.name;
  const items = parseSelect(request.params.get("select") ?? "*");
  const shape = () => selectList({ tx, cache, aliases: new Map([[alias, 0]]) }, relation, alias, items);
  const where = query.filters.map((filter) => filterSql(filter, alias, params));

  if (request.method === "GET" || request.method === "HEAD") {
    const { columns, joins } = await shape();
    const from = `from ${relation.source} as ${ident(alias)} ${joins.join(" ")} ${where.length ? `where ${where.join(" and ")}` : ""}`;
    return readRows(tx, request, params, { select: columns.join(", "), from, order: orderSql(query.order, alias) }, query);
  }

  let statement: string;
  if (request.method === "POST") statement = insertSql(relation, alias, request, params);
  else {
    if (where.length === 0) {
      const verb = request.method === "PATCH" ? "UPDATE" : "DELETE";
      throw apiError(400, "21000", `${verb} requires a WHERE clause`);
    }
    statement = request.method === "PATCH" ? updateSql(relation, alias, request, params, where) : deleteSql(relation, alias, where);
  }
  if (!request.returnRepresentation) {
    const { affectedRows } = await tx.query(statement, params.values);
    if (request.singleObject && affectedRows !== 1 && request.method !== "POST") throw singularityError(affectedRows);
    return writeResponse(request, null, affectedRows);
  }
  // the returned rows are shaped by select= (embeds too) but not filtered again: a PATCH may have
  // changed the very columns its filters matched
  const { columns, joins } = await shape();
  const { rows } = await tx.query<{ page: number; body: string; first: string | null }>(
    `with pgrst_source as (${statement} returning ${ident(alias)}.*)
     select count(pgrst_row)::int8 as page, coalesce(json_agg(pgrst_row), '[]')::text as body,
            (json_agg(pgrst_row) -> 0)::text as first
       from (select ${columns.join(", ")} from pgrst_source as ${ident(alias)} ${joins.join(" ")}${orderSql(query.order, alias)}) pgrst_row`,
    params.values,
  );
  const { page, body, first } = rows[0];
  if (request.singleObject && page !== 1) throw singularityError(page);
  return writeResponse(request, request.singleObject ? first : body, page);
}

/** The select list and the lateral joins that embed related rows, for one level of the select tree. */
type SelectList = { columns: string[]; joins: string[] };
type BuildContext = { tx: Db; cache: SchemaEntries; aliases: Map<string, number> };

async function selectList(ctx: BuildContext, relation: Relation, alias: string, items: SelectItem[]): Promise<SelectList> {
  const list: SelectList = { columns: [], joins: [] };
  for (const item of items) {
    if (item.kind === "star") list.columns.push(`${ident(alias)}.*`);
    else if (item.kind === "column") list.columns.push(`${ident(alias)}.${ident(item.name)} as ${ident(item.alias ?? item.name)}`);
    else {
      const label = ident(item.alias ?? item.name);
      const lateral = `${label.slice(0, -1)}_embed"`;
      list.joins.push(`left join lateral (${await embeddedRows(ctx, relation, alias, item)}) as ${lateral} on true`);
      list.columns.push(`${lateral}.body as ${label}`);
    }
  }
  return list;
}

/** One embedded resource as a `body` column: the related row as an object (or null), or an array of them. */
async function embeddedRows(ctx: BuildContext, parent: Relation, parentAlias: string, item: Extract<SelectItem, { kind: "embed" }>) {
  const { target, cardinality, on } = await resolveEmbed(ctx.tx, ctx.cache, parent, item.name);
  const n = (ctx.aliases.get(target.name) ?? 0) + 1;
  ctx.aliases.set(target.name, n);
  const alias = `${target.name}_${n}`;
  const { columns, joins } = await selectList(ctx, target, alias, item.items.length ? item.items : [{ kind: "star" }]);
  const where = on.map(([p, t]) => `${ident(alias)}.${ident(t)} = ${ident(parentAlias)}.${ident(p)}`);
  const rows = `select ${columns.join(", ")} from ${target.source} as ${ident(alias)} ${joins.join(" ")} where ${where.join(" and ")}`;
  return cardinality === "one"
    ? `select row_to_json(pgrst_row) as body from (${rows} limit 1) pgrst_row`
    : `select coalesce(json_agg(pgrst_row), '[]') as body from (${rows}) pgrst_row`;
}

/** Rows as JSON with PostgREST's Content-Range (and 206/416 when counting), or the one row as an object. */
export async function readRows(
  tx: Db,
  request: RestRequest,
  params: Params,
  sql: { select: string; from: string; order: string },
  query: Query,
  single = request.singleObject,
): Promise<Response> {
  const offset = query.offset ?? 0;
  const { rows } = await tx.query<{ total: number | null; page: number; body: string; first: string | null }>(
    `select ${request.count ? `(select count(*) ${sql.from})` : "null"}::int8 as total,
            count(pgrst_row)::int8 as page, coalesce(json_agg(pgrst_row), '[]')::text as body,
            (json_agg(pgrst_row) -> 0)::text as first
       from (select ${sql.select} ${sql.from}${sql.order}${pageSql(query.limit, offset, params)}) pgrst_row`,
    params.values,
  );
  const { total, page, body, first } = rows[0];
  if (single && page !== 1) throw singularityError(page);
  if (total !== null && offset > total) {
    throw apiError(416, "PGRST103", "Requested range not satisfiable", {
      details: `An offset of ${offset} was requested, but there are only ${total} rows.`,
      headers: { "content-range": `*/${total}` },
    });
  }
  const range = page > 0 ? `${offset}-${offset + page - 1}` : "*";
  const headers = new Headers({ "content-range": `${range}/${total ?? "*"}` });
  return respond(total !== null && page < total ? 206 : 200, single ? first : body, request, headers);
}

/** The columns to write: `columns=` (postgrest-js sends it for an array of rows) or the object's keys. */
function columnsToWrite(request: RestRequest, relation: Relation): string[] {
  const body = request.body;
  const rows = Array.isArray(body) ? body : [body];
  if (body === undefined || rows.some((r) => typeof r !== "object" || r === null || Array.isArray(r))) {
    throw apiError(400, "PGRST102", "Empty or invalid json");
  }
  const columnsParam = request.params.get("columns");
  const columns = columnsParam
    ? splitTopLevel(columnsParam).map((c) => unquote(c.trim()))
    : [...new Set(rows.flatMap((r) => Object.keys(r as object)))];
  if (columns.length === 0) throw unsupported("Writing rows without columns (all defaults)");
  for (const column of columns) {
    if (!relation.columns.includes(column)) {
      throw apiError(400, "PGRST204", `Could not find the '${column}' column of '${relation.name}' in the schema cache`);
    }
  }
  return columns;
}

/** Keys an object leaves out are null, as postgrest-js's default (defaultToNull) asks. */
function insertSql(relation: Relation, alias: string, request: RestRequest, params: Params): string {
  const columns = columnsToWrite(request, relation);
  const body = `${params.add(request.bodyText)}::jsonb`;
  return `insert into ${relation.source} as ${ident(alias)} (${columns.map(ident).join(", ")})
    select ${columns.map((name) => `pgrst_record.${ident(name)}`).join(", ")}
      from jsonb_array_elements(${Array.isArray(request.body) ? body : `jsonb_build_array(${body})`})
           with ordinality as pgrst_body(item, n)
      cross join lateral jsonb_populate_record(null::${relation.source}, pgrst_body.item) as pgrst_record
     order by pgrst_body.n`;
}

function updateSql(relation: Relation, alias: string, request: RestRequest, params: Params, where: string[]): string {
  if (Array.isArray(request.body)) throw apiError(400, "PGRST102", "Expected a single JSON object to update the rows");
  const columns = columnsToWrite(request, relation);
  return `update ${relation.source} as ${ident(alias)}
             set ${columns.map((c) => `${ident(c)} = pgrst_record.${ident(c)}`).join(", ")}
            from jsonb_populate_record(null::${relation.source}, ${params.add(request.bodyText)}::jsonb) as pgrst_record
           where ${where.join(" and ")}`;
}

function deleteSql(relation: Relation, alias: string, where: string[]): string {
  return `delete from ${relation.source} as ${ident(alias)} where ${where.join(" and ")}`;
}

function writeResponse(request: RestRequest, body: string | null, affected: number): Response {
  const created = request.method === "POST";
  const total = request.count ? affected : "*";
  const headers = new Headers({ "content-range": created ? `*/${total}` : `${affected > 0 ? `0-${affected - 1}` : "*"}/${total}` });
  if (body === null) return respond(created ? 201 : 204, null, request, headers);
  return respond(created ? 201 : 200, body, request, headers);
}
