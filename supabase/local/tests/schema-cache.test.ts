import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "../server.ts";
import { startTestStack } from "../testing.ts";

// REST keeps what it learns from the catalog (relations, columns, foreign keys, functions) between
// requests; a schema change made a moment before, on the stack's own connection, must show at once.

let local: LocalStack;

beforeAll(async () => {
  local = await startTestStack({ seed: false });
});

afterAll(async () => {
  await local?.close();
});

async function rest(path: string, init: RequestInit = {}): Promise<{ status: number; body: unknown & { code?: string } }> {
  const key = local.serviceRoleKey;
  const response = await fetch(`${local.url}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: key, authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers },
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe("the schema cache", () => {
  it("is on: the stack could install its schema version trigger", () => {
    expect(local.stack.schema.enabled).toBe(true);
  });

  it("sees a table created after a first request for it", async () => {
    expect((await rest("cache_late?select=*")).status).toBe(404);
    await local.stack.db.exec(`
      create table public.cache_late (id int primary key, name text);
      insert into public.cache_late values (1, 'first');`);
    expect(await rest("cache_late?select=*")).toEqual({ status: 200, body: [{ id: 1, name: "first" }] });
  });

  it("follows added, dropped and renamed columns", async () => {
    await local.stack.db.exec(`create table public.cache_columns (id int primary key, old_name text, gone text)`);
    await local.stack.db.exec(`insert into public.cache_columns values (1, 'a', 'b')`);
    expect((await rest("cache_columns?select=*")).body).toEqual([{ id: 1, old_name: "a", gone: "b" }]);

    await local.stack.db.exec(`
      alter table public.cache_columns drop column gone;
      alter table public.cache_columns rename column old_name to new_name;
      alter table public.cache_columns add column added int not null default 7;`);
    expect((await rest("cache_columns?select=*")).body).toEqual([{ id: 1, new_name: "a", added: 7 }]);

    // writes check their columns against the cache too
    const inserted = await rest("cache_columns", { method: "POST", body: JSON.stringify({ id: 2, new_name: "c", added: 8 }) });
    expect(inserted.status).toBe(201);
    const stale = await rest("cache_columns", { method: "POST", body: JSON.stringify({ id: 3, gone: "x" }) });
    expect(stale.status).toBe(400);
    expect(stale.body.code).toBe("PGRST204");
  });

  it("sees a foreign key added after a first embed failed", async () => {
    await local.stack.db.exec(`
      create table public.cache_parents (id int primary key, name text);
      create table public.cache_children (id int primary key, parent_id int);
      insert into public.cache_parents values (1, 'p');
      insert into public.cache_children values (10, 1);`);
    expect((await rest("cache_children?select=id,cache_parents(name)")).body.code).toBe("PGRST200");
    await local.stack.db.exec(`alter table public.cache_children add foreign key (parent_id) references public.cache_parents (id)`);
    expect((await rest("cache_children?select=id,cache_parents(name)")).body).toEqual([{ id: 10, cache_parents: { name: "p" } }]);
  });

  it("sees a function created or replaced after a first call", async () => {
    expect((await rest("rpc/cache_answer", { method: "POST", body: "{}" })).status).toBe(404);
    await local.stack.db.exec(`create function public.cache_answer() returns int language sql as 'select 42'`);
    expect((await rest("rpc/cache_answer", { method: "POST", body: "{}" })).body).toBe(42);
    await local.stack.db.exec(`
      drop function public.cache_answer();
      create function public.cache_answer(n int) returns int language sql as 'select n'`);
    expect((await rest("rpc/cache_answer", { method: "POST", body: '{"n": 7}' })).body).toBe(7);
  });

  it("sees a change made inside a transaction once it commits", async () => {
    await local.stack.db.transaction(async (tx) => {
      await tx.exec(`create table public.cache_in_tx (id int primary key)`);
    });
    expect((await rest("cache_in_tx?select=*")).status).toBe(200);
  });

  it("empties on PostgREST's NOTIFY pgrst, 'reload schema'", async () => {
    // with the version trigger off, only the notification can tell the cache about the new column
    const db = local.stack.db;
    await db.exec(`alter event trigger supabase_local_schema_version disable`);
    try {
      expect((await rest("cache_late?select=id")).status).toBe(200);
      await db.exec(`alter table public.cache_late add column quiet int`);
      await db.exec(`notify pgrst, 'reload schema'`);
      // the notification arrives asynchronously, as with PostgREST
      await expect.poll(async () => (await rest("cache_late", { method: "POST", body: '{"id": 2, "quiet": 1}' })).status).toBe(201);
    } finally {
      await db.exec(`alter event trigger supabase_local_schema_version enable`);
    }
  });
});
