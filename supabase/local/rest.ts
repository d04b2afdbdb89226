import { asRole, buffered, claimsFromRequest, HttpError, type Claims, type Stack } from "./context.ts";
import type { Db } from "./db.ts";
import { schemaVersionSql, type SchemaEntries } from "./schema-cache.ts";

// The PostgREST subset that postgrest-js uses. Every request is one transaction run as the caller's
// role, so row-level security decides what it sees and changes. Responses are built as JSON by
// Postgres itself (json_agg over the selected rows), so values have exactly PostgREST's shapes.
// Identifiers are always quoted and values always bound as parameters.

const exposedSchemas = ["public"];

export async function handle(req: Request, stack: Stack, subpath: string): Promise<Response> {
  const claims = claimsFromRequest(req, stack);
  const method = req.method;
  if (!["GET", "HEAD", "POST", "PATCH", "DELETE"].includes(method)) {
    throw apiError(405, "PGRST117", `Unsupported HTTP method: ${method}`);
  }
  const readOnly = method === "GET" || method === "HEAD";
  const schema = requestedSchema(req, readOnly);
  const path = decodePath(subpath.replace(/^\/+|\/+$/g, ""));
  if (path === "") throw apiError(404, "PGRST126", "Root endpoint metadata is disabled");

  const url = new URL(req.url);
  const bodyText = readOnly ? undefined : await req.text();
  const request: RestRequest = {
    method,
    schema,
    params: url.searchParams,
    prefer: parsePrefer(req.headers.get("prefer")),
    range: parseRangeHeader(req.headers.get("range")),
    singleObject: (req.headers.get("accept") ?? "").includes("application/vnd.pgrst.object+json"),
    body: parseBody(bodyText),
    bodyText,
  };
  try {
    return await asRole(
      stack.db,
      claims,
      async (tx, version) => {
        const cache = stack.schema.at(version);
        const response = path.startsWith("rpc/")
          ? await callFunction(tx, cache, request, path.slice(4))
          : await queryRelation(tx, cache, request, path);
        // tx=rollback: the caller gets the answer, the database keeps nothing
        if (request.prefer.get("tx") === "rollback") throw new Rollback(response);
        return response;
      },
      { readOnly, method, also: stack.schema.enabled ? schemaVersionSql : undefined },
    );
  } catch (error) {
    if (error instanceof Rollback) return error.response;
    if (error instanceof HttpError) throw error;
    if (isDatabaseError(error)) return databaseErrorResponse(error, claims);
    throw error;
  }
}

class Rollback extends Error {
  response: Response;
  constructor(response: Response) {
    super("rollback");
    this.response = response;
  }
}

// ---------------------------------------------------------------------------------------------------
// The request

type RestRequest = {
  method: string;
  schema: string;
  params: URLSearchParams;
  prefer: Map<string, string>;
  range: { offset: number; limit?: number } | null;
  singleObject: boolean;
  /** parsed to see its shape and keys; the text itself goes to Postgres, so no number loses precision */
  body: unknown;
  bodyText: string | undefined;
};

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw apiError(404, "PGRST125", "Invalid path specified in request URL");
  }
}

function requestedSchema(req: Request, readOnly: boolean): string {
  const schema = req.headers.get(readOnly ? "accept-profile" : "content-profile") ?? "public";
  if (!exposedSchemas.includes(schema)) {
    throw apiError(406, "PGRST106", `Invalid schema: ${schema}`, {
      hint: `Only the following schemas are exposed: ${exposedSchemas.join(", ")}`,
    });
  }
  return schema;
}

function parsePrefer(header: string | null): Map<string, string> {
  const prefer = new Map<string, string>();
  for (const part of (header ?? "").split(",")) {
    const [key, value = ""] = part.trim().split("=");
    if (key) prefer.set(key.trim(), value.trim());
  }
  return prefer;
}

function parseRangeHeader(header: string | null): RestRequest["range"] {
  const match = /^\s*(\d+)-(\d*)\s*$/.exec(header ?? "");
  if (!match) return null;
  const offset = Number(match[1]);
  return { offset, limit: match[2] ? Math.max(0, Number(match[2]) - offset + 1) : undefined };
}

