// A signed URL for a track's audio, so a listener can stream a file of the private `tracks` bucket.
//
// What may be streamed is asked of the database as the caller (their JWT forwarded, or the anon key for a
// visitor): track_stream() answers through the tracks policies (released, or the caller's own) with the
// track's streaming rendition once it is made, its master only to its own artist (who hears it while the
// rendition is prepared), and nothing to anyone else until then. So the master, the file the store
// sells, is never signed for a listener. Only after that does the service role sign the URL; listeners
// can never read the bucket's objects themselves. The service role signs whatever path it is given, so
// the path must lie in the track's artist's own folder: the database holds tracks to that, and it is
// checked again here before signing.
//
// POST { trackId } → 200 { signedUrl, expiresIn } or an error { code } that the app turns into the
// spec's message: track_not_found (404), no_audio_file (404), audio_preparing (409: the rendition is
// being made), audio_unavailable (503: making it failed), audio_file_missing (404), storage_error (502), no_signed_url (502), invalid_request (400),
// method_not_allowed (405).
import { isUuid } from "../_shared/uuid.ts";
import { callerClient, failure, service } from "../_shared/project.ts";
import { isMissingObject } from "../_shared/storage-errors.ts";

const signedUrlLifetimeSeconds = 3600;

/** `{artist id}/name(/name...)`: no `.` or `..` segment, nothing a URL would read as something else. */
function inArtistFolder(path: string, artistId: string): boolean {
  const [folder, ...names] = path.split("/");
  const plainName = (name: string) => name !== "" && name !== "." && name !== ".." && !/[\\?#%\s\p{Cc}]/u.test(name);
  return folder === artistId && names.length > 0 && names.every(plainName);
}

Deno.serve(async (req) => {
  if (req.method !== "POST") return failure(405, "method_not_allowed");
  const body = await req.json().catch(() => null);
  const trackId = body?.trackId;
  if (!isUuid(trackId)) return failure(400, "invalid_request");

  const caller = callerClient(req);
  const { data: streams, error: lookupError } = await caller.rpc("track_stream", { track_id: trackId });
  if (lookupError) {
    console.error("track lookup failed", lookupError);
    return failure(502, "storage_error");
  }
  const track = streams?.[0];
  if (!track) return failure(404, "track_not_found");
  if (!track.has_audio) return failure(404, "no_audio_file");
  // No stream yet: on its way, or failed (its artist sees why and may retry; listeners are not told more).
  if (!track.path) return track.preparing ? failure(409, "audio_preparing") : failure(503, "audio_unavailable");
  if (!inArtistFolder(track.path, track.artist_id)) {
    // Another user's object: never signed. Listeners see the file as unavailable; the log says why.
    console.error("refusing to sign an audio path outside its artist folder", trackId);
    return failure(404, "audio_file_missing");
  }

  const { data, error } = await service.storage.from("tracks").createSignedUrl(track.path, signedUrlLifetimeSeconds);
  if (error) {
    if (isMissingObject(error)) return failure(404, "audio_file_missing");
    console.error("signing the audio URL failed", error);
    return failure(502, "storage_error");
  }
  if (!data?.signedUrl) return failure(502, "no_signed_url");
  return Response.json({ signedUrl: data.signedUrl, expiresIn: signedUrlLifetimeSeconds });
});
