import { json, type Stack } from "../context.ts";
import { asCaller, caller, jsonBody, noSuchKey, type ObjectRow, storageError, type Target } from "./shared.ts";
import { filesOf } from "./files.ts";

export async function removeMany(req: Request, stack: Stack, bucket: string | undefined): Promise<Response> {
  const prefixes = nonEmptyStrings((await jsonBody<{ prefixes?: unknown }>(req)).prefixes, "prefixes");
  const deleted = await asCaller(stack, caller(req, stack), async (tx) => {
    const result = await tx.query<{ objects: ObjectRow[] }>(
      `with deleted as (delete from storage.objects where bucket_id = $1 and name = any($2) returning *)
       select coalesce(json_agg(deleted), '[]') as objects from deleted`,
      [bucket, prefixes],
    );
    return result.rows[0].objects;
  });
  await Promise.all(deleted.map((row) => filesOf(stack).remove(row.bucket_id, row.name)));
  return json(deleted);
}

export async function removeOne(req: Request, stack: Stack, object: Target): Promise<Response> {
  const removed = await asCaller(stack, caller(req, stack), (tx) =>
    tx.query("delete from storage.objects where bucket_id = $1 and name = $2 returning id", [object.bucket, object.name]),
  );
  if (removed.rows.length === 0) throw noSuchKey();
  await filesOf(stack).remove(object.bucket, object.name);
  return json({ message: "Successfully deleted" });
}

const sortColumns = new Set(["name", "created_at", "updated_at", "last_accessed_at"]);

// Storage's `storage.search`: the entries one level below the prefix, folders (with null fields) first,
// filtered by what the caller may select.
export async function listObjects(req: Request, stack: Stack, bucket: string | undefined): Promise<Response> {
  const body = await jsonBody<{
    prefix?: unknown;
    limit?: unknown;
    offset?: unknown;
    search?: unknown;
    sortBy?: { column?: unknown; order?: unknown };
  }>(req);
  let prefix = typeof body.prefix === "string" ? body.prefix : "";
  // A prefix always names a folder.
  if (prefix.length > 0 && !prefix.endsWith("/")) prefix += "/";
  const level = prefix.split("/").length;
  const column = sortColumns.has(String(body.sortBy?.column)) ? String(body.sortBy?.column) : "name";
  const order = body.sortBy?.order === "desc" ? "desc" : "asc";
  const limit = Number.isInteger(body.limit) ? Number(body.limit) : 100;
  const offset = Number.isInteger(body.offset) ? Number(body.offset) : 0;
  const search = typeof body.search === "string" ? body.search : "";

  const listed = await asCaller(
    stack,
    caller(req, stack),
    (tx) =>
      tx.query<{ entries: unknown[] }>(
        `with matching as (
           select *, string_to_array(name, '/') as tokens from storage.objects
           where bucket_id = $1 and name ilike $2 || $3 || '%'
         ),
         folders as (
           select tokens[$4] as folder from matching where array_length(tokens, 1) <> $4 group by folder
         ),
         entries as (
           (select folder as name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
                   null::timestamptz as last_accessed_at, null::jsonb as metadata
            from folders order by folder ${order})
           union all
           (select tokens[$4], id, updated_at, created_at, last_accessed_at, metadata
            from matching where array_length(tokens, 1) = $4 order by ${column} ${order})
           limit $5 offset $6
         )
         select coalesce(json_agg(entries), '[]') as entries from entries`,
        [bucket, escapeLike(prefix), escapeLike(search), level, limit, offset],
      ),
    { readOnly: true },
  );
  return json(listed.rows[0].entries);
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function nonEmptyStrings(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => typeof item === "string")) {
    throw storageError(400, "InvalidRequest", `body/${field} must be a non-empty array of strings`);
  }
  return value;
}