function parseBody(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw apiError(400, "PGRST102", "Empty or invalid json");
  }
}

// ---------------------------------------------------------------------------------------------------
// The query language: select, filters, order

type Field = { name: string; path: { arrow: "->" | "->>"; key: string }[] };

type SelectItem =
  | { kind: "star" }
  | { kind: "column"; field: Field; alias?: string; cast?: string }
  | { kind: "embed"; name: string; alias?: string; hint?: string; inner: boolean; spread: boolean; items: SelectItem[] };

type Condition =
  | { kind: "filter"; field: Field; negate: boolean; op: string; modifier?: "any" | "all"; config?: string; value: string }
  | { kind: "logic"; op: "and" | "or"; negate: boolean; conditions: Condition[] };

type OrderTerm = { field: Field; direction?: "asc" | "desc"; nulls?: "first" | "last" };

/** What the query string says about one level of the select tree ('' is the top, 'artist' an embed). */
type Level = { conditions: Condition[]; order: OrderTerm[]; limit?: number; offset?: number };

const reservedParams = new Set(["select", "columns", "on_conflict"]);

/** Splits on sep at the top level: outside parentheses, array braces and double quotes. */
function splitTopLevel(text: string, sep = ","): string[] {
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

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\(.)/g, "$1");
  }
  return text;
}

