// Realtime: the Phoenix websocket at /realtime/v1/websocket that realtime-js speaks (vsn 1.0.0 object
// frames, 2.0.0 array frames), serving `postgres_changes` INSERT events. A trigger on every table in the
// `supabase_realtime` publication notifies the primary key of each new row; each subscriber then reads
// the row back as itself (its own JWT, read only), so an event reaches only those whose policies let
// them select it, as with Supabase's Realtime.

import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { asRole, claimsFromRequest, HttpError, json, type Claims, type Stack } from "./context.ts";
import type { Db } from "./db.ts";

const changesChannel = "realtime_changes";

// Only the websocket lives under /realtime/v1; there is no REST side to serve.
export async function handle(_req: Request, _stack: Stack, _subpath: string): Promise<Response> {
  return json({ message: "no Route matched with those values" }, 404);
}

export function attachRealtime(server: Server, stack: Stack): { close(): Promise<void> } {
  const sockets = new Set<Subscriber>();
  const wss = new WebSocketServer({ noServer: true });
  // Change capture must be in place before the first join is answered.
  const capture = watchInserts(stack, sockets);
  capture.catch((error) => console.error("realtime: change capture failed to start:", error));

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== "/realtime/v1/websocket") return void socket.destroy();
    // The apikey alone opens the socket; each channel then joins with the user's access token.
    const apiClaims = tokenClaims(stack, url.searchParams.get("apikey") ?? "");
    if (!apiClaims) {
      socket.end("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const subscriber = connect(ws, stack, apiClaims, url.searchParams.get("vsn") === "2.0.0", capture);
      sockets.add(subscriber);
      ws.on("close", () => sockets.delete(subscriber));
    });
  };
  server.on("upgrade", onUpgrade);

  return {
    async close() {
      server.off("upgrade", onUpgrade);
      for (const { ws } of sockets) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await (await capture.catch(() => null))?.stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// The Phoenix protocol

type Message = { joinRef: string | null; ref: string | null; topic: string; event: string; payload: unknown };

type Binding = { event: string; schema: string; table?: string; filter?: string; id: number };

type Channel = {
  topic: string;
  joinRef: string | null;
  claims: Claims;
  bindings: Binding[];
  conditions: Map<number, Condition>;
  /** the capture position when the channel joined: only inserts notified after it reach the channel */
  since: number;
};

type Subscriber = { ws: WebSocket; channels: Map<string, Channel>; send(message: Message): void };

type Capture = { stop(): Promise<void>; position(): number };

let nextBindingId = 1;

function connect(ws: WebSocket, stack: Stack, apiClaims: Claims, arrays: boolean, capture: Promise<Capture>): Subscriber {
  const subscriber: Subscriber = {
    ws,
    channels: new Map(),
    send({ joinRef, ref, topic, event, payload }) {
      if (ws.readyState !== WebSocket.OPEN) return;
      const frame = arrays ? [joinRef, ref, topic, event, payload] : { join_ref: joinRef, ref, topic, event, payload };
      ws.send(JSON.stringify(frame));
    },
  };
  const reply = ({ joinRef, ref, topic }: Message, status: "ok" | "error", response: unknown) =>
    subscriber.send({ joinRef, ref, topic, event: "phx_reply", payload: { status, response } });

  const receive = async (message: Message) => {
    const payload = (message.payload ?? {}) as Record<string, unknown>;
    switch (message.event) {
      case "heartbeat":
        return reply(message, "ok", {});
      case "phx_join": {
        // A row committed before the join is not this channel's, even if its delivery is still queued.
        const joined = await capture
          .then(async ({ position }) => ({ ...(await join(stack, apiClaims, message, payload)), since: position() }))
          .catch((error: Error) => error);
        if (joined instanceof Error) return reply(message, "error", { reason: joined.message });
        subscriber.channels.set(message.topic, joined);
        reply(message, "ok", { postgres_changes: joined.bindings });
        if (joined.bindings.length > 0) {
          subscriber.send({
            joinRef: message.joinRef,
            ref: null,
            topic: message.topic,
            event: "system",
            payload: {
              extension: "postgres_changes",
              status: "ok",
              message: "Subscribed to PostgreSQL",
              channel: message.topic.replace(/^realtime:/, ""),
            },
          });
        }
        return;
      }
      case "access_token": {
        const channel = subscriber.channels.get(message.topic);
        if (!channel) return;
        const claims = tokenClaims(stack, String(payload.access_token ?? ""));
        if (claims) channel.claims = claims;
        else closeChannel(subscriber, channel, "Invalid token");
        return;
      }
      case "phx_leave":
        subscriber.channels.delete(message.topic);
        return reply(message, "ok", {});
    }
  };

  // One message at a time, in the order sent: a token refresh pushed right after a join must find the
  // channel joined.
  let received = Promise.resolve();
  ws.on("message", (data, isBinary) => {
    // Binary frames carry only user broadcasts, which this stack does not serve.
    const message = isBinary ? null : parseFrame(data.toString());
    if (message) received = received.then(() => receive(message));
  });
  return subscriber;
}

function parseFrame(text: string): Message | null {
  try {
    const frame: unknown = JSON.parse(text);
    if (Array.isArray(frame)) {
      const [joinRef, ref, topic, event, payload] = frame;
      return { joinRef, ref, topic, event, payload };
    }
    const { join_ref, ref, topic, event, payload } = frame as Record<string, unknown>;
    return {
      joinRef: (join_ref ?? null) as string | null,
      ref: (ref ?? null) as string | null,
      topic: String(topic),
      event: String(event),
      payload,
    };
  } catch {
    return null;
  }
}

// A channel joins as the user whose access token it carries (else as the socket's apikey, i.e. anon);
// each postgres_changes binding gets an id that the reply and every event for it carry.
async function join(stack: Stack, apiClaims: Claims, message: Message, payload: Record<string, unknown>): Promise<Omit<Channel, "since">> {
  const token = typeof payload.access_token === "string" ? payload.access_token : null;
  const claims = token ? tokenClaims(stack, token) : apiClaims;
  if (!claims) throw new Error("Invalid token");
  const config = (payload.config ?? {}) as { postgres_changes?: Omit<Binding, "id">[] };
  const requested = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
  const bindings = requested.map((binding) => ({ ...binding, id: nextBindingId++ }));
  const conditions = new Map<number, Condition>();
  for (const binding of bindings) {
    if (!binding.filter) continue;
    if (!binding.table || binding.table === "*") throw new Error("A filter needs a table");
    const condition = parseFilter(binding.filter);
    // Checked once now, so a wrong column or value fails the join instead of every later event. Asked as
    // the subscriber, whose grants decide, and answered with one message whatever went wrong: a join never
    // tells which tables or columns exist that the subscriber may not read.
    const probe = `select from ${qualified(binding.schema, binding.table)} t where ${condition.sql(1)} limit 0`;
    await asRole(stack.db, claims, (tx) => tx.query(probe, condition.values), { readOnly: true }).catch((error: Error) => {
      console.warn("a realtime subscription was refused", error.message);
      throw new Error("Unable to subscribe to changes with given parameters");
    });
    conditions.set(binding.id, condition);
  }
  // Tables may have joined the publication since the stack started.
  if (bindings.length > 0) await captureNewTables(stack.db);
  return { topic: message.topic, joinRef: message.joinRef, claims, bindings, conditions };
}

// The claims of a valid token (an apikey is one too), else null.
function tokenClaims(stack: Stack, token: string): Claims | null {
  if (!token) return null;
  try {
    const request = new Request("http://localhost", { headers: { authorization: `Bearer ${token}` } });
    return claimsFromRequest(request, stack);
  } catch (error) {
    if (error instanceof HttpError) return null;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// Filters: `column=op.value`, op one of eq, neq, lt, lte, gt, gte, in (`in.(a,b,"c,d")`)

type Condition = { sql(firstParam: number): string; values: unknown[] };

const comparisons: Record<string, string> = { eq: "=", neq: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" };

function parseFilter(filter: string): Condition {
  const match = /^([^=]+)=(eq|neq|lt|lte|gt|gte|in)\.(.*)$/s.exec(filter);
  if (!match) throw new Error(`Unsupported filter: ${filter}`);
  const [, column, operator, value] = match;
  if (operator === "in") {
    const list = /^\((.*)\)$/s.exec(value);
    if (!list) throw new Error(`Unsupported filter: ${filter}`);
    return { sql: (n) => `t.${identifier(column)} = any($${n})`, values: [splitList(list[1])] };
  }
  return { sql: (n) => `t.${identifier(column)} ${comparisons[operator]} $${n}`, values: [value] };
}

// PostgREST list syntax: comma separated, double quotes around values that hold commas or parentheses.
function splitList(text: string): string[] {
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"|([^,]+)/g)].map(([, quoted, plain]) =>
    quoted !== undefined ? quoted.replace(/\\(.)/g, "$1") : plain.trim(),
  );
}

// ---------------------------------------------------------------------------------------------------
// Change capture and delivery

type Insert = { schema: string; table: string; pk: Record<string, unknown>; commit_timestamp: string };

// Installs the capture and delivers each insert, in commit order, to every matching subscriber.
async function watchInserts(stack: Stack, sockets: Set<Subscriber>): Promise<Capture> {
  await installCapture(stack.db);
  await captureNewTables(stack.db);
  let delivering = Promise.resolve();
  // Counts the notifications received; a channel remembers the count when it joined.
  let notified = 0;
  const stop = await stack.db.listen(changesChannel, (text) => {
    const insert = JSON.parse(text) as Insert;
    const position = ++notified;
    delivering = delivering
      .then(() => deliver(stack, sockets, insert, position))
      .catch((error) => console.error("realtime: delivery failed:", error));
  });
  return {
    async stop() {
      await stop();
      await delivering;
    },
    position: () => notified,
  };
}

// Our own capture, kept in a `realtime` schema that no migration touches: an AFTER INSERT trigger that
// notifies only the table and the new row's primary key (notifications are limited to 8000 bytes).
async function installCapture(db: Db): Promise<void> {
  await db.exec(`
    create schema if not exists realtime;
    grant usage on schema realtime to anon, authenticated, service_role;
    create or replace function realtime.notify_local_insert() returns trigger language plpgsql as $$
    declare
      new_row jsonb := to_jsonb(new);
      pk jsonb := '{}';
      pk_column text;
    begin
      foreach pk_column in array tg_argv loop
        pk := pk || jsonb_build_object(pk_column, new_row -> pk_column);
      end loop;
      perform pg_notify('${changesChannel}', json_build_object(
        'schema', tg_table_schema, 'table', tg_table_name, 'pk', pk, 'commit_timestamp', now())::text);
      return null;
    end
    $$;`);
}

async function captureNewTables(db: Db): Promise<void> {
  // Tables that have a primary key (Realtime needs one to identify rows) and no capture yet.
  const { rows } = await db.query<{ relation: string; pk_columns: string[] }>(`
    select format('%I.%I', p.schemaname, p.tablename) as relation,
           array_agg(a.attname::text order by array_position(i.indkey::int2[], a.attnum)) as pk_columns
    from pg_publication_tables p
    join pg_index i on i.indrelid = format('%I.%I', p.schemaname, p.tablename)::regclass and i.indisprimary
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
    where p.pubname = 'supabase_realtime'
      and not exists (
        select 1 from pg_trigger t where t.tgrelid = i.indrelid and t.tgname = 'realtime_local_insert')
    group by 1`);
  for (const { relation, pk_columns } of rows) {
    const args = pk_columns.map((column) => `'${column.replace(/'/g, "''")}'`).join(", ");
    await db.exec(`create or replace trigger realtime_local_insert after insert on ${relation}
      for each row execute function realtime.notify_local_insert(${args})`);
  }
}

async function deliver(stack: Stack, sockets: Set<Subscriber>, insert: Insert, position: number): Promise<void> {
  const relation = qualified(insert.schema, insert.table);
  let columns: { name: string; type: string }[] | null = null;
  const now = Date.now() / 1000;

  for (const subscriber of sockets) {
    for (const channel of subscriber.channels.values()) {
      if (channel.since >= position) continue;
      const matching = channel.bindings.filter(
        (b) =>
          (b.event === "INSERT" || b.event === "*") &&
          (b.schema === "*" || b.schema === insert.schema) &&
          (!b.table || b.table === "*" || b.table === insert.table),
      );
      if (matching.length === 0) continue;
      if (typeof channel.claims.exp === "number" && channel.claims.exp < now) {
        const ago = Math.round(now - channel.claims.exp);
        closeChannel(subscriber, channel, `Token has expired ${ago} seconds ago`);
        continue;
      }
      const ids: number[] = [];
      let record: unknown = null;
      for (const binding of matching) {
        const row = await readAs(stack.db, channel.claims, relation, insert.pk, channel.conditions.get(binding.id));
        if (row === null) continue;
        ids.push(binding.id);
        record = row;
      }
      if (ids.length === 0) continue;
      columns ??= await columnsOf(stack.db, relation);
      const shown = record !== null && typeof record === "object" ? Object.keys(record) : [];
      subscriber.send({
        joinRef: null,
        ref: null,
        topic: channel.topic,
        event: "postgres_changes",
        payload: {
          ids,
          data: {
            schema: insert.schema,
            table: insert.table,
            commit_timestamp: new Date(insert.commit_timestamp).toISOString(),
            type: "INSERT",
            errors: null,
            columns: columns.filter((column) => shown.includes(column.name)),
            record,
          },
        },
      });
    }
  }
}

// The new row as this subscriber may see it, or null: read as the subscriber, so their policies decide,
// with the columns their role may select alone (Realtime omits a column the role has no SELECT on, as
// supabase/walrus's test_column_privileges shows, rather than failing the delivery).
async function readAs(
  db: Db,
  claims: Claims,
  relation: string,
  pk: Record<string, unknown>,
  condition: Condition | undefined,
): Promise<unknown> {
  const keys = Object.entries(pk);
  const where = keys.map(([column], i) => `t.${identifier(column)} = $${i + 1}`);
  if (condition) where.push(condition.sql(keys.length + 1));
  // Key values go in as text; Postgres casts them to the columns' types.
  const values = [...keys.map(([, value]) => String(value)), ...(condition?.values ?? [])];
  const result = await asRole(
    db,
    claims,
    async (tx) => {
      const { rows } = await tx.query<{ selectable: string | null }>(
        `select string_agg(quote_ident(a.attname), ', ' order by a.attnum) as selectable from pg_attribute a
         where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped
           and has_column_privilege(a.attrelid, a.attnum, 'SELECT')`,
        [relation],
      );
      const selectable = rows[0]?.selectable;
      if (!selectable) return { rows: [] };
      const sql = `select row_to_json(r) as record from (select ${selectable} from ${relation} t where ${where.join(" and ")}) r`;
      return tx.query<{ record: unknown }>(sql, values);
    },
    { readOnly: true },
  );
  return result.rows[0]?.record ?? null;
}

async function columnsOf(db: Db, relation: string): Promise<{ name: string; type: string }[]> {
  const { rows } = await db.query<{ name: string; type: string }>(
    `select a.attname as name, t.typname as type from pg_attribute a join pg_type t on t.oid = a.atttypid
     where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
    [relation],
  );
  return rows;
}

// Like Realtime, a channel whose token expired or was replaced by an invalid one is told so and closed.
function closeChannel(subscriber: Subscriber, channel: Channel, reason: string): void {
  subscriber.channels.delete(channel.topic);
  subscriber.send({
    joinRef: channel.joinRef,
    ref: null,
    topic: channel.topic,
    event: "system",
    payload: { extension: "system", status: "error", message: reason },
  });
  const { joinRef, topic } = channel;
  subscriber.send({ joinRef, ref: joinRef, topic, event: "phx_close", payload: {} });
}

function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function qualified(schema: string, table: string): string {
  return `${identifier(schema)}.${identifier(table)}`;
}
