import { albumPath, artistPath, fanPath, playlistPath, trackPath } from "../catalog/catalog";
import { brandName } from "../constants";
import { safeHttpUrl, socialProfile } from "../catalog/artist-profile";
import type { PlaylistPage } from "../schemas/playlists";
import type { AlbumPage, ArtistPageData, ArtistRelease, TrackPage } from "../schemas/catalog-data";

// The schema.org descriptions (JSON-LD) of the public pages, so search engines know a track, a release,
// an artist and a playlist for what they are. Prices are in US dollars, as every price on the site.

/** A schema.org description, as JSON-LD carries it. */
type StructuredData = Record<string, unknown>;

const address = (origin: string, path: string) => new URL(path, origin).href;
const absolute = (origin: string, url: string | null) => (url ? new URL(url, origin).href : undefined);

/** An artist, by the same `@id` as their own page's node, so every node that names them links to it. */
function musicGroup(origin: string, artist: { id: string; artist_name: string }) {
  const url = address(origin, artistPath(artist.id));
  return { "@type": "MusicGroup", "@id": url, name: artist.artist_name, url };
}

/** The site itself, which every page is part of. */
const websiteId = (origin: string) => address(origin, "/#website");

/** The home page: the site, and how to search it (the directory's search). */
export function websiteData(origin: string, description: string): StructuredData {
  return {
    "@type": "WebSite",
    "@id": websiteId(origin),
    url: address(origin, "/"),
    name: brandName,
    description,
    inLanguage: "en",
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: address(origin, "/discover?q={search_term_string}") },
      "query-input": "required name=search_term_string",
    },
  };
}

/** A fan's page: a profile page about a person, part of the site. */
export function fanData(
  origin: string,
  fan: { id: string; username: string; bio: string | null; profile_image_url: string | null },
): StructuredData {
  const url = address(origin, fanPath(fan.id));
  return {
    "@type": "ProfilePage",
    "@id": url,
    url,
    isPartOf: { "@id": websiteId(origin) },
    mainEntity: {
      "@type": "Person",
      "@id": `${url}#person`,
      name: fan.username,
      url,
      ...(fan.bio ? { description: fan.bio } : {}),
      ...(fan.profile_image_url ? { image: absolute(origin, fan.profile_image_url) } : {}),
    },
  };
}

/** A track page: the recording, its artist, its album, when it came out, and what it costs. */
export function recordingData(origin: string, track: TrackPage): StructuredData {
  const url = address(origin, trackPath(track.id));
  const byArtist = musicGroup(origin, track.artist);
  return {
    "@type": "MusicRecording",
    "@id": url,
    url,
    name: track.title,
    ...(track.description ? { description: track.description } : {}),
    byArtist,
    ...(track.duration_seconds ? { duration: isoDuration(track.duration_seconds) } : {}),
    ...(track.release.kind === "album"
      ? { inAlbum: { "@type": "MusicAlbum", "@id": address(origin, albumPath(track.release.id)), name: track.release.title, byArtist } }
      : {}),
    ...(track.genre ? { genre: track.genre } : {}),
    datePublished: track.release_date,
    ...(track.artwork_url ? { image: absolute(origin, track.artwork_url) } : {}),
    offers: { "@type": "Offer", url, price: track.price.toFixed(2), priceCurrency: "USD", availability: "https://schema.org/InStock" },
  };
}

/**
 * An artist page: the artist (with their website and social profiles as `sameAs`) and the releases the
 * page lists (its `releases`, each with its tracks), each album a `MusicAlbum` with its tracks.
 */
