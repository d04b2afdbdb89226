// The daily sweep of Storage. Meant to run on a schedule (daily, with the service role: on Supabase, a
// pg_cron job calling it through pg_net); nobody else may call it.
// - Files the upload form stored ahead of publishing that no release ever used (the artist left the
//   form): audio and artwork renditions older than a day that no track or merch item names, as
//   public.unpublished_uploads() lists them.
// - Files whose bytes are not the type declared for them: Storage checks only the declared type, so a
//   file sent straight to it (not through the Worker, which checks first bytes) may be anything. Each
//   audio and image file stored in the last two days (public.recent_uploads()) has its first bytes read.
//
// POST → 200 { removed, disguised } or 401 { code: "unauthorized" }, 502 { code: "storage_error" }.
import { bytesMatch, sniffLength } from "../_shared/file-types.ts";
import { failure, service, serviceRoleKey, supabaseUrl } from "../_shared/project.ts";

type StoredFile = { bucket_id: string; name: string; mimetype: string | null };

/** How many files' first bytes are read at once. */
const readsAtOnce = 8;

/** Storage removes at most this many objects per request. */
const batchSize = 100;

Deno.serve(async (req) => {
  if (req.headers.get("Authorization") !== `Bearer ${serviceRoleKey}`) return failure(401, "unauthorized");
  const { data, error } = await service.rpc("unpublished_uploads");
  if (error) {
    console.error("listing unpublished uploads failed", error);
    return failure(502, "storage_error");
  }
  const recent = await service.rpc("recent_uploads");
  if (recent.error) {
    console.error("listing recent uploads failed", recent.error);
    return failure(502, "storage_error");
  }
  const disguised = await disguisedFiles(recent.data);
  let removed = 0;
  for (const files of [data as StoredFile[], disguised]) {
    try {
      removed += await removeAll(files);
    } catch (removeError) {
      console.error("removing swept files failed", removeError);
      return Response.json({ code: "storage_error", removed }, { status: 502 });
    }
  }
  return Response.json({ removed, disguised: disguised.length });
});

async function removeAll(files: StoredFile[]): Promise<number> {
  let removed = 0;
  for (const bucket of ["tracks", "artwork"]) {
    const names = files.filter((file) => file.bucket_id === bucket).map((file) => file.name);
    for (let start = 0; start < names.length; start += batchSize) {
      const { data: gone, error } = await service.storage.from(bucket).remove(names.slice(start, start + batchSize));
      if (error) throw error;
      removed += gone.length;
    }
  }
  return removed;
}

/** The files whose first bytes are not of their declared type (a file that cannot be read now is left for the next run). */
async function disguisedFiles(files: StoredFile[]): Promise<StoredFile[]> {
  const disguised: StoredFile[] = [];
  for (let start = 0; start < files.length; start += readsAtOnce) {
    const batch = files.slice(start, start + readsAtOnce);
    const heads = await Promise.all(batch.map(firstBytes));
    batch.forEach((file, index) => {
      const head = heads[index];
      if (head && !bytesMatch(head, file.mimetype ?? "")) disguised.push(file);
    });
  }
  return disguised;
}

async function firstBytes(file: StoredFile): Promise<Uint8Array | null> {
  const path = file.name.split("/").map(encodeURIComponent).join("/");
  const response = await fetch(`${supabaseUrl}/storage/v1/object/authenticated/${file.bucket_id}/${path}`, {
    headers: { Authorization: `Bearer ${serviceRoleKey}`, apikey: serviceRoleKey, Range: `bytes=0-${sniffLength - 1}` },
  });
  if (!response.ok) {
    console.error("reading a stored file's first bytes failed", file.bucket_id, file.name, response.status);
    await response.body?.cancel();
    return null;
  }
  return new Uint8Array(await response.arrayBuffer()).subarray(0, sniffLength);
}
