// The local stack's Realtime, driven by the real supabase-js: postgres_changes INSERT events over the
// Phoenix websocket (both protocol versions), filtered, and delivered only to subscribers whose
// policies let them read the new row.
import { createClient, type RealtimeChannel, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Claims, signJwt, startTestStack, createUser } from "../testing.ts";
import type { LocalStack } from "../server.ts";

type Message = { id: number; owner_id: string; body: string; created_at: string };
type User = { id: string; claims: Claims; token: string };

let local: LocalStack;
let alice: User;
let bob: User;
const clients: SupabaseClient[] = [];

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  alice = await signedInUser();
  bob = await signedInUser();
  // A table of our own, added to the publication after the stack started: each user reads only their
  // own messages.
  await local.stack.db.exec(`
    create table public.inbox (
      id bigint generated always as identity primary key,
      owner_id uuid not null,
      body text not null,
      created_at timestamptz not null default now()
    );
    alter table public.inbox enable row level security;
    create policy "Owners read their inbox" on public.inbox for select to authenticated
      using (owner_id = (select auth.uid()));
    alter publication supabase_realtime add table public.inbox;`);
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.removeAllChannels()));
  await local?.close();
});

async function signedInUser(): Promise<User> {
  const { id, claims } = await createUser(local.stack.db, {});
  return { id, claims, token: signJwt(claims, local.stack.config.jwtSecret) };
}

async function clientFor(user: User | null, vsn?: "1.0.0" | "2.0.0"): Promise<SupabaseClient> {
  const client = createClient(local.url, local.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: vsn ? { vsn } : undefined,
    ...(user ? { accessToken: async () => user.token } : {}),
  });
  clients.push(client);
  // realtime-js joins with the token it holds when subscribe() is called, so fetch it first, as an app
  // with a restored session has.
  await client.realtime.setAuth();
  return client;
}

// Subscribes to inbox inserts and collects what arrives.
async function listen(client: SupabaseClient, filter?: string) {
  const received: Message[] = [];
  const channel: RealtimeChannel = client
    .channel(`inbox-${clients.length}-${filter ?? "all"}`)
    .on<Message>("postgres_changes", { event: "INSERT", schema: "public", table: "inbox", filter }, (change) => {
      received.push(change.new as Message);
    });
  await new Promise<void>((resolve, reject) =>
    channel.subscribe((status, error) => {
      if (status === "SUBSCRIBED") resolve();
      else reject(error ?? new Error(status));
    }),
  );
  return { received, channel };
}

async function insert(owner: User, body: string): Promise<void> {
  await local.stack.db.query("insert into public.inbox (owner_id, body) values ($1, $2)", [owner.id, body]);
}

// Waits until delivery has had its chance: a marker row every subscriber may read arrives last.
async function settle(...subscriptions: { received: Message[] }[]): Promise<void> {
  const allMarked = () => subscriptions.every((s) => s.received.some((m) => m.body === "marker"));
  await expect.poll(allMarked, { timeout: 5000 }).toBe(true);
}

