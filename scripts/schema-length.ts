// `npm run lint` runs this: every schema file (supabase/schemas/*.sql) stays at most 500 lines, the size
// the schema was split by area for, so one area never again hides another's rules. A file past it is
// split by stage (supabase/schemas/README.md names each file), not trimmed of its comments.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const maxLines = 500;
const schemas = join(import.meta.dirname, "..", "supabase", "schemas");

const tooLong = readdirSync(schemas)
  .filter((name) => name.endsWith(".sql"))
  .map((name) => ({ name, lines: readFileSync(join(schemas, name), "utf8").split("\n").length - 1 }))
  .filter(({ lines }) => lines > maxLines);

for (const { name, lines } of tooLong) {
  console.error(`supabase/schemas/${name}: ${lines} lines, over the ${maxLines} a schema file may hold: split it by stage.`);
}
if (tooLong.length > 0) process.exit(1);
