import { Link } from "react-router";
import { albumPath, artistPath } from "~/lib/catalog/catalog";
import type { ReleaseCard } from "~/lib/schemas/catalog-data";
import { Artwork } from "./artist-image";

/**
 * Releases as a grid of covers, each linking to its page (an album's, or a single's track page by way of
 * it) and its artist; `noteOf` says why one is shown (a recommendation's reason).
 */
export function ReleaseCards<Release extends ReleaseCard>({
  releases,
  noteOf,
  label,
}: {
  releases: Release[];
  noteOf?: (release: Release) => string;
  label: string;
}) {
  return (
    <ul aria-label={label} className="grid grid-cols-2 gap-4 sm:grid-cols-3">
      {releases.map((release) => (
        <li key={release.id}>
          <Link to={albumPath(release.id)} className="group block">
            <Artwork src={release.artwork_url} alt={`Cover of ${release.title}`} className="aspect-square w-full rounded-xl" />
            <span className="mt-2 block truncate font-semibold text-ink group-hover:text-accent">{release.title}</span>
          </Link>
          <Link to={artistPath(release.artist_id)} className="block truncate text-sm leading-6 text-ink-muted hover:text-ink">
            {release.artist_name}
          </Link>
          {noteOf?.(release) ? <p className="text-xs text-accent-strong">{noteOf(release)}</p> : null}
        </li>
      ))}
    </ul>
  );
}

/** A release page's "fans who bought this also bought" (nothing when nobody did). */
export function AlsoBought({ releases }: { releases: ReleaseCard[] }) {
  if (releases.length === 0) return null;
  return (
    <section aria-labelledby="also-bought" className="mt-12">
      <h2 id="also-bought" className="mb-4 text-xl font-semibold">
        Fans who bought this also bought
      </h2>
      <ReleaseCards releases={releases} label="Also bought" />
    </section>
  );
}
