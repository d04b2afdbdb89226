// The site's one player, as every page holds it: the commands components drive it with, and the hooks
// they read it with. Nothing here plays: the engine (`engine.ts`, which alone owns the bar's audio
// element) loads on the first command, when a page offers a track's URL, or at once when the tab has a
// saved queue (a reload keeps the queue and the position, paused: nothing plays by itself).
import type { TrackSource } from "./listening";
import type { QueueTrack } from "./queue";
import { playerStore, savedQueueKey } from "./store";
import type { PlayerEngine } from "./engine";

export type { QueueTrack, Repeat } from "./queue";
export { repeatLabels } from "./queue";
export type { AudioSource, TrackSource } from "./listening";
export { usePlayer, usePlayerTime, type PlayerState, type PlaybackStatus } from "./store";

/** The bar's audio element: the site's one (the bar, and it, never unmount). */
const audioSelector = "audio[data-site-player]";

let engine: PlayerEngine | null = null;
let engineLoading: Promise<PlayerEngine> | null = null;

/** Loads the engine once, on the bar's audio element. */
function loadEngine(): Promise<PlayerEngine> {
  engineLoading ??= import("./engine").then(({ createPlayerEngine }) => {
    const audio = document.querySelector<HTMLAudioElement>(audioSelector);
    if (!audio) throw new Error("the player bar's audio element is missing");
    engine = createPlayerEngine(playerStore, audio);
    return engine;
  });
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

export const player = {
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

  /**
   * A URL the page already has for a track (the track page streams one in): the engine loads with it
   * and holds it ready, so the page's Play only starts the sound.
   */
  offerSource(trackId: string, source: TrackSource) {
    if ("url" in source) run((engine) => engine.offerSource(trackId, source));
  },

  /** Plays `tracks` from `start`, in place of the queue (Play on a list, an album or Play All). */
  playTracks: (tracks: QueueTrack[], start = 0) => run((engine) => engine.playTracks(tracks, start)),
  /** Plays the track itself: the current one resumes (or pauses), another starts in place of the queue. */
  toggleTrack: (track: QueueTrack) => run((engine) => engine.toggleTrack(track)),
  play: () => run((engine) => engine.play()),
  pause: () => run((engine) => engine.pause()),
  toggle: () => run((engine) => engine.toggle()),
  /** Plays a queued track now (the queue view's rows). */
  playAt: (index: number) => run((engine) => engine.playAt(index)),
  next: () => run((engine) => engine.next()),
  previous: () => run((engine) => engine.previous()),
  seek: (seconds: number) => run((engine) => engine.seek(seconds)),
  setVolume: (volume: number) => run((engine) => engine.setVolume(volume)),
  toggleMute: () => run((engine) => engine.toggleMute()),
  /** Puts a track right after the current one (or plays it, when nothing is queued). */
  playNext: (track: QueueTrack) => run((engine) => engine.playNext(track)),
  addToQueue: (track: QueueTrack) => run((engine) => engine.addToQueue(track)),
  remove: (index: number) => run((engine) => engine.remove(index)),
  move: (from: number, to: number) => run((engine) => engine.move(from, to)),
  clear: () => run((engine) => engine.clear()),
  toggleShuffle: () => run((engine) => engine.toggleShuffle()),
  cycleRepeat: () => run((engine) => engine.cycleRepeat()),
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
