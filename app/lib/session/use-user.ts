import { useRouteLoaderData } from "react-router";
import type { PlaylistName } from "../schemas/playlists";
import type { SessionUser } from "./session-user";

/**
 * What the root loader gives every page: who is signed in, their playlists, the site's origin, and how many
 * items their cart holds (null where fans cannot pay yet). Declared here (the root loader returns it) so
 * reading it never imports the root module back.
 */
export type RootData = {
  user: SessionUser | null;
  playlists: PlaylistName[];
  origin: string;
  cart: number | null;
  /** A signed-in user's unread notifications, and the backend the bell listens to for new ones (its public key). */
  notices: { unread: number; backend: { url: string; anonKey: string } } | null;
};

const useRootData = () => useRouteLoaderData<RootData>("root");

/** The signed-in user from the root loader, or null for visitors (and on error screens before it loaded). */
export function useOptionalUser() {
  return useRootData()?.user ?? null;
}

/** The signed-in user's playlists, newest change first (none for visitors). */
export function useYourPlaylists() {
  return useRootData()?.playlists ?? [];
}

/** How many items the cart holds, or null where fans cannot pay yet (no cart at all). */
export function useCartCount() {
  return useRootData()?.cart ?? null;
}

/** The signed-in user's unread notifications and where the bell listens (null for visitors). */
export function useNotices() {
  return useRootData()?.notices ?? null;
}
