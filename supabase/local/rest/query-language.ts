import { type HttpError } from "../context.ts";
import { apiError, unsupported } from "./responses.ts";

// The query language as far as the product speaks it: columns and embeds in select, filters, order,
// limit and offset on the top level. Anything else PostgREST knows is refused as unsupported.

export type SelectItem =
  | { kind: "star" }
  | { kind: "column"; name: string; alias?: string }
  | { kind: "embed"; name: string; alias?: string; items: SelectItem[] };

export type Filter = { column: string; negate: boolean; op: string; value: string };

export type OrderTerm = { column: string; direction?: "asc" | "desc"; nulls?: "first" | "last" };

export type Query = { filters: Filter[]; order: OrderTerm[]; limit?: number; offset?: number };

export const operators: Record<string, string> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "like",
  ilike: "ilike",
  is: "is",
  in: "in",
  cs: "@>",
};

// PostgREST's operators the product never sends: named so the refusal says what is missing
const unsupportedOperators = new Set([
  "match",
  "imatch",
  "cd",
  "ov",
  "sl",
  "sr",
  "nxl",
  "nxr",
  "adj",
  "isdistinct",
  "fts",
  "plfts",
  "phfts",
  "wfts",
]);

/** Splits on sep at the top level: outside parentheses, array braces and double quotes. */
export function splitTopLevel(text: string, sep = ","): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === "\\" && i + 1 < text.length) {
        current += ch + text[++i];
        continue;
      }
      if (ch === '"') quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === "(" || ch === "{") depth++;
    else if (ch === ")" || ch === "}") depth--;
    else if (ch === sep && depth === 0) {
      parts.push(current);
      current = "";
      continue;
    }
    current += ch;
  }
  parts.push(current);
  return parts;
}

export function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(.)/g, "$1");
  }
  return text;
}

export function parseError(message: string, details: string): HttpError {
  return apiError(400, "PGRST100", message, { details });
}

function columnName(text: string, whole: string): string {
  if (text.includes("->")) throw unsupported("JSON paths (->, ->>)");
  const name = unquote(text);
  if (!name) throw parseError(`failed to parse field (${whole})`, "expecting a column name");
  return name;
}

function stripWhitespace(text: string): string {
  let out = "";
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (quoted || !/\s/.test(ch)) out += ch;
  }
  return out;
}

export function parseSelect(text: string): SelectItem[] {
  const source = stripWhitespace(text);
  if (source === "") return [{ kind: "star" }];
  return splitTopLevel(source).map((raw) => parseSelectItem(raw, source));
}

function parseSelectItem(raw: string, whole: string): SelectItem {
  if (raw === "*") return { kind: "star" };
  if (raw === "") throw parseError(`failed to parse select parameter (${whole})`, "unexpected empty item");
  if (raw.startsWith("...")) throw unsupported("Spreading an embedded resource (...)");
  let item = raw;
  let alias: string | undefined;
  const aliasMatch = /^("(?:[^"\\]|\\.)*"|[^:("]+):(?!:)/.exec(item);
  if (aliasMatch) {
    alias = unquote(aliasMatch[1]);
    item = item.slice(aliasMatch[0].length);
  }
  const open = item.indexOf("(");
  if (open >= 0) {
    if (!item.endsWith(")")) throw parseError(`failed to parse select parameter (${whole})`, `unexpected "${item}"`);
    const head = item.slice(0, open);
    const inside = item.slice(open + 1, -1);
    if (head.includes("!")) throw unsupported("Embedding hints and !inner");
    if (head === "count" || /\.(count|sum|avg|min|max)$/.test(head) || inside === "count")
      throw unsupported("Aggregates and counts in select");
    return {
      kind: "embed",
      name: unquote(head),
      alias,
      items: inside === "" ? [] : splitTopLevel(inside).map((r) => parseSelectItem(r, whole)),
    };
  }
  if (item.includes("::")) throw unsupported("Casts in select (::)");
  return { kind: "column", name: columnName(item, whole), alias };
}

/** `[not.]op.value` as in `eq.5`, `not.is.null`, `in.(1,2)`. */
function parseFilter(column: string, text: string): Filter {
  let rest = text;
  let negate = false;
  if (rest.startsWith("not.")) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(\([^)]*\))?\.([\s\S]*)$/.exec(rest);
  if (match && unsupportedOperators.has(match[1])) throw unsupported(`The ${match[1]} operator`);
  if (!match || !(match[1] in operators)) {
    throw parseError(`failed to parse filter (${text})`, `unknown operator in "${text}"`);
  }
  if (match[2] !== undefined) throw unsupported("Operator modifiers such as (any) and (all)");
  return { column, negate, op: match[1], value: match[3] };
}

function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text).map((term) => {
    const [column, ...rest] = term.split(".");
    const modifiers = new Set(rest);
    for (const m of modifiers) {
      if (!["asc", "desc", "nullsfirst", "nullslast"].includes(m)) {
        throw parseError(`failed to parse order (${text})`, `unexpected "${m}"`);
      }
    }
    return {
      column: columnName(column, text),
      direction: modifiers.has("desc") ? "desc" : modifiers.has("asc") ? "asc" : undefined,
      nulls: modifiers.has("nullsfirst") ? "first" : modifiers.has("nullslast") ? "last" : undefined,
    };
  });
}

function parseCount(text: string, name: string): number {
  if (!/^\d+$/.test(text)) throw parseError(`failed to parse ${name} parameter (${text})`, "expecting a number");
  return Number(text);
}

/** Filters, order, limit and offset out of the query string; `ignore` are a function's arguments. */
export function parseQuery(params: URLSearchParams, ignore: Set<string> = new Set()): Query {
  const query: Query = { filters: [], order: [] };
  for (const [key, value] of params) {
    if (key === "select" || key === "columns" || ignore.has(key)) continue;
    if (key === "on_conflict") throw unsupported("Upserts (on_conflict)");
    const column = columnName(key, key);
    if (column === "or" || column === "and" || column === "not.or" || column === "not.and") throw unsupported("Logic trees (or=, and=)");
    if (column.includes(".")) throw unsupported("Filtering, ordering or paging embedded rows");
    if (column === "order") query.order.push(...parseOrder(value));
    else if (column === "limit") query.limit = parseCount(value, "limit");
    else if (column === "offset") query.offset = parseCount(value, "offset");
    else query.filters.push(parseFilter(column, value));
  }
  return query;
}
