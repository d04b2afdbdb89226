import { describe, expect, it } from "vitest";
import { schemaDrift } from "../../scripts/lib/schema-drift.ts";

// The drift check of `npm run test:postgres` (the migrations against supabase/schemas) must fail on a
// difference and name it. It needs a PostgreSQL server and the migrated template that run makes.
const serverUrl = process.env.TEST_DATABASE_URL;
const template = process.env.TEST_DATABASE_TEMPLATE;

describe.skipIf(!serverUrl || !template)("the schema drift check", () => {
  it("names what the migrations build and the schemas no longer declare: a policy, a grant, a published table", async () => {
    const difference = await schemaDrift(serverUrl!, template!, (_file, sql) =>
      sql
        .replace(/create policy "Visitors read followers" on public\.followers\s+for select to anon using \([^;]*\);/, "")
        .replace("grant select on public.genre_counts to anon, authenticated;", "grant select on public.genre_counts to authenticated;")
        .replace(/, public\.comments;/, ";"),
    );
    expect(difference).toContain('drop policy "Visitors read followers" on "public"."followers";');
    expect(difference).toContain("-- only in the migrations: privilege public.genre_counts anon=r/postgres");
    expect(difference).toContain("-- only in the migrations: publication supabase_realtime public.comments");
  }, 120_000);
});
