// Part of `npm run typecheck`: the Edge Functions as `supabase functions deploy` bundles them.
// - Every function folder (all but `_shared`) has its `[functions.<name>]` entry in supabase/config.toml
//   with the import map: without it the CLI gives the function no imports and its bare imports fail.
// - `deno check` passes on a copy of supabase/functions with no node_modules anywhere near it: the CLI
//   resolves the npm imports afresh, so a function that works only beside our node_modules is caught here.
//   Deno's cache of downloaded packages stays in node_modules/.cache/deno-functions between runs.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const functionsDir = join(root, "supabase", "functions");
const deno = join(root, "node_modules", ".bin", "deno");

const functions = readdirSync(functionsDir).filter((name) => name !== "_shared" && statSync(join(functionsDir, name)).isDirectory());

const config = readFileSync(join(root, "supabase", "config.toml"), "utf8");
const problems = functions.flatMap((name) => {
  const entry = new RegExp(`^\\[functions\\.${name}\\]\\s*$([\\s\\S]*?)(?=^\\[|(?![\\s\\S]))`, "m").exec(config);
  if (!entry) return [`supabase/config.toml has no [functions.${name}] entry: the CLI would deploy it without its imports`];
  if (!/^import_map\s*=\s*"\.\/functions\/deno\.json"\s*$/m.test(entry[1] ?? "")) {
    return [`[functions.${name}] in supabase/config.toml does not name import_map = "./functions/deno.json"`];
  }
  return [];
});
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}

const copy = mkdtempSync(join(tmpdir(), "functions-check-"));
try {
  cpSync(functionsDir, copy, { recursive: true, filter: (source) => !source.includes("node_modules") });
  const checked = spawnSync(deno, ["check", "--config", "deno.json", "--no-lock", ...functions.map((name) => `${name}/index.ts`)], {
    cwd: copy,
    stdio: "inherit",
    env: { ...process.env, DENO_DIR: join(root, "node_modules", ".cache", "deno-functions"), DENO_NO_UPDATE_CHECK: "1" },
  });
  if (checked.status !== 0) process.exit(checked.status ?? 1);
  console.log(`${functions.length} Edge Functions check as the CLI bundles them, each with its config entry`);
} finally {
  rmSync(copy, { recursive: true, force: true });
}
