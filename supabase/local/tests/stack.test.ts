import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { migrate, startLocalStack } from "../server.ts";

// The stack as a whole: migrations applied once and tracked, a data dir that survives restarts, the
// seed loaded once, and the gateway's routing and CORS.

const migrationVersions = readdirSync(join(import.meta.dirname, "..", "..", "migrations"))
  .filter((file) => file.endsWith(".sql"))
  .sort()
  .map((file) => file.split("_")[0]);

const options = { auth: { persistSession: false, autoRefreshToken: false } };

describe("migrations", () => {
  it("applies platform.sql and then every migration once, in order, tracked like the Supabase CLI", async () => {
    const local = await startLocalStack({ port: 0, memory: true, seed: false });
    try {
      const { rows } = await local.stack.db.query<{ version: string }>(
        "select version from supabase_migrations.schema_migrations order by version",
      );
      expect(rows.map((r) => r.version)).toEqual(["00000000000000", ...migrationVersions]);
      expect(await migrate(local.stack.db, { seed: false })).toEqual({ applied: [], seeded: false });
    } finally {
      await local.close();
    }
  }, 120_000);

  it("loads the seed into a fresh database once", async () => {
    const local = await startLocalStack({ port: 0, memory: true, seed: true, seedMedia: false });
    try {
      const { rows } = await local.stack.db.query("select path from supabase_migrations.seed_files");
      expect(rows).toEqual([{ path: "supabase/seed.sql" }]);
      expect(await migrate(local.stack.db, { seed: true })).toEqual({ applied: [], seeded: false });
    } finally {
      await local.close();
    }
  }, 120_000);
});

describe("a data dir", () => {
  it("keeps data across restarts and does not run migrations again", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "local-stack-"));
    try {
      const first = await startLocalStack({ port: 0, dataDir, seed: false });
      await first.stack.db.exec(`
        create table public.stack_kept (note text);
        grant select on public.stack_kept to anon;
        insert into public.stack_kept values ('still here');`);
      const applied = await first.stack.db.query("select version, applied_at from supabase_migrations.schema_migrations order by version");
      await first.close();

      const second = await startLocalStack({ port: 0, dataDir, seed: false });
      try {
        const again = await second.stack.db.query("select version, applied_at from supabase_migrations.schema_migrations order by version");
        expect(again.rows).toEqual(applied.rows);
        const client = createClient(second.url, second.anonKey, options);
        expect((await client.from("stack_kept").select("note")).data).toEqual([{ note: "still here" }]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("refuses a database migrated with a history the project no longer has, saying how to rebuild it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "local-stack-"));
    try {
      const first = await startLocalStack({ port: 0, dataDir, seed: false });
      await first.stack.db.query("insert into supabase_migrations.schema_migrations (version, name) values ('20200101000000', 'squashed')");
      await first.close();
      await expect(startLocalStack({ port: 0, dataDir, seed: false })).rejects.toThrow(
        /no longer holds \(20200101000000\): run npm run db:reset/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("the gateway", () => {
  it("answers CORS preflights and exposes the headers clients read", async () => {
    const local = await startLocalStack({ port: 0, memory: true, seed: false });
    try {
      const origin = "http://localhost:3000";
      const preflight = await fetch(`${local.url}/rest/v1/anything`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "apikey, prefer" },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
      expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
      expect(preflight.headers.get("access-control-allow-headers")).toContain("x-client-info");

      const read = await fetch(`${local.url}/rest/v1/stack_nothing`, { headers: { origin, apikey: local.anonKey } });
      expect(read.status).toBe(404);
      expect(read.headers.get("access-control-allow-origin")).toBe(origin);
      expect(read.headers.get("access-control-expose-headers")).toContain("Content-Range");

      const unknown = await fetch(`${local.url}/nowhere/v1/x`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ message: "no Route matched with those values" });
    } finally {
      await local.close();
    }
  }, 120_000);

  it("starts on a free port when asked for port 0, and reports it", async () => {
    const [a, b] = await Promise.all([
      startLocalStack({ port: 0, memory: true, seed: false }),
      startLocalStack({ port: 0, memory: true, seed: false }),
    ]);
    try {
      expect(a.url).not.toBe(b.url);
      expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(a.stack.config.publicUrl).toBe(a.url);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 120_000);
});