describe("postgres_changes", () => {
  it("delivers a new row, typed by its columns, to a subscriber who may read it (vsn 2.0.0)", async () => {
    const inbox = await listen(await clientFor(alice, "2.0.0"));
    await insert(alice, "hello alice");
    await expect.poll(() => inbox.received, { timeout: 5000 }).toHaveLength(1);
    expect(inbox.received[0]).toMatchObject({ owner_id: alice.id, body: "hello alice" });
    expect(typeof inbox.received[0].id).toBe("number");
    expect(inbox.received[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("speaks the 1.0.0 protocol too", async () => {
    const inbox = await listen(await clientFor(bob, "1.0.0"));
    await insert(bob, "hello bob");
    await expect.poll(() => inbox.received.map((m) => m.body), { timeout: 5000 }).toEqual(["hello bob"]);
  });

  it("never delivers a row to a subscriber whose policies hide it, nor to visitors", async () => {
    const aliceInbox = await listen(await clientFor(alice));
    const bobInbox = await listen(await clientFor(bob));
    const visitorInbox = await listen(await clientFor(null));
    await insert(alice, "for alice only");
    await insert(bob, "marker");
    await insert(alice, "marker");
    await settle(aliceInbox, bobInbox);

    expect(aliceInbox.received.map((m) => m.body)).toEqual(["for alice only", "marker"]);
    expect(bobInbox.received.map((m) => m.body)).toEqual(["marker"]);
    expect(visitorInbox.received).toEqual([]);
  });

  it("leaves out the columns the subscriber's role may not select, as Realtime does", async () => {
    await local.stack.db.exec(`
      create table public.letters (
        id bigint generated always as identity primary key,
        owner_id uuid not null,
        body text not null,
        sealed text not null
      );
      alter table public.letters enable row level security;
      create policy "Owners read their letters" on public.letters for select to authenticated
        using (owner_id = (select auth.uid()));
      revoke select on public.letters from anon, authenticated;
      grant select (id, owner_id, body) on public.letters to authenticated;
      alter publication supabase_realtime add table public.letters;`);
    const received: Record<string, unknown>[] = [];
    const channel = (await clientFor(alice))
      .channel("letters")
      .on("postgres_changes", { event: "INSERT", schema: "public", table: "letters" }, (change) => {
        received.push(change.new);
      });
    await new Promise<void>((resolve, reject) =>
      channel.subscribe((status, error) => (status === "SUBSCRIBED" ? resolve() : reject(error ?? new Error(status)))),
    );
    await local.stack.db.query("insert into public.letters (owner_id, body, sealed) values ($1, 'open', 'not yours')", [alice.id]);
    await expect.poll(() => received, { timeout: 5000 }).toHaveLength(1);
    expect(received[0]).toMatchObject({ owner_id: alice.id, body: "open" });
    expect(received[0]).not.toHaveProperty("sealed");
  });

  it("applies the binding filter", async () => {
    const client = await clientFor(alice);
    const filtered = await listen(client, "body=eq.wanted");
    const listed = await listen(client, 'body=in.(wanted,"also, wanted")');
    const all = await listen(client);
    for (const body of ["unwanted", "wanted", "also, wanted", "marker"]) await insert(alice, body);
    await settle(all);

    expect(filtered.received.map((m) => m.body)).toEqual(["wanted"]);
    expect(listed.received.map((m) => m.body)).toEqual(["wanted", "also, wanted"]);
  });

  it("switches a joined channel to the user's token when the client refreshes it", async () => {
    const client = await clientFor(null);
    const inbox = await listen(client);
    await client.realtime.setAuth(alice.token);
    // The token push has no reply, so keep inserting until the server has taken it.
    await expect
      .poll(async () => (await insert(alice, "after sign-in"), inbox.received.length), { timeout: 5000, interval: 100 })
      .toBeGreaterThan(0);
    expect(inbox.received.every((m) => m.body === "after sign-in")).toBe(true);
  });

  it("closes a channel whose token has expired instead of delivering to it", async () => {
    // At least a second left to join (exp is in whole seconds), then past it.
    const claims = { ...alice.claims, exp: Math.floor(Date.now() / 1000) + 2 };
    const shortLived = { ...alice, claims, token: signJwt(claims, local.stack.config.jwtSecret) };
    const inbox = await listen(await clientFor(shortLived));
    await new Promise((resolve) => setTimeout(resolve, claims.exp * 1000 - Date.now() + 100));
    await insert(alice, "too late");
    await expect.poll(() => inbox.channel.state, { timeout: 5000 }).toBe("closed");
    expect(inbox.received).toEqual([]);
  });

  it("refuses a join whose filter names no column of the table", async () => {
    await expect(listen(await clientFor(alice), "nope=eq.1")).rejects.toThrow(/Unable to subscribe/);
  });

  it("asks the subscriber's own grants, and never tells which tables or columns exist", async () => {
    const subscribe = async (schema: string, table: string, filter: string) => {
      const client = await clientFor(null);
      const channel = client
        .channel(`probe-${clients.length}`)
        .on("postgres_changes", { event: "INSERT", schema, table, filter }, () => {});
      return new Promise<string>((resolve) =>
        channel.subscribe((status, error) => {
          if (status !== "SUBSCRIBED") resolve(String(error?.message ?? status));
          else resolve("SUBSCRIBED");
        }),
      );
    };
    const hidden = await subscribe("auth", "users", "encrypted_password=eq.x");
    const missing = await subscribe("public", "no_such_table", "id=eq.1");
    expect(hidden).toMatch(/Unable to subscribe to changes with given parameters/);
    expect(hidden).not.toMatch(/users|encrypted_password|permission/);
    expect(missing).toBe(hidden);
  });

  it("captures the tables our migrations publish", async () => {
    const { rows } = await local.stack.db.query<{ table: string }>(
      `select c.relname as table from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where t.tgname = 'realtime_local_insert' order by 1`,
    );
    const captured = rows.map((r) => r.table);
    expect(captured).toEqual(expect.arrayContaining(["comments", "purchases", "analytics_events", "inbox"]));
  });
});

describe("the websocket", () => {
  const websocketUrl = () => `${local.url.replace("http", "ws")}/realtime/v1/websocket`;

  it("refuses a connection without a valid apikey", async () => {
    for (const query of ["apikey=bad&vsn=2.0.0", "vsn=2.0.0"]) {
      const socket = new WebSocket(`${websocketUrl()}?${query}`);
      const outcome = await new Promise((resolve) => {
        socket.onopen = () => resolve("open");
        socket.onerror = () => resolve("refused");
      });
      expect(outcome).toBe("refused");
    }
  });

  it("answers heartbeats", async () => {
    const socket = new WebSocket(`${websocketUrl()}?apikey=${local.anonKey}&vsn=2.0.0`);
    await new Promise((resolve) => (socket.onopen = resolve));
    const reply = new Promise((resolve) => (socket.onmessage = (event) => resolve(JSON.parse(String(event.data)))));
    socket.send(JSON.stringify([null, "1", "phoenix", "heartbeat", {}]));
    expect(await reply).toEqual([null, "1", "phoenix", "phx_reply", { status: "ok", response: {} }]);
    socket.close();
  });
});
