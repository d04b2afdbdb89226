import { type HttpError } from "../context.ts";
import { apiError } from "./responses.ts";

// The query language: select, filters, order

export type Field = { name: string; path: { arrow: "->" | "->>"; key: string }[] };

export type SelectItem =
  | { kind: "star" }
  | { kind: "column"; field: Field; alias?: string; cast?: string }
  | { kind: "embed"; name: string; alias?: string; hint?: string; inner: boolean; spread: boolean; items: SelectItem[] };

export type Condition =
  | { kind: "filter"; field: Field; negate: boolean; op: string; modifier?: "any" | "all"; config?: string; value: string }
  | { kind: "logic"; op: "and" | "or"; negate: boolean; conditions: Condition[] };

export type OrderTerm = { field: Field; direction?: "asc" | "desc"; nulls?: "first" | "last" };

/** What the query string says about one level of the select tree ('' is the top, 'artist' an embed). */
export type Level = { conditions: Condition[]; order: OrderTerm[]; limit?: number; offset?: number };

const reservedParams = new Set(["select", "columns", "on_conflict"]);

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

function parseField(text: string): Field {
  const [name, ...rest] = text.split(/(->>|->)/);
  const path: Field["path"] = [];
  for (let i = 0; i < rest.length; i += 2) {
    const key = unquote(rest[i + 1] ?? "");
    if (!key) throw parseError(`failed to parse json path (${text})`, "unexpected end of input");
    path.push({ arrow: rest[i] as "->" | "->>", key });
  }
  const column = unquote(name);
  if (!column) throw parseError(`failed to parse field (${text})`, "expecting a column name");
  return { name: column, path };
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
  let item = raw;
  const spread = item.startsWith("...");
  if (spread) item = item.slice(3);
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
    if (head === "count" || /\.(count|sum|avg|min|max)$/.test(head)) {
      if (inside === "") throw apiError(400, "PGRST123", "Use of aggregate functions is not allowed");
    }
    const [name, ...hints] = head.split("!");
    let inner = false;
    let hint: string | undefined;
    for (const h of hints) {
      if (h === "inner") inner = true;
      else if (h !== "left") hint = h;
    }
    return {
      kind: "embed",
      name: unquote(name),
      alias,
      hint,
      inner,
      spread,
      items: inside === "" ? [] : splitTopLevel(inside).map((r) => parseSelectItem(r, whole)),
    };
  }
  if (spread) throw parseError(`failed to parse select parameter (${whole})`, "spread needs an embedded resource");
  const [fieldText, cast] = item.split("::");
  if (cast !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/.test(cast)) {
    throw parseError(`failed to parse select parameter (${whole})`, `unexpected cast "${cast}"`);
  }
  if (/\.(sum|avg|min|max|count)\(\)$/.test(fieldText)) {
    throw apiError(400, "PGRST123", "Use of aggregate functions is not allowed");
  }
  return { kind: "column", field: parseField(fieldText), alias, cast };
}

export const operators: Record<string, string> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
  like: "like",
  ilike: "ilike",
  match: "~",
  imatch: "~*",
  cs: "@>",
  cd: "<@",
  ov: "&&",
  sl: "<<",
  sr: ">>",
  nxl: "&<",
  nxr: "&>",
  adj: "-|-",
  is: "is",
  isdistinct: "is distinct from",
  in: "in",
  fts: "to_tsquery",
  plfts: "plainto_tsquery",
  phfts: "phraseto_tsquery",
  wfts: "websearch_to_tsquery",
};

/** `[not.]op[(modifier)].value` as in `not.in.(1,2)`, `like(any).{a*,b*}`, `fts(english).cat`. */
function parseOperation(field: Field, text: string): Condition {
  let rest = text;
  let negate = false;
  if (rest.startsWith("not.")) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\(([^)]*)\))?\.([\s\S]*)$/.exec(rest);
  if (!match || !(match[1] in operators)) {
    throw parseError(`failed to parse filter (${text})`, `unknown operator in "${text}"`);
  }
  const [, op, modifier, value] = match;
  const condition: Condition = { kind: "filter", field, negate, op, value };
  if (modifier !== undefined) {
    if (op.endsWith("fts")) condition.config = modifier;
    else if (modifier === "any" || modifier === "all") condition.modifier = modifier;
    else throw parseError(`failed to parse filter (${text})`, `unknown modifier "${modifier}"`);
  }
  return condition;
}

