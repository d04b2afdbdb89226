/** The site's sections, in the header's order (spec: shared layout). */
import { href } from "react-router";

export const headerLinks = [
  { to: "/", label: "Home" },
  { to: href("/discover"), label: "Discover" },
  { to: href("/genres"), label: "Genres" },
  { to: href("/artists"), label: "Artists" },
  { to: href("/about"), label: "About" },
] as const;

/** The sidebar lists the same sections in its own order. */
export const sidebarLinks = [
  { to: "/", label: "Home" },
  { to: href("/genres"), label: "Genres" },
  { to: href("/artists"), label: "Artists" },
  { to: href("/discover"), label: "Discover" },
  { to: href("/about"), label: "About" },
] as const;

export const libraryLinks = [
  { to: href("/recent"), label: "Recently Played" },
  { to: href("/liked"), label: "Liked Songs" },
  { to: href("/playlists"), label: "Your Playlists" },
] as const;

export const footerLinks = [
  { to: href("/terms"), label: "Terms" },
  { to: href("/privacy"), label: "Privacy" },
] as const;
