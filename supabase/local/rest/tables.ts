import type { Db } from "../db.ts";
import { type SchemaEntries } from "../schema-cache.ts";
import { type BuildContext, Params, type Shape, buildShape, conditionSql, ident, literal, orderSql, pageSql } from "./sql.ts";
import { type Level, parseLevels, parseSelect, splitTopLevel, unquote } from "./query-language.ts";
import { type Relation, requireRelation } from "./relations.ts";
import type { RestRequest } from "./handler.ts";
import { apiError, respond, singularityError } from "./responses.ts";

// Reads and writes on tables and views

export async function queryRelation(tx: Db, cache: SchemaEntries, request: RestRequest, name: string): Promise<Response> {
  const relation = await requireRelation(tx, cache, request.schema, name);
  const params = new Params();
  const levels = parseLevels(request.params, new Set());
  const ctx: BuildContext = { tx, cache, params, levels, aliases: new Map([[relation.name, 0]]) };
  const alias = relation.name;
  const selectParam = request.params.get("select");
  const items = parseSelect(selectParam ?? "*");

  if (request.method === "GET" || request.method === "HEAD") {
    const shape = await buildShape(ctx, relation, alias, items, "");
    return readRows(tx, request, params, shape, `${relation.source} as ${ident(alias)}`, alias, levels.get(""));
  }

  const returning = request.prefer.get("return") === "representation";
  const top = levels.get("") ?? { conditions: [], order: [] };
  let statement: string;
  if (request.method === "POST") statement = insertSql(relation, alias, request, params);
  else {
    const where = top.conditions.map((c) => conditionSql(c, alias, params, new Map()));
    if (where.length === 0) {
      const verb = request.method === "PATCH" ? "UPDATE" : "DELETE";
      throw apiError(400, "21000", `${verb} requires a WHERE clause`);
    }
    statement = request.method === "PATCH" ? updateSql(relation, alias, request, params, where) : deleteSql(relation, alias, where);
    if (statement === "") return writeResponse(request, null, 0);
  }

  // headers-only: where the created row lives, as `Location: /table?pk=eq.value`
  const locate = request.method === "POST" && request.prefer.get("return") === "headers-only" && relation.primaryKey.length > 0;
  if (!returning) {
    const returningKey = locate ? ` returning ${relation.primaryKey.map((c) => `${ident(alias)}.${ident(c)}::text`).join(", ")}` : "";
    const { rows, affectedRows } = await tx.query<Record<string, string>>(statement + returningKey, params.values);
    if (request.singleObject && affectedRows !== 1 && request.method !== "POST") throw singularityError(affectedRows);
    const response = writeResponse(request, null, affectedRows);
    if (locate && rows[0]) {
      const query = relation.primaryKey.map((c) => `${encodeURIComponent(c)}=eq.${encodeURIComponent(rows[0][c])}`).join("&");
      response.headers.set("location", `/${encodeURIComponent(relation.name)}?${query}`);
    }
    return response;
  }
  // the returned rows are shaped by select= (embeds too) but not filtered again: a PATCH may have
  // changed the very columns its filters matched
  const returnLevels = new Map(levels);
  returnLevels.delete("");
  const shape = await buildShape({ ...ctx, levels: returnLevels }, relation, alias, items, "");
  const { rows } = await tx.query<{ page: number; body: string; first: string | null }>(
    `with pgrst_source as (${statement} returning ${ident(alias)}.*)
     select count(pgrst_row)::int8 as page, coalesce(json_agg(pgrst_row), '[]')::text as body,
            (json_agg(pgrst_row) -> 0)::text as first
       from (select ${shape.columns.join(", ")} from pgrst_source as ${ident(alias)} ${shape.joins.join(" ")}
              ${shape.where.length ? `where ${shape.where.join(" and ")}` : ""}${orderSql(top.order, alias, params)}) pgrst_row`,
    params.values,
  );
  const { page, body, first } = rows[0];
  if (request.singleObject && page !== 1) throw singularityError(page);
  return writeResponse(request, request.singleObject ? first : body, page);
}

