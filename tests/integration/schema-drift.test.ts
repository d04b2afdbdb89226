import { describe, expect, it } from "vitest";
import { declaredDatabase, migratedCopy, schemaDifference } from "../../scripts/lib/schema-drift.ts";

// The drift check of `npm run test:postgres` (the migrations against supabase/schemas) must fail on a
// difference and name it. It needs a PostgreSQL server and the migrated template that run makes.
const serverUrl = process.env.TEST_DATABASE_URL;
const template = process.env.TEST_DATABASE_TEMPLATE;

describe.skipIf(!serverUrl || !template)("the schema drift check", () => {
  it("names what the migrations build and the schemas no longer declare: a policy, a grant, a published table", async () => {
    const suffix = `${process.pid}_${Date.now().toString(36)}`;
    await migratedCopy(serverUrl!, template!, `drift_migrated_${suffix}`);
    await declaredDatabase(serverUrl!, `drift_declared_${suffix}`, (_file, sql) =>
      sql
        .replace(/create policy "Visitors read followers" on public\.followers\s+for select to anon using \(true\);/, "")
        .replace("grant select on public.genre_counts to anon, authenticated;", "grant select on public.genre_counts to authenticated;")
        .replace(/, public\.comments;/, ";"),
    );
    const difference = await schemaDifference(serverUrl!, `drift_migrated_${suffix}`, `drift_declared_${suffix}`);
    expect(difference).toContain('drop policy "Visitors read followers" on "public"."followers";');
    expect(difference).toContain(`only in drift_migrated_${suffix}: privilege public.genre_counts anon=r/postgres`);
    expect(difference).toContain(`only in drift_migrated_${suffix}: publication supabase_realtime public.comments`);
  }, 120_000);
});
