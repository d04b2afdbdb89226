import { Link } from "react-router";
import { artistPath, countOf } from "~/lib/catalog/catalog";
import type { ArtistSummary } from "~/lib/schemas/catalog-data";
import { ProfileImage } from "./artist-image";
import { GenreList } from "./genre-list";

/**
 * One artist in a grid: picture, name, short description (two lines at most), counts and genres, the
 * whole card one link to the artist's page. `trackLabel` words the track count (e.g. "Rock track");
 * `note` says why it is shown (a recommendation's reason).
 */
export function ArtistCard({
  artist,
  showGenres = true,
  trackLabel = "track",
  note,
}: {
  artist: ArtistSummary;
  showGenres?: boolean;
  trackLabel?: string;
  note?: string | null;
}) {
  return (
    <Link
      to={artistPath(artist.id)}
      className="group flex h-full flex-col rounded-2xl border border-stage-700 bg-stage-850 p-3 transition-colors hover:border-stage-600 hover:bg-stage-800"
    >
      <ProfileImage
        name={artist.artist_name}
        src={artist.profile_image_url}
        className="aspect-square w-full rounded-xl transition-transform group-hover:scale-[1.02]"
        initialClassName="text-5xl"
      />
      <h3 className="mt-3 truncate text-base font-semibold text-ink">{artist.artist_name}</h3>
      {artist.short_description ? <p className="mt-1 line-clamp-2 text-sm text-ink-muted">{artist.short_description}</p> : null}
      <p className="mt-2 text-xs font-medium text-ink-faint">
        {countOf(artist.follower_count, "follower")}
        {artist.track_count !== undefined ? ` · ${countOf(artist.track_count, trackLabel)}` : null}
      </p>
      {note ? <p className="mt-1 text-xs text-accent-strong">{note}</p> : null}
      {showGenres ? <GenreList genres={artist.genres} className="mt-auto pt-3" /> : null}
    </Link>
  );
}

/** The grid every artist list uses: one card per artist, worded as `ArtistCard` is. */
export function ArtistGrid<Artist extends ArtistSummary>({
  artists,
  noteOf,
  ...card
}: {
  artists: Artist[];
  showGenres?: boolean;
  trackLabel?: string;
  noteOf?: (artist: Artist) => string | null;
}) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 xl:grid-cols-4">
      {artists.map((artist) => (
        <li key={artist.id}>
          <ArtistCard artist={artist} note={noteOf?.(artist)} {...card} />
        </li>
      ))}
    </ul>
  );
}
