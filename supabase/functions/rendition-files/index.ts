// The files of one streaming-rendition job, for the Worker's rendition queue, which holds no service-role
// key: a signed URL to read the track's master (the queue reads it in Range pieces) and a signed upload
// URL for its rendition, stored beside it in the artist's `renditions/` folder. Only the marketplace is
// answered, and the database decides that: the job is read through rendition_job() with the request's
// X-Marketplace-Secret forwarded as it came, which refuses any request without the registered secret.
//
// POST { trackId, format } (format: the rendition file's ending, such as ".128k.mp3")
// → 200 { job: null } when the track is gone or has no audio (nothing to do);
// → 200 { job: { artistId, masterPath, masterUrl, renditionPath, uploadUrl, done } } (masterUrl null when
//   the master is missing from Storage), `done` when the
//   track already streams this very rendition (a second run of the job changes nothing);
// → 403 { code: "not_the_marketplace" }, 400 { code: "invalid_request" }, 405, 502 { code: "storage_error" }.
import { isUuid } from "../_shared/ids.ts";
import { clientWith, failure, service } from "../_shared/project.ts";
import { isMissingObject } from "../_shared/storage-errors.ts";

const masterUrlLifetimeSeconds = 3600;

/** `.128k.mp3`: a short ending of letters, digits and dots. */
const isFormat = (value: unknown): value is string => typeof value === "string" && /^\.[a-z0-9.]{1,20}$/.test(value);

Deno.serve(async (req) => {
  if (req.method !== "POST") return failure(405, "method_not_allowed");
  const body = await req.json().catch(() => null);
  if (!isUuid(body?.trackId) || !isFormat(body?.format)) return failure(400, "invalid_request");

  const marketplace = clientWith({ "X-Marketplace-Secret": req.headers.get("X-Marketplace-Secret") ?? "" });
  const { data: jobs, error } = await marketplace.rpc("rendition_job", { track_id: body.trackId });
  if (error) {
    if (error.code === "28000") return failure(403, "not_the_marketplace");
    console.error("reading a rendition job failed", error);
    return failure(502, "storage_error");
  }
  const job = jobs?.[0];
  if (!job?.master_path) return Response.json({ job: null });

  // {artist}/{name}.{ext} → {artist}/renditions/{name}{format}: one rendition per master and format, so a
  // job run twice (or killed half way and run again) writes the same object.
  const masterName = job.master_path
    .split("/")
    .pop()!
    .replace(/\.[^.]*$/, "");
  const renditionPath = `${job.artist_id}/renditions/${masterName}${body.format}`;
  const done = job.rendition_path === renditionPath && job.rendition_state === "ready";

  const bucket = service.storage.from("tracks");
  const [master, upload] = await Promise.all([
    bucket.createSignedUrl(job.master_path, masterUrlLifetimeSeconds),
    done ? null : bucket.createSignedUploadUrl(renditionPath, { upsert: true }),
  ]);
  // A master missing from Storage is the job's to report (its artist sees why), not this function's failure.
  const masterMissing = master.error && isMissingObject(master.error);
  if ((master.error && !masterMissing) || upload?.error) {
    console.error("signing a rendition job's files failed", master.error ?? upload?.error);
    return failure(502, "storage_error");
  }
  return Response.json({
    job: {
      artistId: job.artist_id,
      masterPath: job.master_path,
      masterUrl: master.data?.signedUrl ?? null,
      renditionPath,
      uploadUrl: upload?.data.signedUrl ?? null,
      done,
    },
  });
});
