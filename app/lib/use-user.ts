import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

/** The signed-in user from the root loader, or null for visitors (and on error screens before it loaded). */
export function useOptionalUser() {
  return useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
}

/** The signed-in user's playlists, newest change first (none for visitors). */
export function useYourPlaylists() {
  return useRouteLoaderData<typeof rootLoader>("root")?.playlists ?? [];
}
