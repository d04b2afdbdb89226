import * as v from "valibot";
import { playlistLimits } from "~/lib/constants";
import { count, nullableText, pixels } from "./columns";
import { idSchema, optionalText, requiredText } from "./text";

// Playlists: their forms (one schema each) and what their reads answer (supabase/schemas/11_playlists.sql).

/** Create and edit: a name of 1-100 characters, an optional description, public or private. */
export const PlaylistSchema = v.object({
  name: requiredText("Playlist name is required", playlistLimits.name, "Playlist name"),
  description: optionalText(playlistLimits.description, "Description"),
  visibility: v.optional(v.picklist(["public", "private"], "Please choose public or private"), "private"),
  /** A track to add once made ("New playlist..." from a track's menu). */
  trackId: v.optional(v.union([v.literal(""), idSchema("Track not found")]), ""),
});

/** Add a track, remove one, or move one up or down (the playlist page's and the track menus' buttons). */
export const PlaylistTrackSchema = v.object({
  trackId: idSchema("Track not found"),
});

export const MoveTrackSchema = v.object({
  trackId: idSchema("Track not found"),
  /** 1 is first. */
  to: v.pipe(v.string(), v.transform(Number), v.integer("Invalid position"), v.minValue(1, "Invalid position")),
});

/** Delete, once the box saying so is ticked. */
export const DeletePlaylistSchema = v.object({
  confirm: v.pipe(
    v.optional(v.string(), ""),
    v.check((value) => value === "on", "Tick the box to confirm you want to delete this playlist"),
  ),
});

/** The sidebar's and the track menus' list of the user's playlists. */
export const PlaylistNameSchema = v.object({ id: v.string(), name: v.string() });
export const PlaylistNamesSchema = v.array(PlaylistNameSchema);
export type PlaylistName = v.InferOutput<typeof PlaylistNamesSchema>[number];

/** `my_playlists()`: Your Playlists. */
export const YourPlaylistsSchema = v.array(
  v.object({
    id: v.string(),
    name: v.string(),
    description: nullableText,
    is_public: v.boolean(),
    track_count: count,
    artwork: v.array(nullableText),
  }),
);

/** `playlist_page()`: a playlist, its owner and the tracks the reader may see, in order. */
export const PlaylistPageSchema = v.object({
  id: v.string(),
  name: v.string(),
  description: nullableText,
  is_public: v.boolean(),
  owner_id: v.string(),
  owner_name: v.string(),
  owner_is_artist: v.boolean(),
  /** The first track's stored waveform (the embed shows it before anything plays). */
  first_peaks: v.optional(v.nullable(v.array(v.number())), null),
  tracks: v.array(
    v.object({
      id: v.string(),
      title: v.string(),
      artwork_url: nullableText,
      artwork_small_url: nullableText,
      artwork_width: pixels,
      artwork_height: pixels,
      duration_seconds: v.nullable(v.number()),
      artist: v.object({ id: v.string(), artist_name: v.string() }),
    }),
  ),
});
export type PlaylistPage = v.InferOutput<typeof PlaylistPageSchema>;
