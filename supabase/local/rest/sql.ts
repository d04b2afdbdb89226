import type { Db } from "../db.ts";
import { type SchemaEntries } from "../schema-cache.ts";
import {
  type Condition,
  type Field,
  type Level,
  type OrderTerm,
  type SelectItem,
  operators,
  parseError,
  splitTopLevel,
  unquote,
} from "./query-language.ts";
import { type Relation, resolveEmbed } from "./relations.ts";
import { apiError } from "./responses.ts";

// SQL building

export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export class Params {
  values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

function fieldSql(alias: string, field: Field, params: Params): string {
  let sql = `${ident(alias)}.${ident(field.name)}`;
  for (const step of field.path) {
    const key = /^-?\d+$/.test(step.key) ? `${params.add(step.key)}::int` : `${params.add(step.key)}::text`;
    sql += `${step.arrow}${key}`;
  }
  return sql;
}

/** A PostgreSQL array literal from PostgREST's list syntax: `(a,"b,c")` → `{"a","b,c"}`. */
function arrayLiteral(list: string): string {
  const inner = list.startsWith("(") && list.endsWith(")") ? list.slice(1, -1) : list;
  if (inner === "") return "{}";
  const items = splitTopLevel(inner).map((item) => unquote(item));
  return `{${items.map((item) => `"${item.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

export function conditionSql(condition: Condition, alias: string, params: Params, embeds: Map<string, EmbedRef>): string {
  if (condition.kind === "logic") {
    const parts = condition.conditions.map((c) => conditionSql(c, alias, params, embeds));
    const sql = parts.length === 0 ? "true" : `(${parts.join(` ${condition.op} `)})`;
    return condition.negate ? `not ${sql}` : sql;
  }
  const embed = condition.field.path.length === 0 ? embeds.get(condition.field.name) : undefined;
  const sql = embed ? embedNullSql(condition, embed) : filterSql(condition, fieldSql(alias, condition.field, params), params);
  return condition.negate ? `not (${sql})` : sql;
}

/** `artist=is.null` / `artist=not.is.null` on an embed: whether the parent has a matching related row. */
function embedNullSql(condition: Extract<Condition, { kind: "filter" }>, embed: EmbedRef): string {
  if (condition.op !== "is" || condition.value.toLowerCase() !== "null") {
    throw apiError(400, "PGRST120", `Bad operator on the '${condition.field.name}' embedded resource`, {
      details: "Only is null or not is null filters are allowed on embedded resources",
    });
  }
  return embed.cardinality === "one" ? `${embed.body} is null` : `json_array_length(${embed.body}) = 0`;
}

function filterSql(condition: Extract<Condition, { kind: "filter" }>, column: string, params: Params): string {
  const { op, value } = condition;
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
    case "fts":
    case "plfts":
    case "phfts":
    case "wfts": {
      const config = condition.config ? `${params.add(condition.config)}::regconfig, ` : "";
      return `${column} @@ ${operators[op]}(${config}${params.add(value)})`;
    }
    case "isdistinct":
      return `${column} is distinct from ${params.add(value)}`;
    case "like":
    case "ilike": {
      const pattern = (text: string) => text.replaceAll("*", "%");
      if (condition.modifier) return `${column} ${operators[op]} ${condition.modifier}(${params.add(pattern(arrayValue(value)))})`;
      return `${column} ${operators[op]} ${params.add(pattern(value))}`;
    }
    default:
      if (condition.modifier) {
        return `${column} ${operators[op]} ${condition.modifier}(${params.add(arrayValue(value))})`;
      }
      return `${column} ${operators[op]} ${params.add(value)}`;
  }
}

/** `{a,b}` stays an array literal; `(a,b)` becomes one. */
function arrayValue(value: string): string {
  return value.startsWith("{") ? value : arrayLiteral(value);
}

export function orderSql(terms: OrderTerm[], alias: string, params: Params): string {
  if (terms.length === 0) return "";
  const parts = terms.map((t) => {
    let sql = fieldSql(alias, t.field, params);
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

type EmbedRef = { cardinality: "one" | "many"; body: string };

/** The select list and lateral joins for one level of the select tree. */
export type Shape = { columns: string[]; joins: string[]; where: string[] };

export type BuildContext = { tx: Db; cache: SchemaEntries; params: Params; levels: Map<string, Level>; aliases: Map<string, number> };

function nextAlias(ctx: BuildContext, name: string): string {
  const n = (ctx.aliases.get(name) ?? 0) + 1;
  ctx.aliases.set(name, n);
  return `${name}_${n}`;
}

export async function buildShape(ctx: BuildContext, relation: Relation, alias: string, items: SelectItem[], path: string): Promise<Shape> {
  const shape: Shape = { columns: [], joins: [], where: [] };
  const embeds = new Map<string, EmbedRef>();
  for (const item of items) {
    if (item.kind === "star") shape.columns.push(`${ident(alias)}.*`);
    else if (item.kind === "column") {
      let sql = fieldSql(alias, item.field, ctx.params);
      if (item.cast) sql = `(${sql})::${item.cast}`;
      const label = item.alias ?? item.field.path.at(-1)?.key ?? item.field.name;
      shape.columns.push(`${sql} as ${ident(label)}`);
    } else {
      const label = item.alias ?? item.name;
      const childPath = path ? `${path}.${label}` : label;
      const embed = await buildEmbed(ctx, relation, alias, item, childPath);
      shape.joins.push(embed.join);
      if (item.spread) shape.columns.push(...embed.spreadColumns);
      else shape.columns.push(`${embed.ref.body} as ${ident(label)}`);
      if (item.inner)
        shape.where.push(embed.ref.cardinality === "one" ? `${embed.ref.body} is not null` : `json_array_length(${embed.ref.body}) > 0`);
      embeds.set(label, embed.ref);
    }
  }
  const level = ctx.levels.get(path);
  for (const condition of level?.conditions ?? []) shape.where.push(conditionSql(condition, alias, ctx.params, embeds));
  return shape;
}

async function buildEmbed(
  ctx: BuildContext,
  parent: Relation,
  parentAlias: string,
  item: Extract<SelectItem, { kind: "embed" }>,
  path: string,
): Promise<{ join: string; ref: EmbedRef; spreadColumns: string[] }> {
  const relationship = await resolveEmbed(ctx.tx, ctx.cache, parent, item.name, item.hint);
  const target = relationship.target;
  const alias = nextAlias(ctx, target.name);
  const lateral = `${alias}_embed`;
  const on = relationship.on.map(([p, t]) => `${ident(alias)}.${ident(t)} = ${ident(parentAlias)}.${ident(p)}`);
  const level = ctx.levels.get(path);

  // legacy `followers(count)`: how many related rows, as [{"count": n}]
  const isCount =
    item.items.length === 1 &&
    item.items[0].kind === "column" &&
    item.items[0].field.name === "count" &&
    item.items[0].field.path.length === 0 &&
    !target.columns.some((c) => c.name === "count");
  if (isCount) {
    const where = [...on, ...(level?.conditions ?? []).map((c) => conditionSql(c, alias, ctx.params, new Map()))];
    return {
      join: `left join lateral (select json_build_array(json_build_object('count', count(*))) as body
               from ${target.source} as ${ident(alias)} where ${where.join(" and ")}) as ${ident(lateral)} on true`,
      ref: { cardinality: "many", body: `${ident(lateral)}.body` },
      spreadColumns: [],
    };
  }

  const shape = await buildShape(ctx, target, alias, item.items.length ? item.items : [{ kind: "star" }], path);
  const where = [...on, ...shape.where];
  const rows = `select ${shape.columns.join(", ")} from ${target.source} as ${ident(alias)} ${shape.joins.join(" ")}
                 where ${where.join(" and ")}${orderSql(level?.order ?? [], alias, ctx.params)}`;
  if (item.spread) {
    if (relationship.cardinality !== "one") {
      throw apiError(400, "PGRST127", "Feature not implemented", { details: `spreading the to-many '${item.name}'` });
    }
    // the related row's columns become the parent's; a marker tells a missing row from one of nulls
    return {
      join: `left join lateral (select true as found, pgrst_row from (${rows} limit 1) pgrst_row) as ${ident(lateral)} on true`,
      ref: { cardinality: "one", body: `${ident(lateral)}.found` },
      spreadColumns: [`(${ident(lateral)}.pgrst_row).*`],
    };
  }
  if (relationship.cardinality === "one") {
    return {
      join: `left join lateral (select row_to_json(pgrst_row) as body from (${rows} limit 1) pgrst_row) as ${ident(lateral)} on true`,
      ref: { cardinality: "one", body: `${ident(lateral)}.body` },
      spreadColumns: [],
    };
  }
  return {
    join: `left join lateral (select coalesce(json_agg(pgrst_row), '[]') as body
             from (${rows}${pageSql(level?.limit, level?.offset, ctx.params)}) pgrst_row) as ${ident(lateral)} on true`,
    ref: { cardinality: "many", body: `${ident(lateral)}.body` },
    spreadColumns: [],
  };
}
