// What the public catalog pages share: the shapes the page functions return (supabase/migrations
// *_catalog_pages.sql) and the small rules for showing them.
import { href } from "react-router";
import { formatCount } from "./format";
import type { ReleaseTrack } from "./schemas/catalog-data";

export type Release =
  | { kind: "album"; title: string; releaseDate: string; upcoming: boolean; artworkUrl: string | null; tracks: ReleaseTrack[] }
  | { kind: "single"; title: string; releaseDate: string; upcoming: boolean; artworkUrl: string | null; tracks: [ReleaseTrack] };

/**
 * An artist's tracks as releases: an album's tracks (same album title) become one card in track order,
 * every other track is a single. Releases keep the order of their newest track.
 */
export function groupReleases(tracks: ReleaseTrack[]): Release[] {
  const releases: Release[] = [];
  const albums = new Map<string, Extract<Release, { kind: "album" }>>();
  for (const track of tracks) {
    const albumTitle = track.type === "album" ? track.album_title?.trim() : undefined;
    if (!albumTitle) {
      releases.push({
        kind: "single",
        title: track.title,
        releaseDate: track.release_date,
        upcoming: track.upcoming,
        artworkUrl: track.artwork_small_url ?? track.artwork_url,
        tracks: [track],
      });
      continue;
    }
    let album = albums.get(albumTitle);
    if (!album) {
      album = {
        kind: "album",
        title: albumTitle,
        releaseDate: track.release_date,
        upcoming: track.upcoming,
        artworkUrl: track.artwork_small_url ?? track.artwork_url,
        tracks: [],
      };
      albums.set(albumTitle, album);
      releases.push(album);
    }
    album.tracks.push(track);
    album.artworkUrl ??= track.artwork_small_url ?? track.artwork_url;
  }
  for (const album of albums.values()) {
    album.tracks.sort((a, b) => (a.track_number ?? Number.MAX_SAFE_INTEGER) - (b.track_number ?? Number.MAX_SAFE_INTEGER));
  }
  return releases;
}

/** Only http(s) addresses ever become links: a stored `javascript:` or `data:` URL is never rendered as one. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

const socialSites = {
  twitter: { label: "Twitter", base: "https://twitter.com/", hosts: "twitter\\.com|x\\.com" },
  instagram: { label: "Instagram", base: "https://instagram.com/", hosts: "instagram\\.com" },
} as const;

export type SocialNetwork = keyof typeof socialSites;

// A handle, '@handle', or a profile address on the network's own site (its first path segment is the
// handle). The database's check (private.is_social_link) holds the same patterns.
const handlePattern = /^@?([A-Za-z0-9_.]{1,30})$/;
const profilePatterns = Object.fromEntries(
  Object.entries(socialSites).map(([network, site]) => [
    network,
    new RegExp(`^https?://(?:www\\.)?(?:${site.hosts})/@?([A-Za-z0-9_.]{1,30})(?:[/?#]\\S*)?$`, "i"),
  ]),
) as Record<SocialNetwork, RegExp>;

/**
 * A social link as `@handle` with its profile address. Artists may have stored a bare handle, an
 * `@handle` or a profile URL on that network; anything else is not a link of that network.
 */
export function socialProfile(
  network: SocialNetwork,
  value: string | null | undefined,
): { label: string; handle: string; href: string } | null {
  const site = socialSites[network];
  const typed = value?.trim() ?? "";
  const handle = (handlePattern.exec(typed) ?? profilePatterns[network].exec(typed))?.[1];
  if (!handle) return null;
  return { label: site.label, handle: `@${handle}`, href: `${site.base}${handle}` };
}

/** "1 follower", "12 followers". */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/** Ids in page addresses are UUIDs, checked the way the Edge Functions check them. */
export { idSchema, isUuid } from "../../supabase/functions/_shared/ids";

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
export const playlistPath = (id: string) => href("/playlist/:id", { id });
/** Your Playlists with the form to make one, and the track it will start with ("New playlist..."). */
export const newPlaylistPath = (trackId?: string) => `${href("/playlists")}${trackId ? `?add=${trackId}` : ""}#new-playlist`;
/** An artist's own page to edit one of their tracks. */
export const trackEditPath = (id: string) => href("/dashboard/artist/tracks/:id", { id });
/** A track's audio: a redirect to a freshly signed URL (a resource route). */
export const trackAudioPath = (id: string) => href("/track/:id/audio", { id });
/** A track's signed audio URL and stored waveform, as JSON for the site's player (a resource route). */
export const trackSourcePath = (id: string) => href("/track/:id/source", { id });
/** Where the player reports a play (a resource route). */
export const trackPlayPath = (id: string) => href("/track/:id/play", { id });
