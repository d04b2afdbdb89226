// `npm run lint` runs this: no import circle among the project's modules (app/, workers/, scripts/ and
// supabase/functions/), type imports and dynamic imports included, and no loop between folders: each
// folder (app/lib/session, app/components/layout, a route area, scripts/lib, an Edge Function) keeps to
// one concern, so its imports run one way, from the folders that use it to the ones it uses. Each
// module's imports are read from its text (`import … from`, `export … from`, `import()`), resolved the
// way the build resolves them (relative paths, `~/` for app/, a folder's index); each circle found is
// printed as its chain of files, and each loop of folders as the imports that run back. Imports also run
// one way across app/: routes → components → lib, and no route area (app/routes/studio, …/checkout)
// imports another's modules: what two areas share lives in app/lib or app/components.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";

const root = join(import.meta.dirname, "..");
const app = join(root, "app");

const sourceRoots = [app, join(root, "workers"), join(root, "scripts"), join(root, "supabase", "functions")];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return entry === "+types" || entry === "node_modules" ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [path] : [];
  });
}

function resolve(from: string, specifier: string): string | null {
  const base = specifier.startsWith("~/")
    ? join(app, specifier.slice(2))
    : specifier.startsWith(".")
      ? join(dirname(from), specifier)
      : null;
  if (!base) return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const importPattern =
  /(?:\bimport\s+(?:type\s+)?[^"'`;]*?\bfrom\s*|\bexport\s+(?:type\s+)?[^"'`;]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g;

const graph = new Map<string, string[]>();
for (const file of sourceRoots.flatMap(sourceFiles)) {
  const text = readFileSync(file, "utf8");
  const targets = [...text.matchAll(importPattern)].map((match) => resolve(file, match[1]!)).filter((target) => target !== null);
  graph.set(file, [...new Set(targets)]);
}

const cycles: string[][] = [];
const state = new Map<string, "visiting" | "done">();
const stack: string[] = [];
function visit(file: string) {
  state.set(file, "visiting");
  stack.push(file);
  for (const next of graph.get(file) ?? []) {
    if (state.get(next) === "visiting") cycles.push([...stack.slice(stack.indexOf(next)), next]);
    else if (!state.has(next)) visit(next);
  }
  stack.pop();
  state.set(file, "done");
}
for (const file of graph.keys()) if (!state.has(file)) visit(file);

/** The folder a module belongs to: its own, but app/lib/x, app/components/x and app/routes/x hold their subfolders. */
function folderOf(file: string): string {
  const path = relative(root, dirname(file)).split(sep);
  return path[0] === "app" && path.length > 3 ? path.slice(0, 3).join("/") : path.join("/");
}

// Folders, and the imports between them; a loop is a folder reachable again from one it imports.
const folderImports = new Map<string, Map<string, string[]>>();
for (const [file, targets] of graph) {
  for (const target of targets) {
    const [from, to] = [folderOf(file), folderOf(target)];
    if (from === to) continue;
    const arrows = folderImports.get(from) ?? new Map<string, string[]>();
    folderImports.set(from, arrows.set(to, [...(arrows.get(to) ?? []), `${relative(root, file)} → ${relative(root, target)}`]));
  }
}
function reachable(from: string): Set<string> {
  const seen = new Set<string>();
  const next = [from];
  while (next.length > 0) {
    for (const to of folderImports.get(next.pop()!)?.keys() ?? []) {
      if (!seen.has(to)) next.push(seen.add(to) && to);
    }
  }
  return seen;
}
const loops = [...folderImports].flatMap(([from, arrows]) =>
  [...arrows].filter(([to]) => reachable(to).has(from)).map(([to, imports]) => `${from} → ${to} (${imports.join("; ")})`),
);

/** Where a module of app/ stands in routes → components → lib: higher imports lower, never back. */
function layerOf(folder: string): number | null {
  if (folder.startsWith("app/routes")) return 3;
  if (folder.startsWith("app/components")) return 2;
  if (folder.startsWith("app/lib")) return 1;
  return null;
}
const crossings = [...folderImports].flatMap(([from, arrows]) =>
  [...arrows]
    .filter(([to]) => {
      const [fromLayer, toLayer] = [layerOf(from), layerOf(to)];
      if (fromLayer === null || toLayer === null) return false;
      // A route area's module reaches into another area (app/routes itself holds the layout and the 404).
      if (fromLayer === 3 && toLayer === 3) return from !== "app/routes" && to !== "app/routes";
      return toLayer > fromLayer;
    })
    .map(([to, imports]) => `${from} → ${to} (${imports.join("; ")})`),
);

if (cycles.length > 0 || loops.length > 0 || crossings.length > 0) {
  for (const cycle of cycles) console.error(`import circle: ${cycle.map((file) => relative(root, file)).join(" → ")}`);
  for (const loop of loops) console.error(`folders in a loop: ${loop}`);
  for (const crossing of crossings) console.error(`import against routes → components → lib: ${crossing}`);
  process.exit(1);
}
console.log(`No import circle among ${graph.size} modules, and no loop among ${folderImports.size} folders.`);
