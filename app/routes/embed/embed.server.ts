import * as v from "valibot";
import { read } from "~/lib/backend/backend.server";
import { albumPath, artistPath, fanPath, playlistPath, trackPath } from "~/lib/catalog/catalog";
import { PlaylistPageSchema } from "~/lib/schemas/playlists";
import { nullableText, numeric, pixels, ReleaseRowSchema } from "~/lib/schemas/columns";
import { imageSizeOf, type ImageSize } from "~/lib/media/image-size";
import { artistEmbedTracks, type EmbedKind } from "~/lib/sharing/embedding.server";
import type { CacheTag } from "~/lib/cache/edge-cache.server";
import type { SupabaseClient } from "~/lib/backend/supabase.server";

// What an embedded player shows: one track, an album, an artist's latest releases or a public
// playlist, read as a visitor (released tracks only, public playlists only), whoever's page frames it.

const embedKinds: readonly string[] = ["track", "album", "artist", "playlist"] satisfies EmbedKind[];
export const isEmbedKind = (kind: string): kind is EmbedKind => embedKinds.includes(kind);

export type EmbedTrack = {
  id: string;
  title: string;
  artistId: string;
  artistName: string;
  artworkUrl: string | null;
  duration: number | null;
  peaks: number[] | null;
};

export type Embed = {
  kind: EmbedKind;
  /** What the frame is of, and by whom (both link to their pages on Crate). */
  title: string;
  byline: { id: string; name: string; href: string };
  href: string;
  artworkUrl: string | null;
  /** The artwork's size, when known: oEmbed names it with the artwork as its thumbnail. */
  artworkSize: ImageSize | null;
  /** The artwork's small rendition (about 200 px), for a thumbnail within a consumer's maxwidth and maxheight. */
  artworkSmallUrl: string | null;
  tracks: EmbedTrack[];
  /** What its Buy buys (a track, or an album whole), where it is for sale: its page's purchase dialog and price. */
  buy: { href: string; price: number; currency: string } | null;
};

const trackColumns =
  "id, title, price, artwork_url, artwork_small_url, artwork_width, artwork_height, peaks, duration_seconds, " +
  "artist:artist_profiles(id, artist_name, currency)";

const EmbedTrackRowSchema = v.object({
  id: v.string(),
  title: v.string(),
  price: numeric,
  artwork_url: nullableText,
  artwork_small_url: nullableText,
  artwork_width: pixels,
  artwork_height: pixels,
  peaks: v.nullable(v.array(v.number())),
  duration_seconds: v.nullable(numeric),
  artist: v.object({ id: v.string(), artist_name: v.string(), currency: v.string() }),
});
type EmbedTrackRow = v.InferOutput<typeof EmbedTrackRowSchema>;

const ArtistEmbedSchema = v.object({
  id: v.string(),
  artist_name: v.string(),
  profile_image_url: nullableText,
  profile_image_width: pixels,
  profile_image_height: pixels,
});

const embedTrack = (row: EmbedTrackRow): EmbedTrack => ({
  id: row.id,
  title: row.title,
  artistId: row.artist.id,
  artistName: row.artist.artist_name,
  artworkUrl: row.artwork_url,
  duration: row.duration_seconds,
  peaks: row.peaks,
});

/**
 * What an embed (and its oEmbed answers) shows, for the edge cache: the thing itself and its owner, so a
 * change to either (a track withdrawn, a playlist made private, an account banned) drops every size and
 * theme of it at once.
 */
export function embedCacheTags(kind: EmbedKind, id: string, embed: Embed): CacheTag[] {
  const owner: CacheTag = `user:${embed.byline.id}`;
  // An artist's and an album's embeds change with their artist's tracks, which every track change drops.
  if (kind === "playlist") return [`playlist:${id}`, owner];
  return kind === "track" ? [`track:${id}`, owner] : [owner];
}

/** `failed`: the backend could not say; `missing`: nothing a visitor may play is there. */
type EmbedRead = { status: "found"; embed: Embed } | { status: "missing" } | { status: "failed" };

