import { useSyncExternalStore } from "react";
import { player as playerSettings } from "./constants";
import type * as engineModule from "./player-engine";

// The site's one player: one audio element (the player bar's) that keeps playing while the pages change
// around it, and the queue it plays from. Components read it with `usePlayer()` and drive it through
// `player`; nothing here renders. Every page carries only this: the state and the commands. What plays
// (loading signed URLs, the media element's events, the queue's rules, the Media Session, reporting
// plays) is `player-engine.ts`, loaded on the first command, or at once when the tab has a saved queue
// (a reload keeps the queue and the position, paused: nothing plays by itself).

/** A track as the queue holds it: enough to show it and to ask for its audio. */
export type QueueTrack = {
  id: string;
  title: string;
  artistId: string;
  artistName: string;
  artworkUrl: string | null;
  /** The album it is on, where the list knows it (the Media Session shows it). */
  album?: string;
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

/** Where a track streams from (a signed URL and when it stops working), or why it cannot (`missing`: it has no audio). */
export type AudioSource = { url: string; expiresAt: number } | { error: string; missing?: boolean };
/** An audio source with the track's stored waveform and length, for the seek bar. */
/**
 * A track as the player gets it: its audio URL, stored waveform and length, and the play ticket its play
 * report brings back once `afterSeconds` have passed (none for the URL a track page hands over).
 */
export type TrackSource =
  | (Extract<AudioSource, { url: string }> & {
      peaks: number[] | null;
      duration: number | null;
      ticket?: { value: string; afterSeconds: number };
    })
  | Extract<AudioSource, { error: string }>;

export type Repeat = "off" | "all" | "one";
/** What the Repeat button is called in each mode (its name says the state). */
export const repeatLabels: Record<Repeat, string> = { off: "Repeat: off", all: "Repeat: all", one: "Repeat: one" };
export type PlaybackStatus = "idle" | "loading" | "playing" | "paused" | "error";

export type PlayerState = {
  queue: QueueTrack[];
  /** The queue's current track, or -1 when nothing is queued. */
  index: number;
  status: PlaybackStatus;
  error: string | null;
  /** Seconds into the current track. */
  time: number;
  /** The current track's length in seconds (its stored length until the media knows better). */
  duration: number;
  peaks: number[] | null;
  volume: number;
  muted: boolean;
  shuffle: boolean;
  repeat: Repeat;
  /** The upcoming tracks in their own order while shuffle has mixed them, to put back when it ends. */
  unshuffled: QueueTrack[] | null;
};

/** Where the tab keeps its queue between reloads (the engine writes it, and restores it). */
export const savedQueueKey = "crate:player";

const initialPlayerState: PlayerState = {
  queue: [],
  index: -1,
  status: "idle",
  error: null,
  time: 0,
  duration: 0,
  peaks: null,
  volume: playerSettings.defaultVolume,
  muted: false,
  shuffle: false,
  repeat: "off",
  unshuffled: null,
};

let state = initialPlayerState;
const listeners = new Set<() => void>();
let audio: HTMLAudioElement | null = null;

/** The engine's one way to change what components show. */
export function updatePlayerState(patch: Partial<PlayerState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

/** Signed URLs known ahead of playing: handed over by a page (the track page streams one in) or fetched ahead by the engine. */
export const knownSources = new Map<string, Extract<TrackSource, { url: string }>>();

type Engine = typeof engineModule.engine;
let engine: Engine | null = null;
let engineLoading: Promise<Engine> | null = null;

/** Loads the engine once, and hands it the audio element. */
function loadPlayerEngine(): Promise<Engine> {
  engineLoading ??= import("./player-engine").then((module) => {
    engine = module.engine;
    engine.attach(audio);
    return engine;
  });
  return engineLoading;
}

/**
 * Runs a command on the engine: at once when it is loaded (so a click's play stays within the click, as
 * browsers that guard autoplay want), else once it has loaded.
 */
function run(command: (engine: Engine) => void) {
  if (engine) return command(engine);
  loadPlayerEngine().then(command, (cause: unknown) => console.warn("player failed to load", cause));
}

export const player = {
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getState: () => state,

  /** The bar hands over its audio element once it is in the page (and null when it leaves). */
  attach(element: HTMLAudioElement | null) {
    audio = element;
    if (engine) return engine.attach(element);
    let saved = false;
    try {
      saved = sessionStorage.getItem(savedQueueKey) !== null;
    } catch {
      // No storage, no saved queue.
    }
    if (element && saved) void loadPlayerEngine();
  },

  /**
   * A URL the page already has for a track (the track page streams one in), kept for when it plays. The
   * engine loads with it, so the page's Play starts the sound within the click.
   */
  offerSource(trackId: string, source: TrackSource) {
    if ("url" in source && !knownSources.has(trackId)) knownSources.set(trackId, source);
    void loadPlayerEngine();
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

/** The player's state for a component (the empty player on the server and before hydration). */
export function usePlayer(): PlayerState {
  return useSyncExternalStore(player.subscribe, player.getState, () => initialPlayerState);
}
