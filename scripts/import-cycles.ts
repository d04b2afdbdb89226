// `npm run lint` runs this: no import circle in app/, type imports and dynamic imports included. Each
// module's imports are read from its text (`import … from`, `export … from`, `import()`), resolved the
// way the build resolves them (relative paths, `~/` for app/, a folder's index), and the graph is
// searched for a cycle; each one found is printed as its chain of files.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const root = join(import.meta.dirname, "..");
const app = join(root, "app");

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) return entry === "+types" ? [] : sourceFiles(path);
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
for (const file of sourceFiles(app)) {
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

if (cycles.length > 0) {
  for (const cycle of cycles) console.error(`import circle: ${cycle.map((file) => relative(root, file)).join(" → ")}`);
  process.exit(1);
}
console.log(`No import circle among ${graph.size} modules of app/.`);