/** The embed's contents: one round trip (an album's old address, one of its tracks', takes two more). */
export async function readEmbed(supabase: SupabaseClient, kind: EmbedKind, id: string): Promise<EmbedRead> {
  if (kind === "playlist") {
    const found = read(await supabase.rpc("playlist_page", { playlist_id: id }), {
      what: "playlist embed",
      schema: v.nullable(PlaylistPageSchema),
    });
    if (found.status === "failed") return found;
    if (found.status === "empty" || !found.data || !found.data.is_public || found.data.tracks.length === 0) return { status: "missing" };
    const playlist = found.data;
    const cover = playlist.tracks.find((track) => track.artwork_url);
    return {
      status: "found",
      embed: {
        kind,
        title: playlist.name,
        byline: {
          id: playlist.owner_id,
          name: playlist.owner_name,
          href: playlist.owner_is_artist ? artistPath(playlist.owner_id) : fanPath(playlist.owner_id),
        },
        href: playlistPath(playlist.id),
        artworkUrl: cover?.artwork_url ?? null,
        artworkSize: imageSizeOf(cover?.artwork_width, cover?.artwork_height),
        artworkSmallUrl: cover?.artwork_small_url ?? null,
        tracks: playlist.tracks.map((track, index) => ({
          id: track.id,
          title: track.title,
          artistId: track.artist.id,
          artistName: track.artist.artist_name,
          artworkUrl: track.artwork_url,
          duration: track.duration_seconds,
          peaks: index === 0 ? playlist.first_peaks : null,
        })),
        buy: null,
      },
    };
  }

  if (kind === "artist") {
    // The artist and their latest released tracks, side by side (one round trip).
    const [profile, latest] = await Promise.all([
      supabase
        .from("artist_profiles")
        .select("id, artist_name, profile_image_url, profile_image_width, profile_image_height")
        .eq("id", id)
        .maybeSingle(),
      supabase
        .from("tracks")
        .select(trackColumns)
        .eq("artist_id", id)
        .order("release_date", { ascending: false })
        .order("track_number", { ascending: true })
        .limit(artistEmbedTracks),
    ]);
    const artist = read(profile, { what: "artist embed", schema: v.nullable(ArtistEmbedSchema) });
    const tracks = read(latest, { what: "artist embed's tracks", schema: v.array(EmbedTrackRowSchema) });
    if (artist.status === "failed" || tracks.status === "failed") return { status: "failed" };
    if (artist.status === "empty" || !artist.data || tracks.status === "empty" || tracks.data.length === 0) return { status: "missing" };
    return {
      status: "found",
      embed: {
        kind,
        title: "Latest releases",
        byline: { id: artist.data.id, name: artist.data.artist_name, href: artistPath(artist.data.id) },
        href: artistPath(artist.data.id),
        artworkUrl: artist.data.profile_image_url,
        artworkSize: imageSizeOf(artist.data.profile_image_width, artist.data.profile_image_height),
        artworkSmallUrl: null,
        tracks: tracks.data.map(embedTrack),
        buy: null,
      },
    };
  }

  if (kind === "album") return readAlbumEmbed(supabase, id);

  const found = read(await supabase.from("tracks").select(trackColumns).eq("id", id).maybeSingle(), {
    what: `${kind} embed`,
    schema: v.nullable(EmbedTrackRowSchema),
  });
  if (found.status === "failed") return found;
  if (found.status === "empty" || !found.data) return { status: "missing" };
  const track = found.data;
  return {
    status: "found",
    embed: {
      kind,
      title: track.title,
      byline: { id: track.artist.id, name: track.artist.artist_name, href: artistPath(track.artist.id) },
      href: trackPath(track.id),
      artworkUrl: track.artwork_url,
      artworkSize: imageSizeOf(track.artwork_width, track.artwork_height),
      artworkSmallUrl: track.artwork_small_url,
      tracks: [embedTrack(track)],
      buy: { href: `${trackPath(track.id)}?buy=1`, price: track.price, currency: track.artist.currency },
    },
  };
}

/**
 * An album's player: its tracks the visitor may hear, in order (an album holds at most 100). Its address
 * is the album's; one of its tracks' (the address embeds had before albums had their own) still plays it.
 */
async function readAlbumEmbed(supabase: SupabaseClient, id: string, oldAddress = true): Promise<EmbedRead> {
  // The release and its tracks, side by side in one round trip.
  const [release, album] = await Promise.all([
    supabase.from("releases").select("id, kind, title, release_price").eq("id", id).maybeSingle(),
    supabase
      .from("tracks")
      .select(trackColumns)
      .eq("release_id", id)
      .order("track_number", { ascending: true, nullsFirst: false })
      .order("created_at", { ascending: true })
      .order("id", { ascending: true })
      .limit(100),
  ]);
  const found = read(release, {
    what: "album embed's release",
    schema: v.nullable(v.object({ ...ReleaseRowSchema.entries, release_price: numeric })),
  });
  if (found.status === "failed") return found;
  const tracks = read(album, { what: "album embed", schema: v.array(EmbedTrackRowSchema) });
  if (tracks.status === "failed") return tracks;
  const [first] = tracks.status === "found" ? tracks.data : [];
  if (found.status === "empty" || found.data?.kind !== "album" || !first) {
    if (!oldAddress) return { status: "missing" };
    const track = read(await supabase.from("tracks").select("release_id").eq("id", id).maybeSingle(), {
      what: "album embed's track",
      schema: v.nullable(v.object({ release_id: v.string() })),
    });
    if (track.status === "failed") return track;
    if (track.status === "empty" || !track.data) return { status: "missing" };
    return readAlbumEmbed(supabase, track.data.release_id, false);
  }
  return {
    status: "found",
    embed: {
      kind: "album",
      title: found.data.title,
      byline: { id: first.artist.id, name: first.artist.artist_name, href: artistPath(first.artist.id) },
      href: albumPath(found.data.id),
      artworkUrl: first.artwork_url,
      artworkSize: imageSizeOf(first.artwork_width, first.artwork_height),
      artworkSmallUrl: first.artwork_small_url,
      tracks: (tracks.status === "found" ? tracks.data : [first]).map(embedTrack),
      // The album whole, at its own price (or its tracks' together).
      buy: { href: `${albumPath(found.data.id)}?buy=1`, price: found.data.release_price, currency: first.artist.currency },
    },
  };
}
