// The README and the guides in docs/ name files, functions and triggers of the project; code moves, and a
// guide that names something no longer there sends the next reader nowhere. So every path they cite must
// exist, every name of code they cite must be in the code, every link between them must land, and every
// folder of app/lib has the README the architecture promises.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const guides = ["README.md", ...readdirSync(join(root, "docs")).map((name) => `docs/${name}`)].filter((file) => file.endsWith(".md"));
const text = (file: string) => readFileSync(join(root, file), "utf8");

// A path of the project as written in backticks: it starts at one of the project's own top folders or
// files, and names no placeholder (`{artist}/…`, `<timestamp>_<name>.sql`) or glob.
const topLevel = readdirSync(root).filter((name) => !["node_modules", "build", ".git", ".data"].includes(name));
const isProjectPath = (quoted: string) =>
  topLevel.some((name) => quoted === name || quoted.startsWith(`${name}/`)) && !/[<>{}*…$ ]/.test(quoted);

// A name of code as written in backticks: snake_case (SQL functions, triggers, tables, columns; `private.`
// or `()` aside) or camelCase (TypeScript). Anything else (commands, addresses, words) is not checked.
const isCodeName = (name: string) => /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(name) || /^[a-z]+[A-Z][A-Za-z0-9]*$/.test(name);
const sources = ["app", "workers", "scripts", "stand-ins", "supabase"].flatMap((folder) =>
  readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((path) => /\.(ts|tsx|sql|toml)$/.test(path) && !path.includes("node_modules"))
    .map((path) => join(folder, path)),
);
const namesInCode = new Set(
  [...sources, ...readdirSync(root).filter((name) => /\.(ts|toml)$/.test(name))].flatMap(
    (file) => text(file).match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [],
  ),
);

/** Where `#heading` leads: GitHub's anchor of each heading. */
const anchors = (markdown: string) =>
  new Set(
    [...markdown.matchAll(/^#+ (.+)$/gm)].map((found) =>
      found[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, "")
        .replace(/ /g, "-"),
    ),
  );

describe("the README and the guides", () => {
  it.each(guides)("%s names only paths that exist", (file) => {
    const quoted = [...text(file).matchAll(/`([^`\n]+)`/g)].map((found) => found[1]!.replace(/[/:]$/, ""));
    const missing = quoted.filter(isProjectPath).filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });

  it.each(guides)("%s names only functions, triggers and names the code has", (file) => {
    const names = [...text(file).matchAll(/`([^`\n]+)`/g)].map((found) =>
      found[1]!.replace(/^(private|public)\./, "").replace(/\(\)$/, ""),
    );
    expect(names.filter(isCodeName).filter((name) => !namesInCode.has(name))).toEqual([]);
  });

  it.each(guides)("%s links only to files and headings that exist", (file) => {
    const links = [...text(file).matchAll(/\]\(([^)\s]+)\)/g)].map((found) => found[1]!);
    const broken = links
      .filter((link) => !/^[a-z]+:/.test(link))
      .filter((link) => {
        const [path, heading] = link.split("#");
        const target = path ? join(dirname(file), path) : file;
        if (!existsSync(join(root, target))) return true;
        return heading !== undefined && target.endsWith(".md") && !anchors(text(target)).has(heading);
      });
    expect(broken).toEqual([]);
  });

  it.each(guides)("%s names only schema files that exist", (file) => {
    const schemaFiles = [...text(file).matchAll(/`(\d\d_[a-z_]+\.sql)`/g)].map((found) => found[1]!);
    expect(schemaFiles.filter((name) => !existsSync(join(root, "supabase", "schemas", name)))).toEqual([]);
  });

  it("place each function and trigger of a sale in the schema file that defines it", () => {
    const rows = [...text("docs/architecture.md").matchAll(/^\| `(\d\d_[a-z_]+\.sql)` \| (.+) \|$/gm)];
    expect(rows.length).toBeGreaterThan(10);
    const misplaced = rows.flatMap(([, file, names]) => {
      const sql = text(`supabase/schemas/${file}`);
      return [...names!.matchAll(/`([a-z_]+)`/g)]
        .map((found) => found[1]!)
        .filter((name) => !new RegExp(`(function (private|public)\\.${name}\\(|create trigger ${name}\\b)`).test(sql))
        .map((name) => `${name} in ${file}`);
    });
    expect(misplaced).toEqual([]);
  });

  it("keep the README a front door", () => {
    expect(text("README.md").split("\n").length).toBeLessThanOrEqual(300);
  });

  it("give every folder of app/lib a README", () => {
    const folders = readdirSync(join(root, "app", "lib"), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.filter((folder) => !existsSync(join(root, "app", "lib", folder.name, "README.md"))).map((f) => f.name)).toEqual([]);
  });
});
