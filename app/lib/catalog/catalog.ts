// What the public catalog pages share: the shapes the page functions return (supabase/migrations
// *_catalog_pages.sql) and the small rules for showing them.
import { href } from "react-router";
import { formatCount } from "../format";

/** "1 follower", "12 followers". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/** Ids in page addresses are UUIDs, checked the way the Edge Functions check them. */
export { isUuid } from "../../../supabase/functions/_shared/uuid";

/** A search term as a literal ILIKE pattern: the user's `%`, `_` and `\` match themselves. */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

// Pages with an id or a name in their address, built on React Router's typed href(): a renamed route
// fails the typecheck here. A genre's name is encoded whole (R&B → /genres/R%26B), which href() leaves
// as R&B, so its segment is added here.
export const genrePath = (genre: string) => `${href("/genres")}/${encodeURIComponent(genre)}`;
export const artistPath = (id: string) => href("/artist/:id", { id });
export const followPath = (artistId: string) => href("/artist/:id/follow", { id: artistId });
export const fanPath = (id: string) => href("/fan/:id", { id });
export const trackPath = (id: string) => href("/track/:id", { id });
export const albumPath = (id: string) => href("/album/:id", { id });
export const playlistPath = (id: string) => href("/playlist/:id", { id });
/** Your Playlists with the form to make one, and the track it will start with ("New playlist..."). */
export const newPlaylistPath = (trackId?: string) => `${href("/playlists")}${trackId ? `?add=${trackId}` : ""}#new-playlist`;
/** Your Playlists with a track to add: each playlist a button that adds it (the track menu's way without JavaScript). */
export const addToPlaylistPath = (trackId: string) => `${href("/playlists")}?add=${trackId}`;
/** An artist's own page to edit one of their tracks. */
export const trackEditPath = (id: string) => href("/dashboard/artist/tracks/:id", { id });
/** A track's audio: a redirect to a freshly signed URL (a resource route). */
export const trackAudioPath = (id: string) => href("/track/:id/audio", { id });
/** A track's signed audio URL and stored waveform, as JSON for the site's player (a resource route). */
export const trackSourcePath = (id: string) => href("/track/:id/source", { id });
/** Where the player reports a play (a resource route). */
export const trackPlayPath = (id: string) => href("/track/:id/play", { id });
