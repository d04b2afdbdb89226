import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False on the server and during hydration, true once JavaScript runs the page: for controls that only
 * work with JavaScript, which the server renders in their no-JavaScript form (or not at all).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
