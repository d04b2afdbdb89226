/** The site's sections, in the header's order (spec: shared layout). */
export const headerLinks = [
  { to: "/", label: "Home" },
  { to: "/discover", label: "Discover" },
  { to: "/genres", label: "Genres" },
  { to: "/artists", label: "Artists" },
  { to: "/about", label: "About" },
] as const;

/** The sidebar lists the same sections in its own order. */
export const sidebarLinks = [
  { to: "/", label: "Home" },
  { to: "/genres", label: "Genres" },
  { to: "/artists", label: "Artists" },
  { to: "/discover", label: "Discover" },
  { to: "/about", label: "About" },
] as const;

export const libraryLinks = [
  { to: "/recent", label: "Recently Played" },
  { to: "/liked", label: "Liked Songs" },
  { to: "/playlists", label: "Your Playlists" },
] as const;

export const footerLinks = [
  { to: "/terms", label: "Terms" },
  { to: "/privacy", label: "Privacy" },
] as const;
