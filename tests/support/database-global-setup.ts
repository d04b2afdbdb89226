// The suites against the local stack on PGlite: the migrations (and the seed) run once for the whole run,
// and each test file's stack starts from a copy of that database (`startTestStack`, told where by the
// setup file below). On PostgreSQL (`npm run test:postgres`) each file's database is a copy of a template.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { makeTestSnapshots } from "@crate/local-supabase/testing";

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return;
  const dir = mkdtempSync(join(tmpdir(), "local-stack-snapshots-"));
  await makeTestSnapshots(dir);
  project.provide("localStackSnapshots", dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    localStackSnapshots?: string;
  }
}
