// The playlist page's action: its owner's changes (playlist.tsx calls it).
import { data, href, redirect, type RouterContextProvider } from "react-router";
import { read, refusedWrite } from "~/lib/backend/backend.server";
import { sqlState } from "~/lib/backend/sqlstate";
import { addTrackToPlaylist } from "~/lib/catalog/playlists.server";
import { readForm } from "~/lib/forms/form-body.server";
import { formError, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { forgetCached, playlistChanged } from "~/lib/cache/edge-cache.server";
import { DeletePlaylistSchema, MoveTrackSchema, PlaylistNameSchema, PlaylistSchema, PlaylistTrackSchema } from "~/lib/schemas/playlists";
import { requireUser } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";

/**
 * The owner's changes: add a track (the track menus post here), remove or move one, edit the details,
 * delete the playlist. Row-level security lets only the owner write; a refusal is answered in words.
 */
export async function changePlaylist(request: Request, context: Readonly<RouterContextProvider>, playlistId: string) {
  const user = requireUser(request, context);
  const supabase = context.get(supabaseContext);
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const changed = () => forgetCached(request, context, playlistChanged(playlistId, user.id));
  // Each reply names its intent, so the page shows it beside the form that sent it.
  const refuse = (message: string, status: number) => replyWith(formError(message, { intent: String(intent) }), status);
  const done = (notice: string) => data<FormReply>({ fieldErrors: {}, formError: null, values: { intent: String(intent) }, notice });

  if (intent === "add") {
    const submission = parseForm(PlaylistTrackSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const owned = read(await supabase.from("playlists").select("id, name").eq("id", playlistId).eq("owner_id", user.id).maybeSingle(), {
      what: "playlist to add to",
      schema: PlaylistNameSchema,
    });
    if (owned.status === "failed") return refuse(owned.message, 503);
    if (owned.status === "empty") return refuse("You can only add tracks to your own playlists", 403);
    const playlist = owned.data;
    const refused = await addTrackToPlaylist(supabase, playlist, submission.value.trackId, submission.values);
    if (refused) return refused;
    await changed();
    return done(`Added to ${playlist.name}`);
  }

  if (intent === "remove") {
    const submission = parseForm(PlaylistTrackSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { data: removed, error } = await supabase
      .from("playlist_tracks")
      .delete()
      .eq("playlist_id", playlistId)
      .eq("track_id", submission.value.trackId)
      .select("track_id");
    if (error) return refusedWrite(error, { what: "removing a track from a playlist", values: submission.values });
    if (removed.length === 0) {
      // Nothing went: someone else's playlist (row-level security), or the track left it already.
      const { data: mine } = await supabase.from("playlists").select("id").eq("id", playlistId).eq("owner_id", user.id).maybeSingle();
      return mine ? refuse("This track is no longer in this playlist", 404) : refuse("You can only change your own playlists", 403);
    }
    await changed();
    return done("Removed from this playlist");
  }

  if (intent === "move") {
    const submission = parseForm(MoveTrackSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { trackId, to } = submission.value;
    const { error } = await supabase.rpc("move_playlist_track", { playlist_id: playlistId, track_id: trackId, to_position: to });
    if (error?.code === sqlState.noDataFound) return refuse("This track is no longer in this playlist", 404);
    if (error) return refusedWrite(error, { what: "moving a track of a playlist", values: submission.values });
    await changed();
    return done(`Moved to position ${to}`);
  }

  if (intent === "delete") {
    const submission = parseForm(DeletePlaylistSchema, formData);
    if (!submission.success) return replyWith(submission.reply, 400);
    const { data: deleted, error } = await supabase.from("playlists").delete().eq("id", playlistId).select("id");
    if (error) return refusedWrite(error, { what: "deleting a playlist", values: submission.values });
    if (deleted.length === 0) return replyWith(formError("You can only delete your own playlists", submission.values), 403);
    await changed();
    throw redirect(href("/playlists"));
  }

  const submission = parseForm(PlaylistSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const { name, description, visibility } = submission.value;
  const { data: saved, error } = await supabase
    .from("playlists")
    .update({ name, description, is_public: visibility === "public" })
    .eq("id", playlistId)
    .select("id");
  if (error) {
    return refusedWrite(error, {
      what: "saving a playlist",
      values: submission.values,
      fields: { name: "name", description: "description" },
    });
  }
  if (saved.length === 0) return replyWith(formError("You can only change your own playlists", submission.values), 403);
  await changed();
  return data<FormReply>({ fieldErrors: {}, formError: null, values: submission.values, notice: "Playlist saved" });
}