export async function readRows(
  tx: Db,
  request: RestRequest,
  params: Params,
  shape: Shape,
  from: string,
  alias: string,
  level: Level | undefined,
  single = request.singleObject,
): Promise<Response> {
  const offset = level?.offset ?? request.range?.offset ?? 0;
  const limits = [level?.limit, request.range?.limit].filter((n) => n !== undefined);
  const limit = limits.length ? Math.min(...limits) : undefined;
  const wantCount = request.prefer.has("count");
  const fromWhere = `from ${from} ${shape.joins.join(" ")} ${shape.where.length ? `where ${shape.where.join(" and ")}` : ""}`;
  const { rows } = await tx.query<{ total: number | null; page: number; body: string; first: string | null }>(
    `select ${wantCount ? `(select count(*) ${fromWhere})` : "null"}::int8 as total,
            count(pgrst_row)::int8 as page, coalesce(json_agg(pgrst_row), '[]')::text as body,
            (json_agg(pgrst_row) -> 0)::text as first
       from (select ${shape.columns.join(", ")} ${fromWhere}${orderSql(level?.order ?? [], alias, params)}
             ${pageSql(limit, offset, params)}) pgrst_row`,
    params.values,
  );
  const { total, page, body, first } = rows[0];
  if (single && page !== 1) throw singularityError(page);

  const headers = new Headers({ "content-range": contentRange(offset, page, total) });
  if (total !== null && offset > total) {
    throw apiError(416, "PGRST103", "Requested range not satisfiable", {
      details: `An offset of ${offset} was requested, but there are only ${total} rows.`,
      headers: { "content-range": `*/${total}` },
    });
  }
  const status = total !== null && page < total ? 206 : 200;
  return respond(status, single ? first : body, request, headers);
}

export function contentRange(offset: number, page: number, total: number | null): string {
  const range = page > 0 ? `${offset}-${offset + page - 1}` : "*";
  return `${range}/${total ?? "*"}`;
}

/** The payload rows as an array of objects, and the columns to write: `columns=` or every key seen. */
function payload(request: RestRequest, relation: Relation): { rows: Record<string, unknown>[]; columns: string[] } {
  const body = request.body;
  const rows = Array.isArray(body) ? body : [body];
  if (body === undefined || rows.some((r) => typeof r !== "object" || r === null || Array.isArray(r))) {
    throw apiError(400, "PGRST102", "Empty or invalid json");
  }
  const columnsParam = request.params.get("columns");
  const columns = columnsParam
    ? splitTopLevel(columnsParam).map((c) => unquote(c.trim()))
    : [...new Set(rows.flatMap((r) => Object.keys(r as object)))];
  for (const column of columns) {
    if (!relation.columns.some((c) => c.name === column)) {
      throw apiError(400, "PGRST204", `Could not find the '${column}' column of '${relation.name}' in the schema cache`);
    }
  }
  return { rows: rows as Record<string, unknown>[], columns };
}

function insertSql(relation: Relation, alias: string, request: RestRequest, params: Params): string {
  const { rows, columns } = payload(request, relation);
  let sql = `insert into ${relation.source} as ${ident(alias)} `;
  if (columns.length === 0) {
    // empty objects: rows of defaults (an insert's missing trailing columns take their defaults)
    sql += `select from generate_series(1, ${params.add(String(rows.length))}::int)`;
  } else {
    const missingDefault = request.prefer.get("missing") === "default";
    const values = columns.map((name) => {
      const value = `pgrst_record.${ident(name)}`;
      if (!missingDefault) return value;
      const column = relation.columns.find((c) => c.name === name)!;
      const fallback = column.identity
        ? `nextval(pg_get_serial_sequence(${literal(relation.source)}, ${literal(name)}))`
        : (column.default ?? "null");
      return `case when pgrst_body.item ? ${literal(name)} then ${value} else ${fallback} end`;
    });
    const body = `${params.add(request.bodyText)}::jsonb`;
    sql += `(${columns.map(ident).join(", ")})
      select ${values.join(", ")}
        from jsonb_array_elements(${Array.isArray(request.body) ? body : `jsonb_build_array(${body})`})
             with ordinality as pgrst_body(item, n)
        cross join lateral jsonb_populate_record(null::${relation.source}, pgrst_body.item) as pgrst_record
       order by pgrst_body.n`;
  }

  const resolution = request.prefer.get("resolution");
  if (resolution === "merge-duplicates" || resolution === "ignore-duplicates") {
    const onConflict = request.params.get("on_conflict");
    const target = onConflict ? splitTopLevel(onConflict).map((c) => unquote(c.trim())) : relation.primaryKey;
    if (target.length > 0) {
      sql += ` on conflict (${target.map(ident).join(", ")})`;
      const updates = columns.filter((c) => !target.includes(c));
      sql +=
        resolution === "ignore-duplicates" || updates.length === 0
          ? " do nothing"
          : ` do update set ${updates.map((c) => `${ident(c)} = excluded.${ident(c)}`).join(", ")}`;
    }
  }
  return sql;
}

function updateSql(relation: Relation, alias: string, request: RestRequest, params: Params, where: string[]): string {
  if (Array.isArray(request.body)) throw apiError(400, "PGRST102", "Expected a single JSON object to update the rows");
  const { columns } = payload(request, relation);
  if (columns.length === 0) return "";
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
  const counted = request.prefer.has("count");
  const headers = new Headers({
    "content-range": created ? `*/${counted ? affected : "*"}` : `${affected > 0 ? `0-${affected - 1}` : "*"}/${counted ? affected : "*"}`,
  });
  if (body === null) return respond(created ? 201 : 204, null, request, headers);
  return respond(created ? 201 : 200, body, request, headers);
}
