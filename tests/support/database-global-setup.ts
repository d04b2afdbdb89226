// The suites against the local stack on PGlite: the migrations (and the seed) run once for the whole run,
// and each test file's stack starts from a copy of that database (`startTestStack`, told where by the
// setup file below). On PostgreSQL (`npm run test:postgres`) each file's database is a copy of a template.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { makeTestSnapshots } from "@crate/local-supabase/testing";

// Both projects against the stack (integration, local-stack) name this setup, and vitest runs it once for
// each of them in the one main process: they share one folder, made once and removed after the last.
type Shared = { dir: Promise<string>; projects: number };
const run = globalThis as { localStackSnapshots?: Shared };

async function madeSnapshots(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "local-stack-snapshots-"));
  await makeTestSnapshots(dir);
  return dir;
}

export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) return;
  const shared = (run.localStackSnapshots ??= { dir: madeSnapshots(), projects: 0 });
  shared.projects += 1;
  const dir = await shared.dir;
  project.provide("localStackSnapshots", dir);
  return () => {
    shared.projects -= 1;
    if (shared.projects > 0) return;
    run.localStackSnapshots = undefined;
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    localStackSnapshots?: string;
  }
}
