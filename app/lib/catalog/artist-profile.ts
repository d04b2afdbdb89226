// What an artist's page makes of their profile: their tracks grouped by release, and the links they
// gave (only http(s) addresses, and social handles as profile links). Kept apart from the catalog's
// paths, which every page needs, so only the pages that show a profile carry it.

/** What grouping needs of a track (the artist page's read, schemas/catalog-data.ts, has more). */
type ReleaseTrack = {
  release_id: string;
  release_date: string;
  upcoming: boolean;
  type: string;
  title: string;
  album_title: string | null;
  track_number: number | null;
  artwork_url: string | null;
  artwork_small_url: string | null;
};

type ReleaseFields = { id: string; title: string; releaseDate: string; upcoming: boolean; artworkUrl: string | null };
export type Release<Track extends ReleaseTrack = ReleaseTrack> =
  (ReleaseFields & { kind: "album"; tracks: Track[] }) | (ReleaseFields & { kind: "single"; tracks: [Track] });

/**
 * An artist's tracks as releases, by the release each belongs to: an album's tracks become one card in
 * track order, a single its own. Releases keep the order of their first track in the list.
 */
export function groupReleases<Track extends ReleaseTrack>(tracks: Track[]): Release<Track>[] {
  const releases = new Map<string, Release<Track>>();
  for (const track of tracks) {
    const release = releases.get(track.release_id);
    if (release) {
      release.tracks.push(track);
      release.artworkUrl ??= track.artwork_small_url ?? track.artwork_url;
      continue;
    }
    const fields = {
      id: track.release_id,
      releaseDate: track.release_date,
      upcoming: track.upcoming,
      artworkUrl: track.artwork_small_url ?? track.artwork_url,
    };
    releases.set(
      track.release_id,
      track.type === "album"
        ? { ...fields, kind: "album", title: track.album_title ?? track.title, tracks: [track] }
        : { ...fields, kind: "single", title: track.title, tracks: [track] },
    );
  }
  for (const release of releases.values()) {
    release.tracks.sort((a, b) => (a.track_number ?? Number.MAX_SAFE_INTEGER) - (b.track_number ?? Number.MAX_SAFE_INTEGER));
  }
  return [...releases.values()];
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
