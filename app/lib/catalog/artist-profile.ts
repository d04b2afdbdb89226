// What an artist's page makes of their profile: the links they gave (only http(s) addresses, and social
// handles as profile links). Kept apart from the catalog's paths, which every page needs, so only the
// pages that show a profile carry it. (Their releases come grouped and in order from artist_page().)

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
