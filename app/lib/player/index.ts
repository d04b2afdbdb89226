// The site's one player, as every page holds it: the commands components drive it with, and the hooks
// they read it with. Nothing here plays: the engine (`engine.ts`, which alone owns the bar's audio
// element) loads on the first command, when a page offers a track's URL, or at once when the tab has a
// saved queue (a reload keeps the queue and the position, paused: nothing plays by itself).
import type { QueueTrack } from "./queue-state";
import { playerStore, savedQueueKey } from "./store";
import type { PlayerEngine } from "./engine";

export type { QueueTrack, Repeat } from "./queue-state";
export type { AudioSource, TrackSource } from "./listening";
export { usePlayer, usePlayerTime, type PlayerState, type PlaybackStatus } from "./store";

/** The bar's audio element: the site's one (the bar, and it, never unmount). */
const audioSelector = "audio[data-site-player]";

let engine: PlayerEngine | null = null;
let engineLoading: Promise<PlayerEngine> | null = null;

/** Loads the engine once, on the bar's audio element; a failed load (a dropped connection) is tried again by the next command. */
function loadEngine(): Promise<PlayerEngine> {
  engineLoading ??= import("./engine").then(
    ({ createPlayerEngine }) => {
      const audio = document.querySelector<HTMLAudioElement>(audioSelector);
      if (!audio) throw new Error("the player bar's audio element is missing");
      engine = createPlayerEngine(playerStore, audio);
      return engine;
    },
    (cause: unknown) => {
      engineLoading = null;
      throw cause;
    },
  );
  return engineLoading;
}

/**
 * Runs a command on the engine: at once when it is loaded (so a click's play stays within the click, as
 * browsers that guard autoplay want), else once it has loaded.
 */
function run(command: (engine: PlayerEngine) => void) {
  if (engine) return command(engine);
  loadEngine().then(command, (cause: unknown) => console.warn("player failed to load", cause));
}

/** What components may ask of the player: the engine's commands (see `engine.ts` for what each does). */
const commandNames = [
  "playTracks",
  "toggleTrack",
  "play",
  "pause",
  "toggle",
  "playAt",
  "next",
  "previous",
  "seek",
  "setVolume",
  "toggleMute",
  "playNext",
  "addToQueue",
  "remove",
  "move",
  "clear",
  "toggleShuffle",
  "cycleRepeat",
  "offerSource",
] as const satisfies readonly (keyof PlayerEngine)[];

type Commands = { [Name in (typeof commandNames)[number]]: (...args: Parameters<PlayerEngine[Name]>) => void };

/** Each command runs on the engine, with the arguments it was given (typed by `Commands`). */
const commands = Object.fromEntries(
  commandNames.map((name) => [name, (...args: unknown[]) => run((engine) => (engine[name] as (...given: unknown[]) => void)(...args))]),
) as Commands;

export const player = {
  ...commands,
  /** The bar's audio element is in the page: a queue the tab saved is restored (paused). */
  resume() {
    let saved = false;
    try {
      saved = sessionStorage.getItem(savedQueueKey) !== null;
    } catch {
      // No storage, no saved queue.
    }
    if (saved) void loadEngine();
  },
  /** The player has something queued (a cheap check for the Space key, with no re-render). */
  isQueued: () => playerStore.getState().index >= 0,
};

/** A track as the catalog's reads give it (artwork, and its artist embedded), as the queue holds it. */
export function queueTrack(track: {
  id: string;
  title: string;
  artwork_url: string | null;
  artwork_small_url?: string | null;
  album_title?: string | null;
  artist: { id: string; artist_name: string };
}): QueueTrack {
  return {
    id: track.id,
    title: track.title,
    artistId: track.artist.id,
    artistName: track.artist.artist_name,
    artworkUrl: track.artwork_small_url ?? track.artwork_url,
    ...(track.album_title ? { album: track.album_title } : {}),
  };
}
