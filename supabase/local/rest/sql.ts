import { type Filter, type OrderTerm, operators, parseError, splitTopLevel, unquote } from "./query-language.ts";

// SQL text: identifiers are always quoted and values always bound as parameters.

export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export class Params {
  values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A PostgreSQL array literal from PostgREST's list syntax: `(a,"b,c")` → `{"a","b,c"}`. */
function arrayLiteral(list: string): string {
  const inner = list.startsWith("(") && list.endsWith(")") ? list.slice(1, -1) : list;
  if (inner === "") return "{}";
  const items = splitTopLevel(inner).map((item) => unquote(item));
  return `{${items.map((item) => `"${item.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

export function filterSql(filter: Filter, alias: string, params: Params): string {
  const column = `${ident(alias)}.${ident(filter.column)}`;
  const sql = comparisonSql(filter, column, params);
  return filter.negate ? `not (${sql})` : sql;
}

function comparisonSql({ op, value }: Filter, column: string, params: Params): string {
  switch (op) {
    case "is": {
      const keyword = value.toLowerCase();
      if (keyword === "not_null") return `${column} is not null`;
      if (!["null", "true", "false", "unknown"].includes(keyword)) {
        throw parseError(`failed to parse filter (is.${value})`, "expecting null, not_null, true, false or unknown");
      }
      return `${column} is ${keyword}`;
    }
    case "in":
      return `${column} = any(${params.add(arrayLiteral(value))})`;
    case "like":
    case "ilike":
      return `${column} ${op} ${params.add(value.replaceAll("*", "%"))}`;
    default:
      return `${column} ${operators[op]} ${params.add(value)}`;
  }
}

export function orderSql(terms: OrderTerm[], alias: string): string {
  if (terms.length === 0) return "";
  const parts = terms.map((t) => {
    let sql = `${ident(alias)}.${ident(t.column)}`;
    if (t.direction) sql += ` ${t.direction}`;
    if (t.nulls) sql += ` nulls ${t.nulls}`;
    return sql;
  });
  return ` order by ${parts.join(", ")}`;
}

export function pageSql(limit: number | undefined, offset: number | undefined, params: Params): string {
  let sql = "";
  if (limit !== undefined) sql += ` limit ${params.add(String(limit))}::int8`;
  if (offset) sql += ` offset ${params.add(String(offset))}::int8`;
  return sql;
}
