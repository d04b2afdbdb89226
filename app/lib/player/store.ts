// What the site's player shows, as React reads it: the queue and the playback state in one store, and
// the clock (seconds into the track) in another, so a tick (about 4 a second) re-renders only what shows
// time. Components read both with selectors; only the engine writes them.
import { useSyncExternalStore } from "react";
import { playerDefaults } from "../constants";
import { emptyQueue, type Queue } from "./queue-state";

/** Where the tab keeps its queue between reloads (the engine writes it; a saved one loads the engine at once). */
export const savedQueueKey = "crate:player";

export type PlaybackStatus = "idle" | "loading" | "playing" | "paused" | "error";

export type PlayerState = Queue & {
  status: PlaybackStatus;
  error: string | null;
  /** The current track's length in seconds (its stored length until the media knows better). */
  duration: number;
  peaks: number[] | null;
  volume: number;
  muted: boolean;
};

const initialPlayerState: PlayerState = {
  ...emptyQueue,
  status: "idle",
  error: null,
  duration: 0,
  peaks: null,
  volume: playerDefaults.volume,
  muted: false,
};

type Listener = () => void;

function createStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => value,
    set(next: T) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

const state = createStore(initialPlayerState);
const clock = createStore(0);

/** The one store of the player: read by components (through the hooks below), written by the engine. */
export const playerStore = {
  getState: state.get,
  subscribe: state.subscribe,
  update: (patch: Partial<PlayerState>) => state.set({ ...state.get(), ...patch }),
  getTime: clock.get,
  subscribeTime: clock.subscribe,
  setTime: clock.set,
};

export type PlayerStore = typeof playerStore;

/**
 * A part of the player's state (the empty player on the server and before hydration). The selector
 * returns a field or a value made from fields: a component re-renders only when that changes.
 */
export function usePlayer<T>(select: (state: PlayerState) => T): T {
  return useSyncExternalStore(
    state.subscribe,
    () => select(state.get()),
    () => select(initialPlayerState),
  );
}

/**
 * Seconds into the current track, for what shows time (the elapsed time, the seek bar); 0 while
 * `following` is false (a page's player for a track that is not the one playing), with no re-render.
 */
export function usePlayerTime(following = true): number {
  return useSyncExternalStore(
    clock.subscribe,
    () => (following ? clock.get() : 0),
    () => 0,
  );
}