/** The value of `or=(…)`/`and=(…)`, possibly nested: `(a.eq.1,and(b.gt.2,c.lt.3))`. */
function parseLogic(op: "and" | "or", negate: boolean, text: string): Condition {
  if (!text.startsWith("(") || !text.endsWith(")")) {
    throw parseError(`failed to parse logic tree (${text})`, 'expecting "("');
  }
  const conditions = splitTopLevel(text.slice(1, -1)).map((item): Condition => {
    const logic = /^(not\.)?(and|or)(\(.*\))$/.exec(item);
    if (logic) return parseLogic(logic[2] as "and" | "or", Boolean(logic[1]), logic[3]);
    const dot = item.indexOf(".");
    if (dot <= 0) throw parseError(`failed to parse logic tree (${text})`, `unexpected "${item}"`);
    const condition = parseOperation(parseField(item.slice(0, dot)), item.slice(dot + 1));
    if (condition.kind === "filter" && condition.op !== "in") condition.value = unquote(condition.value);
    return condition;
  });
  return { kind: "logic", op, negate, conditions };
}

function parseOrder(text: string): OrderTerm[] {
  return splitTopLevel(text).map((term) => {
    const parts = term.split(".");
    const modifiers = new Set(parts.slice(1));
    const direction = modifiers.has("desc") ? "desc" : modifiers.has("asc") ? "asc" : undefined;
    const nulls = modifiers.has("nullsfirst") ? "first" : modifiers.has("nullslast") ? "last" : undefined;
    for (const m of modifiers) {
      if (!["asc", "desc", "nullsfirst", "nullslast"].includes(m)) {
        throw parseError(`failed to parse order (${text})`, `unexpected "${m}"`);
      }
    }
    return { field: parseField(parts[0]), direction, nulls };
  });
}

function parseCount(text: string, name: string): number {
  if (!/^\d+$/.test(text)) throw parseError(`failed to parse ${name} parameter (${text})`, "expecting a number");
  return Number(text);
}

/** Reads filters, order, limit and offset for every level of the select tree out of the query string. */
export function parseLevels(params: URLSearchParams, ignore: Set<string>): Map<string, Level> {
  const levels = new Map<string, Level>();
  const level = (path: string) => {
    let l = levels.get(path);
    if (!l) levels.set(path, (l = { conditions: [], order: [] }));
    return l;
  };
  for (const [key, value] of params) {
    if (reservedParams.has(key) || ignore.has(key)) continue;
    const parts = key.split(".");
    const last = parts[parts.length - 1];
    if (last === "or" || last === "and") {
      const negate = parts[parts.length - 2] === "not";
      const path = parts.slice(0, negate ? -2 : -1).join(".");
      level(path).conditions.push(parseLogic(last, negate, value));
    } else if (last === "order") level(parts.slice(0, -1).join(".")).order.push(...parseOrder(value));
    else if (last === "limit") level(parts.slice(0, -1).join(".")).limit = parseCount(value, "limit");
    else if (last === "offset") level(parts.slice(0, -1).join(".")).offset = parseCount(value, "offset");
    else {
      // `artist.genre=eq.rock` filters the embedded `artist`; a JSON path may itself contain dots
      const arrow = key.indexOf("->");
      const head = arrow >= 0 ? key.slice(0, arrow) : key;
      const dot = head.lastIndexOf(".");
      const path = dot >= 0 ? key.slice(0, dot) : "";
      level(path).conditions.push(parseOperation(parseField(key.slice(dot + 1)), value));
    }
  }
  return levels;
}
