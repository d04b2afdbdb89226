import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { LocalStack } from "../server.ts";
import { signJwt, startTestStack } from "../testing.ts";

// The REST service through the real supabase-js client, on small tables of its own (prefixed rest_ so
// they never meet the product's schema), created as the superuser: what the product's calls use, and a
// plain refusal of what they do not.

let local: LocalStack;
let anon: SupabaseClient;
let service: SupabaseClient;
let ann: SupabaseClient;
let bob: SupabaseClient;

const annId = "11111111-1111-4111-8111-111111111111";
const bobId = "22222222-2222-4222-8222-222222222222";
const options = { auth: { persistSession: false, autoRefreshToken: false } };

function tokenFor(sub: string, expiresIn = 3600): string {
  return signJwt(
    { sub, role: "authenticated", aud: "authenticated", exp: Math.floor(Date.now() / 1000) + expiresIn },
    local.stack.config.jwtSecret,
  );
}

function clientWithToken(token: string): SupabaseClient {
  return createClient(local.url, local.anonKey, { ...options, global: { headers: { Authorization: `Bearer ${token}` } } });
}

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  await local.stack.db.exec(`
    create table public.rest_artists (
      id serial primary key,
      name text not null unique,
      genre text,
      tags text[] not null default '{}',
      links jsonb not null default '{}',
      bio text,
      created_at timestamptz not null default '2026-01-01T00:00:00Z'
    );
    create table public.rest_tracks (
      id serial primary key,
      artist_id int references public.rest_artists (id) on delete cascade,
      title text not null,
      price numeric(10, 2) not null default 0.99 check (price >= 0),
      plays int8 not null default 0,
      released_on date,
      published boolean
    );
    create table public.rest_bios (
      artist_id int primary key references public.rest_artists (id),
      text text not null
    );
    create table public.rest_duets (
      first_artist_id int references public.rest_artists (id),
      second_artist_id int references public.rest_artists (id)
    );
    create table public.rest_notes (
      id serial primary key,
      owner_id uuid not null default auth.uid(),
      body text not null check (length(body) > 0)
    );
    alter table public.rest_notes enable row level security;
    create policy "owners read their notes" on public.rest_notes for select to authenticated using (owner_id = (select auth.uid()));
    create policy "owners write their notes" on public.rest_notes for insert to authenticated with check (owner_id = (select auth.uid()));
    create policy "owners change their notes" on public.rest_notes for update to authenticated using (owner_id = (select auth.uid()));
    create table public.rest_secrets (id int primary key, value text);
    revoke all on public.rest_secrets from anon, authenticated;

    grant select, insert, update, delete on public.rest_artists, public.rest_tracks, public.rest_bios, public.rest_duets, public.rest_notes
      to anon, authenticated, service_role;
    grant usage on all sequences in schema public to anon, authenticated, service_role;

    create function public.rest_add(a int, b int default 10) returns int language sql immutable as 'select a + b';
    create function public.rest_tracks_by(artist text) returns setof public.rest_tracks language sql stable as
      'select t.* from public.rest_tracks t join public.rest_artists a on a.id = t.artist_id where a.name = artist';
    create function public.rest_genres_of(names text[]) returns setof text language sql stable as
      'select genre from public.rest_artists where name = any(names) order by genre';
    create function public.rest_count_keys(doc jsonb) returns int language sql immutable as
      'select count(*)::int from jsonb_object_keys(doc)';
    create function public.rest_whoami() returns jsonb language sql stable as
      $$ select jsonb_build_object('role', auth.role(), 'uid', auth.uid()) $$;
    create function public.rest_touch() returns void language sql as 'update public.rest_artists set bio = bio';
    create function public.rest_fail(message text) returns int language plpgsql as
      $$ begin raise exception '%', message using hint = 'it was asked to'; end $$;
    create function public.rest_artist_summary(artist_id int, out name text, out track_count int8) language sql stable as
      'select a.name, (select count(*) from public.rest_tracks t where t.artist_id = a.id) from public.rest_artists a where a.id = artist_id';

    insert into public.rest_artists (name, genre, tags, links, bio) values
      ('Ann Arbor', 'jazz', '{live,vinyl}', '{"site": {"url": "https://ann.example"}, "rank": 1}', 'Plays, sings.'),
      ('Bob Beat', 'electronic', '{club}', '{"rank": 2}', null),
      ('Cee Choir', 'classical', '{}', '{}', 'Choir "quoted", with commas');
    insert into public.rest_tracks (artist_id, title, price, plays, released_on, published) values
      (1, 'Autumn', 1.99, 10, '2026-01-05', true),
      (1, 'Blue Hour', 0.99, 300, '2025-06-01', true),
      (2, 'Circuit', 2.50, 42, null, false),
      (2, 'Drop, Zone', 0.99, 7, '2026-02-01', null);
    insert into public.rest_bios values (1, 'Ann is from Ann Arbor.');
    insert into public.rest_notes (owner_id, body) values ('${annId}', 'ann''s note'), ('${bobId}', 'bob''s note');
  `);
  anon = createClient(local.url, local.anonKey, options);
  service = createClient(local.url, local.serviceRoleKey, options);
  ann = clientWithToken(tokenFor(annId));
  bob = clientWithToken(tokenFor(bobId));
}, 120_000);

