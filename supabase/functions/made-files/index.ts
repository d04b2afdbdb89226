// The files of one made-file job (a track's stream or one of its download formats), for the media Worker,
// which holds no service-role key: a signed URL to read the track's master (the job reads it in Range
// pieces), a signed upload URL for the file it makes, stored beside it in the artist's `renditions/` folder,
// and what a download's tags say. Only the marketplace is answered, and the database decides that: the job
// is read through made_file_job() with the request's X-Marketplace-Secret forwarded as it came, which
// refuses any request without the registered secret.
//
// POST { trackId, format } (format: a made format's name, such as "stream" or "flac")
// → 200 { job: null } when the track is gone or has no audio, or nobody asked for the format (nothing to do);
// → 200 { job: { artistId, masterPath, masterUrl, path, uploadUrl, framesUploadUrl, done, kbps, tags } }
//   (masterUrl null when the master is missing from Storage), `done` when the file is made already, with its
//   checksums (a second run of the job changes nothing), `kbps` an MP3 download's bitrate as its master
//   warrants, `framesUploadUrl` where an MP3's frames go first (null for other formats);
// POST { trackId, format, frames: "read" | "remove" } → 200 { framesUrl } (a signed URL to read an MP3's
//   stored frames back, null when there are none) or { removed: true }, once its file is written whole;
// → 403 { code: "not_the_marketplace" }, 400 { code: "invalid_request" }, 405, 502 { code: "storage_error" }.
import { isUuid } from "../_shared/uuid.ts";
import { framesPath, isMadeFormat, isMp3Format, madeFilePath } from "../_shared/made-formats.ts";
import { clientWith, failure, service } from "../_shared/project.ts";
import { isMissingObject } from "../_shared/storage-errors.ts";

const masterUrlLifetimeSeconds = 3600;

Deno.serve(async (req) => {
  if (req.method !== "POST") return failure(405, "method_not_allowed");
  const body = await req.json().catch(() => null);
  if (!isUuid(body?.trackId) || !isMadeFormat(body?.format)) return failure(400, "invalid_request");
  const frames = body.frames;
  if (frames !== undefined && (!isMp3Format(body.format) || (frames !== "read" && frames !== "remove")))
    return failure(400, "invalid_request");

  const marketplace = clientWith({ "X-Marketplace-Secret": req.headers.get("X-Marketplace-Secret") ?? "" });
  const { data: jobs, error } = await marketplace.rpc("made_file_job", { track_id: body.trackId, format: body.format });
  if (error) {
    if (error.code === "28000") return failure(403, "not_the_marketplace");
    console.error("reading a made-file job failed", error);
    return failure(502, "storage_error");
  }
  const job = jobs?.[0];
  if (!job?.master_path) return Response.json({ job: null });

  const path = madeFilePath(job.artist_id, job.master_path, body.format);
  const done = job.path === path && job.state === "ready" && job.measured;

  const bucket = service.storage.from("tracks");
  if (frames === "read") {
    const { data, error } = await bucket.createSignedUrl(framesPath(path), masterUrlLifetimeSeconds);
    if (error && !isMissingObject(error)) return signingFailed(error);
    return Response.json({ framesUrl: data?.signedUrl ?? null });
  }
  if (frames === "remove") {
    const { error } = await bucket.remove([framesPath(path)]);
    if (error) return signingFailed(error);
    return Response.json({ removed: true });
  }

  const [master, upload, framesUpload] = await Promise.all([
    bucket.createSignedUrl(job.master_path, masterUrlLifetimeSeconds),
    done ? null : bucket.createSignedUploadUrl(path, { upsert: true }),
    done || !isMp3Format(body.format) ? null : bucket.createSignedUploadUrl(framesPath(path), { upsert: true }),
  ]);
  // A master missing from Storage is the job's to report (its artist sees why), not this function's failure.
  const masterMissing = master.error && isMissingObject(master.error);
  if (master.error && !masterMissing) return signingFailed(master.error);
  if (upload?.error || framesUpload?.error) return signingFailed(upload?.error ?? framesUpload?.error);
  return Response.json({
    job: {
      artistId: job.artist_id,
      masterPath: job.master_path,
      masterUrl: master.data?.signedUrl ?? null,
      path,
      uploadUrl: upload?.data.signedUrl ?? null,
      framesUploadUrl: framesUpload?.data.signedUrl ?? null,
      done,
      kbps: job.kbps,
      tags: {
        title: job.title,
        artist: job.artist_name,
        album: job.album_title,
        trackNumber: job.track_number,
        trackCount: job.track_count,
        genre: job.genre,
        year: job.year,
        artworkUrl: job.artwork_url,
      },
    },
  });
});

function signingFailed(error: unknown): Response {
  console.error("signing a made-file job's files failed", error);
  return failure(502, "storage_error");
}