function parseError(message: string, details: string): HttpError {
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

function parseSelect(text: string): SelectItem[] {
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

const operators: Record<string, string> = {
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
function parseLevels(params: URLSearchParams, ignore: Set<string>): Map<string, Level> {
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

// ---------------------------------------------------------------------------------------------------
// The schema: relations, columns, foreign keys and functions, read from pg_catalog once per schema
// version (schema-cache.ts), so tables created a moment ago (migrations, tests) are there at once.

type Column = { name: string; type: string; default: string | null; identity: string; generated: string };

type Relation = {
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

function findRelation(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Relation | null> {
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

async function requireRelation(tx: Db, cache: SchemaEntries, schema: string, name: string): Promise<Relation> {
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
async function resolveEmbed(tx: Db, cache: SchemaEntries, parent: Relation, name: string, hint: string | undefined): Promise<Relationship> {
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

// ---------------------------------------------------------------------------------------------------
// SQL building

function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

class Params {
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

function conditionSql(condition: Condition, alias: string, params: Params, embeds: Map<string, EmbedRef>): string {
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

function orderSql(terms: OrderTerm[], alias: string, params: Params): string {
  if (terms.length === 0) return "";
  const parts = terms.map((t) => {
    let sql = fieldSql(alias, t.field, params);
    if (t.direction) sql += ` ${t.direction}`;
    if (t.nulls) sql += ` nulls ${t.nulls}`;
    return sql;
  });
  return ` order by ${parts.join(", ")}`;
}

function pageSql(limit: number | undefined, offset: number | undefined, params: Params): string {
  let sql = "";
  if (limit !== undefined) sql += ` limit ${params.add(String(limit))}::int8`;
  if (offset) sql += ` offset ${params.add(String(offset))}::int8`;
  return sql;
}

type EmbedRef = { cardinality: "one" | "many"; body: string };

/** The select list and lateral joins for one level of the select tree. */
type Shape = { columns: string[]; joins: string[]; where: string[] };

type BuildContext = { tx: Db; cache: SchemaEntries; params: Params; levels: Map<string, Level>; aliases: Map<string, number> };

function nextAlias(ctx: BuildContext, name: string): string {
  const n = (ctx.aliases.get(name) ?? 0) + 1;
  ctx.aliases.set(name, n);
  return `${name}_${n}`;
}

async function buildShape(ctx: BuildContext, relation: Relation, alias: string, items: SelectItem[], path: string): Promise<Shape> {
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

// ---------------------------------------------------------------------------------------------------
// Reads and writes on tables and views

async function queryRelation(tx: Db, cache: SchemaEntries, request: RestRequest, name: string): Promise<Response> {
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

async function readRows(
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

function contentRange(offset: number, page: number, total: number | null): string {
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

// ---------------------------------------------------------------------------------------------------
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

async function callFunction(tx: Db, cache: SchemaEntries, request: RestRequest, name: string): Promise<Response> {
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

// ---------------------------------------------------------------------------------------------------
// Responses and errors

function respond(status: number, body: string | null, request: RestRequest, headers: Headers): Response {
  const applied = [...request.prefer].filter(([key]) => ["return", "count", "resolution", "missing", "tx"].includes(key));
  if (applied.length > 0) headers.set("preference-applied", applied.map(([k, v]) => `${k}=${v}`).join(", "));
  if (body === null) return new Response(null, { status, headers });
  headers.set(
    "content-type",
    request.singleObject ? "application/vnd.pgrst.object+json; charset=utf-8" : "application/json; charset=utf-8",
  );
  // HEAD, and postgrest-js's head calls to functions with object arguments (POST, return=minimal)
  const bodiless = request.method === "HEAD" || request.prefer.get("return") === "minimal";
  return bodiless ? new Response(null, { status, headers }) : buffered(body, { status, headers });
}

function apiError(
  status: number,
  code: string,
  message: string,
  extra: { details?: unknown; hint?: string | null; headers?: Record<string, string> } = {},
): HttpError {
  return new HttpError(status, { code, details: extra.details ?? null, hint: extra.hint ?? null, message }, extra.headers);
}

function singularityError(rows: number): HttpError {
  return apiError(406, "PGRST116", "Cannot coerce the result to a single JSON object", {
    details: `The result contains ${rows} rows`,
  });
}

type DatabaseError = Error & { code: string; detail?: string; hint?: string };

function isDatabaseError(error: unknown): error is DatabaseError {
  const code: unknown = error instanceof Error ? (error as Partial<DatabaseError>).code : undefined;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
}

/** Postgres's error as PostgREST reports it: its code, message, detail and hint, with PostgREST's status. */
function databaseErrorResponse(error: DatabaseError, claims: Claims): Response {
  const authed = claims.role !== "anon";
  let body = { code: error.code, details: error.detail ?? null, hint: error.hint ?? null, message: error.message };
  let status = httpStatus(error.code, error.message, authed);
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  // `raise sqlstate 'PGRST' using message = '{"code":..,"message":..}', detail = '{"status":..,"headers":{..}}'`
  if (error.code === "PGRST") {
    try {
      const custom = JSON.parse(error.message);
      const response = JSON.parse(error.detail ?? "{}");
      body = { code: custom.code, details: custom.details ?? null, hint: custom.hint ?? null, message: custom.message };
      status = response.status ?? 500;
      Object.assign(headers, response.headers ?? {});
    } catch {
      status = 500;
    }
  }
  if (status === 401) headers["www-authenticate"] = "Bearer";
  return buffered(JSON.stringify(body), { status, headers });
}

// PostgREST's mapping from SQLSTATE to HTTP status (src/PostgREST/Error.hs, mapSQLtoHTTP).
function httpStatus(code: string, message: string, authed: boolean): number {
  const exact: Record<string, number> = {
    "23503": 409,
    "23505": 409,
    "25006": 405,
    "53400": 500,
    "57P01": 503,
    P0001: 400,
    "42883": 404,
    "42P01": 404,
    "42P17": 500,
  };
  if (code === "42501") return authed ? 403 : 401;
  if (code === "21000") return message.endsWith("requires a WHERE clause") ? 400 : 500;
  if (code === "22023") return message.startsWith("role") && message.endsWith("does not exist") ? 401 : 400;
  if (code in exact) return exact[code];
  if (code.startsWith("PT")) {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 ? status : 500;
  }
  const byClass: Record<string, number> = {
    "08": 503,
    "09": 500,
    "0L": 403,
    "0P": 403,
    "25": 500,
    "28": 403,
    "2D": 500,
    "38": 500,
    "39": 500,
    "3B": 500,
    "40": 500,
    "53": 503,
    "54": 500,
    "55": 500,
    "57": 500,
    "58": 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

/** The most similar name, for "Perhaps you meant …" hints; none when nothing is close. */
function closest(name: string, candidates: string[]): string | null {
  let best: string | null = null;
  let bestScore = 0;
  for (const candidate of candidates) {
    const score = similarity(name, candidate);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore >= 0.75 ? best : null;
}

function similarity(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
  }
  return 1 - rows[a.length][b.length] / Math.max(a.length, b.length, 1);
}