afterAll(async () => {
  await local?.close();
});

async function raw(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${local.url}/rest/v1/${path}`, {
    ...init,
    headers: { apikey: local.anonKey, ...(init.headers as Record<string, string>) },
  });
}

describe("select", () => {
  it("returns columns with the values Postgres gives JSON: numerics, int8, dates, timestamps, arrays, jsonb", async () => {
    const { data, error } = await anon.from("rest_tracks").select("id, title, price, plays, released_on, published").eq("id", 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: 1, title: "Autumn", price: 1.99, plays: 10, released_on: "2026-01-05", published: true }]);
    const { data: artist } = await anon.from("rest_artists").select("*").eq("id", 1).single();
    expect(artist).toEqual({
      id: 1,
      name: "Ann Arbor",
      genre: "jazz",
      tags: ["live", "vinyl"],
      links: { site: { url: "https://ann.example" }, rank: 1 },
      bio: "Plays, sings.",
      created_at: "2026-01-01T00:00:00+00:00",
    });
  });

  it("renames with aliases", async () => {
    const { data, error } = await anon.from("rest_artists").select("artist:name, id").eq("id", 1);
    expect(error).toBeNull();
    expect(data).toEqual([{ artist: "Ann Arbor", id: 1 }]);
  });

  it("embeds a to-one relationship as an object or null, a to-many one as an array, and nests embeds", async () => {
    const { data, error } = await anon.from("rest_tracks").select("title, artist:rest_artists(name, rest_bios(text))").order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: "Autumn", artist: { name: "Ann Arbor", rest_bios: { text: "Ann is from Ann Arbor." } } },
      { title: "Blue Hour", artist: { name: "Ann Arbor", rest_bios: { text: "Ann is from Ann Arbor." } } },
      { title: "Circuit", artist: { name: "Bob Beat", rest_bios: null } },
      { title: "Drop, Zone", artist: { name: "Bob Beat", rest_bios: null } },
    ]);
    const { data: artists } = await anon.from("rest_artists").select("name, rest_tracks(title)").order("id");
    expect(artists).toEqual([
      { name: "Ann Arbor", rest_tracks: [{ title: "Autumn" }, { title: "Blue Hour" }] },
      { name: "Bob Beat", rest_tracks: [{ title: "Circuit" }, { title: "Drop, Zone" }] },
      { name: "Cee Choir", rest_tracks: [] },
    ]);
  });

  it("says which relationships are ambiguous or missing", async () => {
    const ambiguous = await anon.from("rest_duets").select("rest_artists(name)");
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error?.code).toBe("PGRST201");
    const missing = await anon.from("rest_tracks").select("title, rest_notes(body)");
    expect(missing.status).toBe(400);
    expect(missing.error?.code).toBe("PGRST200");
  });
});

describe("filters", () => {
  const titles = async (query: PromiseLike<{ data: { title: string }[] | null; error: unknown }>) => {
    const { data, error } = await query;
    expect(error).toBeNull();
    return data?.map((t) => t.title);
  };
  const tracks = () => anon.from("rest_tracks").select("title").order("id");

  it("compares", async () => {
    expect(await titles(tracks().eq("price", 0.99))).toEqual(["Blue Hour", "Drop, Zone"]);
    expect(await titles(tracks().neq("price", 0.99))).toEqual(["Autumn", "Circuit"]);
    expect(await titles(tracks().gt("plays", 10))).toEqual(["Blue Hour", "Circuit"]);
    expect(await titles(tracks().gte("plays", 10))).toEqual(["Autumn", "Blue Hour", "Circuit"]);
    expect(await titles(tracks().lt("released_on", "2026-01-01"))).toEqual(["Blue Hour"]);
    expect(await titles(tracks().lte("plays", 10))).toEqual(["Autumn", "Drop, Zone"]);
  });

  it("matches patterns, with * as a wildcard too", async () => {
    expect(await titles(tracks().like("title", "%our"))).toEqual(["Blue Hour"]);
    expect(await titles(tracks().ilike("title", "c*"))).toEqual(["Circuit"]);
  });

  it("takes lists with quoted values, and null/true/false", async () => {
    expect(await titles(tracks().in("title", ["Autumn", "Drop, Zone", "x)y"]))).toEqual(["Autumn", "Drop, Zone"]);
    expect(await titles(tracks().not("title", "in", '(Autumn,"Drop, Zone")'))).toEqual(["Blue Hour", "Circuit"]);
    expect(await titles(tracks().in("title", []))).toEqual([]);
    expect(await titles(tracks().is("published", null))).toEqual(["Drop, Zone"]);
    expect(await titles(tracks().is("published", true))).toEqual(["Autumn", "Blue Hour"]);
    expect(await titles(tracks().is("published", false))).toEqual(["Circuit"]);
    expect(await titles(tracks().not("released_on", "is", null))).toEqual(["Autumn", "Blue Hour", "Drop, Zone"]);
  });

  it("checks that arrays and jsonb contain a value", async () => {
    const names = async (query: PromiseLike<{ data: { name: string }[] | null }>) => (await query).data?.map((a) => a.name);
    const artists = () => anon.from("rest_artists").select("name").order("id");
    expect(await names(artists().contains("tags", ["vinyl"]))).toEqual(["Ann Arbor"]);
    expect(await names(artists().contains("links", { rank: 2 }))).toEqual(["Bob Beat"]);
  });

  it("answers 400 PGRST100 to a filter it cannot parse", async () => {
    const response = await raw("rest_tracks?title=nope.Autumn");
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe("PGRST100");
  });
});

describe("order, pages and counts", () => {
  it("orders by several columns with null placement", async () => {
    const { data } = await anon
      .from("rest_tracks")
      .select("title")
      .order("released_on", { ascending: false, nullsFirst: true })
      .order("title");
    expect(data?.map((t) => t.title)).toEqual(["Circuit", "Drop, Zone", "Autumn", "Blue Hour"]);
    const { data: last } = await anon.from("rest_tracks").select("title").order("released_on", { ascending: true, nullsFirst: false });
    expect(last?.at(-1)?.title).toBe("Circuit");
  });

  it("pages with limit and offset, and reports Content-Range", async () => {
    const { data, count, status } = await anon.from("rest_tracks").select("id", { count: "exact" }).order("id").range(1, 2);
    expect(data).toEqual([{ id: 2 }, { id: 3 }]);
    expect(count).toBe(4);
    expect(status).toBe(206);
    const response = await raw("rest_tracks?select=id&order=id&limit=2&offset=1");
    expect(response.headers.get("content-range")).toBe("1-2/*");
    const empty = await raw("rest_tracks?title=eq.none", { headers: { prefer: "count=exact" } });
    expect(empty.headers.get("content-range")).toBe("*/0");
  });

  it("counts exactly for planned and estimated too, and with head answers without a body", async () => {
    for (const count of ["exact", "planned", "estimated"] as const) {
      const result = await anon.from("rest_tracks").select("*", { count, head: true }).eq("artist_id", 1);
      expect(result).toMatchObject({ data: null, error: null, count: 2 });
    }
    const head = await raw("rest_tracks", { method: "HEAD", headers: { prefer: "count=exact" } });
    expect(head.headers.get("content-range")).toBe("0-3/4");
    expect(await head.text()).toBe("");
  });

  it("refuses an offset past the end when counting", async () => {
    const result = await anon.from("rest_tracks").select("id", { count: "exact" }).range(10, 20);
    expect(result.status).toBe(416);
    expect(result.error?.code).toBe("PGRST103");
  });
});

describe("single objects", () => {
  it("answers one object, or 406 PGRST116 when there is not exactly one row", async () => {
    expect((await anon.from("rest_artists").select("name").eq("id", 2).single()).data).toEqual({ name: "Bob Beat" });
    const none = await anon.from("rest_artists").select("name").eq("id", 99).single();
    expect(none.status).toBe(406);
    expect(none.error).toEqual({
      code: "PGRST116",
      details: "The result contains 0 rows",
      hint: null,
      message: "Cannot coerce the result to a single JSON object",
    });
    const many = await anon.from("rest_artists").select("name").single();
    expect(many.error?.details).toBe("The result contains 3 rows");
    expect((await anon.from("rest_artists").select("name").eq("id", 99).maybeSingle()).data).toBeNull();
  });
});

describe("writes", () => {
  it("inserts one row and returns it shaped by select, with embeds", async () => {
    const { data, error, status } = await service
      .from("rest_tracks")
      .insert({ artist_id: 3, title: "Evensong", price: 1.5 })
      .select("title, price, plays, rest_artists(name)")
      .single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toEqual({ title: "Evensong", price: 1.5, plays: 0, rest_artists: { name: "Cee Choir" } });
  });

  it("inserts in bulk with columns=, returning nothing by default", async () => {
    const result = await service.from("rest_tracks").insert([
      { artist_id: 3, title: "Fugue", price: 1 },
      { artist_id: 3, title: "Gloria", price: 3 },
    ]);
    expect(result).toMatchObject({ data: null, error: null, status: 201 });
    const { data } = await service.from("rest_tracks").select("title, price").in("title", ["Fugue", "Gloria"]).order("title");
    expect(data).toEqual([
      { title: "Fugue", price: 1 },
      { title: "Gloria", price: 3 },
    ]);
  });

  it("fills keys missing from some objects with null", async () => {
    const nulls = await service.from("rest_tracks").insert([{ title: "Hymn" }, { title: "Hymn", price: 2 }]);
    expect(nulls.error?.code).toBe("23502");
  });

  it("updates and deletes what the filters match", async () => {
    const updated = await service.from("rest_tracks").update({ price: 4.5, published: true }).eq("title", "Gloria").select("title, price");
    expect(updated).toMatchObject({ status: 200, data: [{ title: "Gloria", price: 4.5 }] });
    const minimal = await service.from("rest_tracks").update({ plays: 1 }).eq("title", "Fugue");
    expect(minimal).toMatchObject({ status: 204, data: null, error: null });
    // the returned rows are not filtered again: this update changes the column its filter matched
    const moved = await service.from("rest_tracks").update({ title: "Fugue II" }).eq("title", "Fugue").select("title");
    expect(moved.data).toEqual([{ title: "Fugue II" }]);
    const deleted = await service.from("rest_tracks").delete().in("title", ["Fugue II", "Gloria"]).select("title").order("title");
    expect(deleted.data).toEqual([{ title: "Fugue II" }, { title: "Gloria" }]);
    expect((await service.from("rest_tracks").delete().eq("title", "nothing")).status).toBe(204);
  });

  it("refuses an update or delete without filters", async () => {
    const result = await service.from("rest_tracks").delete();
    expect(result.status).toBe(400);
    expect(result.error?.message).toBe("DELETE requires a WHERE clause");
  });

  it("rolls back a write whose single object was not exactly one row", async () => {
    const result = await service.from("rest_tracks").update({ plays: 99 }).eq("artist_id", 1).select().single();
    expect(result.status).toBe(406);
    const { data } = await service.from("rest_tracks").select("plays").eq("artist_id", 1).order("id");
    expect(data).toEqual([{ plays: 10 }, { plays: 300 }]);
  });

  it("answers 400 PGRST204 for a column the table does not have", async () => {
    const result = await service.from("rest_tracks").insert({ title: "x", nope: 1 });
    expect(result.status).toBe(400);
    expect(result.error?.code).toBe("PGRST204");
  });
});

describe("functions", () => {
  it("calls with named arguments", async () => {
    expect((await anon.rpc("rest_add", { a: 1 })).data).toBe(11);
    expect((await anon.rpc("rest_add", { a: 1, b: 2 })).data).toBe(3);
    expect((await anon.rpc("rest_genres_of", { names: ["Bob Beat", "Ann Arbor"] })).data).toEqual(["electronic", "jazz"]);
  });

  it("filters and orders the rows a function returns", async () => {
    const { data, error } = await anon.rpc("rest_tracks_by", { artist: "Ann Arbor" }).gt("plays", 5).order("title", { ascending: false });
    expect(error).toBeNull();
    expect(data?.map((track: { title: string }) => track.title)).toEqual(["Blue Hour", "Autumn"]);
  });

  it("returns one row as an object, and void as nothing", async () => {
    expect((await anon.rpc("rest_artist_summary", { artist_id: 2 })).data).toEqual({ name: "Bob Beat", track_count: 2 });
    expect(await service.rpc("rest_touch")).toMatchObject({ data: null, error: null, status: 204 });
  });

  it("counts, and answers head calls (POSTed with return=minimal) without data", async () => {
    expect(await anon.rpc("rest_genres_of", { names: ["Bob Beat", "Ann Arbor"] }, { count: "exact" })).toMatchObject({ count: 2 });
    expect((await anon.rpc("rest_count_keys", { doc: { a: 1, b: [2] } })).data).toBe(2);
    // object arguments cannot go in a query string: postgrest-js POSTs them with return=minimal
    const objectArgs = await anon.rpc("rest_count_keys", { doc: { a: 1 } }, { head: true });
    expect(objectArgs).toMatchObject({ data: null, error: null, status: 200 });
  });

  it("runs as the caller", async () => {
    expect((await anon.rpc("rest_whoami")).data).toEqual({ role: "anon", uid: null });
    expect((await ann.rpc("rest_whoami")).data).toEqual({ role: "authenticated", uid: annId });
  });

  it("reports missing functions and raised exceptions", async () => {
    const missing = await anon.rpc("rest_nope", { a: 1 });
    expect(missing.status).toBe(404);
    expect(missing.error?.code).toBe("PGRST202");
    const raised = await anon.rpc("rest_fail", { message: "Track limit reached" });
    expect(raised.status).toBe(400);
    expect(raised.error).toEqual({ code: "P0001", details: null, hint: "it was asked to", message: "Track limit reached" });
  });
});

describe("roles and row-level security", () => {
  it("shows each user only their own rows, and anon none", async () => {
    expect((await ann.from("rest_notes").select("body")).data).toEqual([{ body: "ann's note" }]);
    expect((await bob.from("rest_notes").select("body")).data).toEqual([{ body: "bob's note" }]);
    expect((await anon.from("rest_notes").select("body")).data).toEqual([]);
    expect((await service.from("rest_notes").select("body").order("id")).data).toHaveLength(2);
  });

  it("lets a user write only as themselves", async () => {
    const own = await ann.from("rest_notes").insert({ body: "second" }).select("owner_id, body").single();
    expect(own.data).toEqual({ owner_id: annId, body: "second" });
    const forged = await ann.from("rest_notes").insert({ owner_id: bobId, body: "forged" });
    expect(forged.status).toBe(403);
    expect(forged.error?.code).toBe("42501");
    const others = await ann.from("rest_notes").update({ body: "changed" }).eq("owner_id", bobId).select();
    expect(others.data).toEqual([]);
    const anonymous = await anon.from("rest_notes").insert({ body: "who?" });
    expect(anonymous.status).toBe(401);
  });

  it("answers 401 to anon and 403 to a user without privileges", async () => {
    const asAnon = await anon.from("rest_secrets").select();
    expect(asAnon.status).toBe(401);
    expect(asAnon.error?.code).toBe("42501");
    expect(asAnon.error?.message).toBe("permission denied for table rest_secrets");
    expect((await ann.from("rest_secrets").select()).status).toBe(403);
  });

  it("refuses a bad or expired token with 401 PGRST301", async () => {
    const forged = clientWithToken(signJwt({ sub: annId, role: "authenticated" }, "another-secret-another-secret-another"));
    const bad = await forged.from("rest_artists").select("id");
    expect(bad.status).toBe(401);
    expect(bad.error?.code).toBe("PGRST301");
    const expired = await clientWithToken(tokenFor(annId, -10)).from("rest_artists").select("id");
    expect(expired.status).toBe(401);
    expect(expired.error).toMatchObject({ code: "PGRST301", message: "JWT expired" });
  });

  it("refuses a cached token once it has expired, and never caches a refused one", async () => {
    const token = tokenFor(annId, 60);
    const first = await clientWithToken(token).from("rest_notes").select("body");
    expect(first.status).toBe(200);
    expect(first.data).toContainEqual({ body: "ann's note" });
    expect(local.stack.tokens.get(token)).toMatchObject({ sub: annId, role: "authenticated" });
    // only Date is faked: the server runs in this process, so its clock moves past exp with it
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 120_000 });
    try {
      const later = await clientWithToken(token).from("rest_notes").select("body");
      expect(later.status).toBe(401);
      expect(later.error).toMatchObject({ code: "PGRST301", message: "JWT expired" });
      expect(local.stack.tokens.get(token)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
    const forged = signJwt({ sub: annId, role: "authenticated" }, "another-secret-another-secret-another");
    expect((await clientWithToken(forged).from("rest_notes").select("body")).status).toBe(401);
    expect(local.stack.tokens.get(forged)).toBeUndefined();
  });
});

describe("errors", () => {
  it("reports constraint violations with Postgres message and detail, and PostgREST status", async () => {
    const unique = await service.from("rest_artists").insert({ name: "Ann Arbor" });
    expect(unique.status).toBe(409);
    expect(unique.error).toEqual({
      code: "23505",
      details: "Key (name)=(Ann Arbor) already exists.",
      hint: null,
      message: 'duplicate key value violates unique constraint "rest_artists_name_key"',
    });
    const foreign = await service.from("rest_tracks").insert({ title: "x", artist_id: 999 });
    expect(foreign.status).toBe(409);
    expect(foreign.error?.code).toBe("23503");
    const check = await service.from("rest_tracks").insert({ title: "x", price: -1 });
    expect(check.status).toBe(400);
    expect(check.error?.code).toBe("23514");
    const notNull = await service.from("rest_tracks").insert({ price: 1 });
    expect(notNull.status).toBe(400);
    expect(notNull.error?.code).toBe("23502");
  });

  it("reports unknown tables with 404 PGRST205, unknown columns with 400 42703", async () => {
    const table = await anon.from("rest_artist").select();
    expect(table.status).toBe(404);
    expect(table.error).toEqual({
      code: "PGRST205",
      details: null,
      hint: null,
      message: "Could not find the table 'public.rest_artist' in the schema cache",
    });
    const column = await anon.from("rest_artists").select("nope");
    expect(column.status).toBe(400);
    expect(column.error).toMatchObject({ code: "42703", message: "column rest_artists.nope does not exist" });
  });

  it("refuses schemas other than public", async () => {
    const other = createClient(local.url, local.anonKey, { ...options, db: { schema: "auth" } });
    const result = await other.from("users").select();
    expect(result.status).toBe(406);
    expect(result.error?.code).toBe("PGRST106");
  });
});

describe("what the product never calls", () => {
  it("is refused as not supported by the local stack, never approximated", async () => {
    const tracks = () => service.from("rest_tracks").select("title");
    const refusals = [
      tracks().or("price.gt.2,title.eq.Autumn"),
      tracks().textSearch("title", "autumn"),
      tracks().likeAnyOf("title", ["A*"]),
      service.from("rest_artists").select("tags").overlaps("tags", ["club"]),
      service.from("rest_artists").select("site:links->site->>url"),
      service.from("rest_artists").select("id::text"),
      service.from("rest_tracks").select("title, rest_artists!inner(name)"),
      service.from("rest_tracks").select("title, ...rest_artists(name)"),
      service.from("rest_artists").select("name, rest_tracks(count)"),
      service.from("rest_artists").select("name, rest_tracks(title)").eq("rest_tracks.published", true),
      service.from("rest_bios").upsert({ artist_id: 1, text: "New bio." }),
      service.from("rest_artists").insert({ name: "Ghost" }).select("name").rollback(),
      service.from("rest_tracks").insert({ title: "Hymn", artist_id: 3 }, { defaultToNull: false }),
      service.rpc("rest_add", { a: 1 }, { get: true }),
    ];
    for (const result of await Promise.all(refusals)) {
      expect(result.status).toBe(400);
      expect(result.error).toMatchObject({ code: "PGRST127", message: expect.stringMatching(/ is not supported by the local stack$/) });
    }
    const ranged = await raw("rest_tracks?select=id", { headers: { range: "0-0" } });
    expect(ranged.status).toBe(400);
    expect((await service.from("rest_artists").select("id").eq("name", "Ghost")).data).toEqual([]);
  });
});

describe("injection attempts", () => {
  const intact = async () => {
    const { count } = await service.from("rest_artists").select("*", { count: "exact", head: true });
    expect(count).toBe(3);
  };

  it("treats filter values as values", async () => {
    const attempts = ["x'; drop table public.rest_artists; --", "' or '1'='1", "x) or (1=1", "%", "\\"];
    for (const value of attempts) {
      const { data, error } = await anon.from("rest_artists").select("name").eq("name", value);
      expect(error).toBeNull();
      expect(data).toEqual([]);
    }
    const listed = await anon.from("rest_artists").select("name").in("name", ["a'); drop table public.rest_artists; --", '"']);
    expect(listed.data).toEqual([]);
    await intact();
  });

  it("treats names in select, order and filters as identifiers", async () => {
    const attempts = [
      raw('rest_artists?select=name,"id; drop table public.rest_artists; --"'),
      raw("rest_artists?select=name::text;drop%20table%20rest_artists"),
      raw("rest_artists?order=id;drop%20table%20rest_artists"),
      raw(`rest_artists?${encodeURIComponent('name"; drop table public.rest_artists; --')}=eq.x`),
      raw(`rest_artists?select=*,${encodeURIComponent('rest_tracks"; drop table public.rest_artists; --(title)')}`),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status, await response.text()).toBeLessThan(500);
    }
    await intact();
  });

  it("treats bodies and function arguments as values", async () => {
    const name = "Robert'); drop table public.rest_artists; --";
    const inserted = await service.from("rest_artists").insert({ name }).select("name").single();
    expect(inserted.data).toEqual({ name });
    await service.from("rest_artists").delete().eq("name", name);
    expect((await anon.rpc("rest_genres_of", { names: ["'); drop table public.rest_artists; --"] })).data).toEqual([]);
    await intact();
  });
});