export function artistData(origin: string, artist: ArtistPageData): StructuredData {
  const url = address(origin, artistPath(artist.id));
  const byArtist = { "@type": "MusicGroup", "@id": url, name: artist.artist_name, url };
  const sameAs = [
    safeHttpUrl(artist.website),
    socialProfile("twitter", artist.social_links.twitter)?.href,
    socialProfile("instagram", artist.social_links.instagram)?.href,
  ].filter((link): link is string => Boolean(link));
  const released = artist.releases.filter((release) => !release.upcoming);
  const recording = (track: ArtistRelease["tracks"][number]) => ({
    "@type": "MusicRecording",
    name: track.title,
    url: address(origin, trackPath(track.id)),
    ...(track.duration_seconds ? { duration: isoDuration(track.duration_seconds) } : {}),
  });
  return {
    "@type": "MusicGroup",
    "@id": url,
    url,
    name: artist.artist_name,
    ...(artist.short_description ? { description: artist.short_description } : {}),
    ...(artist.profile_image_url ? { image: absolute(origin, artist.profile_image_url) } : {}),
    ...(artist.genres.length ? { genre: artist.genres } : {}),
    ...(sameAs.length ? { sameAs } : {}),
    album: released
      .filter((release) => release.kind === "album")
      .map((album) => ({
        "@type": "MusicAlbum",
        "@id": address(origin, albumPath(album.id)),
        url: address(origin, albumPath(album.id)),
        name: album.title,
        byArtist,
        datePublished: album.release_date,
        ...(album.artwork_url ? { image: absolute(origin, album.artwork_url) } : {}),
        numTracks: album.tracks.length,
        track: album.tracks.map(recording),
      })),
    track: released.filter((release) => release.kind === "single").map((single) => recording(single.tracks[0])),
  };
}

/** An album page: the album, its artist, its tracks in order, when it came out, and what it costs whole. */
export function albumData(origin: string, album: AlbumPage): StructuredData {
  const url = address(origin, albumPath(album.id));
  const byArtist = musicGroup(origin, album.artist);
  return {
    "@type": "MusicAlbum",
    "@id": url,
    url,
    name: album.title,
    ...(album.description ? { description: album.description } : {}),
    byArtist,
    albumProductionType: "https://schema.org/StudioAlbum",
    albumReleaseType: "https://schema.org/AlbumRelease",
    genre: album.genre,
    datePublished: album.release_date,
    ...(album.artwork_url ? { image: absolute(origin, album.artwork_url) } : {}),
    numTracks: album.tracks.length,
    track: album.tracks.map((track) => ({
      "@type": "MusicRecording",
      "@id": address(origin, trackPath(track.id)),
      url: address(origin, trackPath(track.id)),
      name: track.title,
      byArtist,
      ...(track.duration_seconds ? { duration: isoDuration(track.duration_seconds) } : {}),
    })),
    offers: { "@type": "Offer", url, price: album.price.toFixed(2), priceCurrency: "USD", availability: "https://schema.org/InStock" },
  };
}

/** A public playlist: its name, who made it, and its tracks in order (those given, a page of `trackCount`). */
export function playlistData(
  origin: string,
  playlist: PlaylistPage,
  ownerPath: string,
  trackCount = playlist.tracks.length,
): StructuredData {
  const url = address(origin, playlistPath(playlist.id));
  return {
    "@type": "MusicPlaylist",
    "@id": url,
    url,
    name: playlist.name,
    ...(playlist.description ? { description: playlist.description } : {}),
    author: { "@type": playlist.owner_is_artist ? "MusicGroup" : "Person", name: playlist.owner_name, url: address(origin, ownerPath) },
    numTracks: trackCount,
    track: playlist.tracks.map((track) => ({
      "@type": "MusicRecording",
      name: track.title,
      url: address(origin, trackPath(track.id)),
      byArtist: musicGroup(origin, track.artist),
      ...(track.duration_seconds ? { duration: isoDuration(track.duration_seconds) } : {}),
    })),
  };
}

/** A length in seconds as ISO 8601 (`PT3M25S`), as schema.org's `duration` wants it. */
export function isoDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  return `PT${minutes ? `${minutes}M` : ""}${whole % 60}S`;
}
