// Removes the files the upload form stored ahead of publishing that no release ever used (the artist
// left the form): audio and artwork renditions older than a day that no track or merch item names, as
// public.unpublished_uploads() lists them. Meant to run on a schedule (daily, with the service role:
// on Supabase, a pg_cron job calling it through pg_net); nobody else may call it.
//
// POST → 200 { removed } or 401 { code: "unauthorized" }, 502 { code: "storage_error" }.
import { createClient } from "@supabase/supabase-js";

const serviceRoleKey = Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!;
const service = createClient(Deno.env.get("SUPABASE_URL")!, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });

/** Storage removes at most this many objects per request. */
const batchSize = 100;

Deno.serve(async (req) => {
  if (req.headers.get("Authorization") !== `Bearer ${serviceRoleKey}`) return Response.json({ code: "unauthorized" }, { status: 401 });
  const { data, error } = await service.rpc("unpublished_uploads");
  if (error) {
    console.error("listing unpublished uploads failed", error);
    return Response.json({ code: "storage_error" }, { status: 502 });
  }
  let removed = 0;
  for (const bucket of ["tracks", "artwork"]) {
    const names = data
      .filter((object: { bucket_id: string }) => object.bucket_id === bucket)
      .map((object: { name: string }) => object.name);
    for (let start = 0; start < names.length; start += batchSize) {
      const { data: gone, error: removeError } = await service.storage.from(bucket).remove(names.slice(start, start + batchSize));
      if (removeError) {
        console.error("removing unpublished uploads failed", bucket, removeError);
        return Response.json({ code: "storage_error", removed }, { status: 502 });
      }
      removed += gone.length;
    }
  }
  return Response.json({ removed });
});
