import { refusedWrite } from "../backend/backend.server";
import { formError, replyWith, type FormValues } from "../forms/forms";
import { playlistLimits } from "../constants";
import type { SupabaseClient } from "../backend/supabase.server";
import { sqlState } from "../backend/sqlstate";

/**
 * Adds a track to one of the user's playlists (the track menus, and a playlist made for a track). Row-level
 * security decides what may go in (the owner's own playlist; a track the owner may see); a refusal
 * comes back as the form's reply, in the spec's words, naming the playlist.
 */
export async function addTrackToPlaylist(
  supabase: SupabaseClient,
  playlist: { id: string; name: string },
  trackId: string,
  values: FormValues,
) {
  const { error } = await supabase.from("playlist_tracks").insert({ playlist_id: playlist.id, track_id: trackId });
  if (!error) return null;
  if (error.code === sqlState.uniqueViolation) return replyWith(formError(`This track is already in ${playlist.name}`, values), 409);
  if (error.code === sqlState.limitReached)
    return replyWith(formError(`A playlist holds at most ${playlistLimits.tracks} tracks`, values), 409);
  return refusedWrite(error, { what: "adding a track to a playlist", values });
}
