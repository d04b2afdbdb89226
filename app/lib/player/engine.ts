// What the site's player does, loaded on the first command (see `index.ts`): it alone owns the bar's
// audio element and its events. It asks for each track's signed URL just before it plays (or takes the
// one a page offered) and the next one ahead, applies the queue's rules (`queue.ts`) to the element,
// tells the Media Session, keeps the queue in the tab's session storage and reports plays by the rules
// of listening (`listening.ts`). It writes what components show to the store, the clock apart.
import { trackPlayPath, trackSourcePath } from "../catalog/catalog";
import { playerErrorMessages } from "./messages";
import {
  heard,
  heardEnough,
  heardToTheEnd,
  lastsToPlay,
  parseTrackSource,
  prefetchBeforeEndSeconds,
  waitForTicket,
  type PlayTicket,
  type TrackSource,
} from "./listening";
import * as rules from "./queue";
import type { Queue, QueueTrack } from "./queue";
import { savedQueueKey, type PlayerStore } from "./store";

/** Where the tab keeps its queue between reloads, the position in it, and the current track's shape. */
const storageKeys = { queue: savedQueueKey, position: "crate:player:position", shape: "crate:player:shape" } as const;
/** The position is saved this often while playing (and at every pause, seek and page hide). */
const savePositionEverySeconds = 5;
/** Signed URLs kept for tracks about to play; the oldest go first. */
const keptSources = 20;

type PlayableSource = Extract<TrackSource, { url: string }>;

/** The site's player on an audio element, writing what it does to `store`. */
export function createPlayerEngine(store: PlayerStore, audio: HTMLAudioElement) {
  const state = () => store.getState();
  const current = () => rules.currentTrack(state());
  /** Signed URLs known ahead of playing (offered by a page, or fetched ahead), with when each came. */
  const sources = new Map<string, { source: PlayableSource; receivedAt: number }>();
  /** The track whose URL the element holds, and when that URL stops working. */
  let loaded: { trackId: string; expiresAt: number } | null = null;
  /** Each load gets a number; an answer for an older load is dropped (the listener moved on). */
  let loadNumber = 0;
  /** A failed media load is retried once with a freshly signed URL (it may have expired during a pause). */
  let retriedLoad = false;
  /** This listen of the current track: seconds heard, the clock's last reading, whether it was reported. */
  let listen = { heard: 0, lastTime: 0, reported: false };
  let positionSavedAt = 0;

  // --- The tab's storage

  function write(key: string, value: string) {
    try {
      sessionStorage.setItem(key, value);
    } catch {
      // Storage full or refused: the queue still works for this page's life.
    }
  }

  function read(key: string): unknown {
    try {
      return JSON.parse(sessionStorage.getItem(key) ?? "null");
    } catch {
      return null;
    }
  }

  function saveQueue() {
    const { tracks, index, volume, muted, shuffle, repeat, unshuffled } = state();
    write(storageKeys.queue, JSON.stringify({ tracks, index, volume, muted, shuffle, repeat, unshuffled }));
  }

  function savePosition() {
    positionSavedAt = store.getTime();
    write(storageKeys.position, String(Math.floor(positionSavedAt)));
  }

  function saveShape(trackId: string) {
    const { duration, peaks } = state();
    write(storageKeys.shape, JSON.stringify({ trackId, duration, peaks }));
  }

  /** The tab's saved queue, paused where it was, with its track's length and waveform. */
  function restore() {
    const saved = read(storageKeys.queue);
    const queue = rules.parseSavedQueue(saved);
    if (!queue || queue.index < 0) return;
    const settings = (saved ?? {}) as Record<string, unknown>;
    const shape = read(storageKeys.shape) as Record<string, unknown> | null;
    const sameTrack = shape?.trackId === queue.tracks[queue.index]?.id;
    const peaks = sameTrack && Array.isArray(shape?.peaks) && shape.peaks.every((peak) => typeof peak === "number") ? shape.peaks : null;
    store.update({
      ...queue,
      status: "paused",
      duration: sameTrack && typeof shape?.duration === "number" && shape.duration > 0 ? shape.duration : 0,
      peaks: peaks as number[] | null,
      volume: typeof settings.volume === "number" && settings.volume >= 0 && settings.volume <= 1 ? settings.volume : state().volume,
      muted: settings.muted === true,
    });
    store.setTime(Number(read(storageKeys.position)) || 0);
  }

  // --- Sources and plays

  function keep(trackId: string, source: PlayableSource) {
    sources.delete(trackId);
    sources.set(trackId, { source, receivedAt: Date.now() });
    for (const [id, kept] of sources) {
      if (sources.size <= keptSources && lastsToPlay(kept.source.expiresAt)) break;
      if (id !== trackId) sources.delete(id);
    }
  }

  /** The track's audio address, stored waveform and play ticket, from the source route. */
  async function fetchSource(trackId: string): Promise<TrackSource> {
    try {
      const source = parseTrackSource(await (await fetch(trackSourcePath(trackId))).json());
      if (!source) return { error: playerErrorMessages.load };
      if ("url" in source) keep(trackId, source);
      return source;
    } catch {
      return { error: playerErrorMessages.load };
    }
  }

  /** A URL for the track that will last a while: one known already, or a fresh one. */
  function freshSource(trackId: string): Promise<TrackSource> {
    const known = sources.get(trackId)?.source;
    if (known && lastsToPlay(known.expiresAt)) return Promise.resolve(known);
    return fetchSource(trackId);
  }

  /** Reports the play with its ticket, once the server's wait after giving it has passed. */
  function reportPlay(trackId: string) {
    if (listen.reported) return;
    listen.reported = true;
    const kept = sources.get(trackId);
    const ticket: PlayTicket | undefined = kept?.source.ticket;
    if (!kept || !ticket) return;
    const send = () =>
      fetch(`${trackPlayPath(trackId)}?${new URLSearchParams({ ticket: ticket.value })}`, { method: "POST", keepalive: true }).catch(
        () => {},
      );
    const wait = waitForTicket(ticket, kept.receivedAt);
    if (wait > 0) setTimeout(send, wait + 250);
    else send();
  }

  const startListen = () => (listen = { heard: 0, lastTime: 0, reported: false });

  // --- Loading and playing

  /** Points the element at a URL (unless it holds it already), at `startAt` seconds once it can seek. */
  function point(trackId: string, source: PlayableSource, startAt: number) {
    if (loaded?.trackId !== trackId || audio.src !== source.url) audio.src = source.url;
    loaded = { trackId, expiresAt: source.expiresAt };
    if (startAt <= 0) return;
    // A position can be set only once the media knows its length (a restored queue, a renewed URL).
    const number = loadNumber;
    if (audio.readyState >= HTMLMediaElement.HAVE_METADATA) audio.currentTime = startAt;
    else audio.addEventListener("loadedmetadata", () => number === loadNumber && (audio.currentTime = startAt), { once: true });
  }

  /**
   * Loads the current track's audio (a fresh URL when the held one is missing or dying) and, if asked,
   * plays it: from `startAt` seconds, or from where it was (`resume`).
   */
  async function load(play: boolean, startAt: number | "resume") {
    const track = current();
    if (!track) return;
    const number = ++loadNumber;
    const held = loaded?.trackId === track.id && lastsToPlay(loaded.expiresAt);
    // A URL a page handed over came with no ticket: one is asked for beside the playback.
    const askForTicket = () => {
      if (!sources.get(track.id)?.source.ticket) void fetchSource(track.id);
    };
    if (held && play) {
      askForTicket();
      // The element holds this track already (a page offered it, or it was paused): a press only plays.
      const target = startAt !== "resume" ? startAt : audio.ended ? 0 : store.getTime();
      if (Math.abs(audio.currentTime - target) > 0.25) audio.currentTime = target;
      return startPlayback();
    }
    store.update({ status: play ? "loading" : "paused", error: null });
    const source = await freshSource(track.id);
    if (number !== loadNumber) return;
    if ("error" in source) {
      loaded = null;
      return store.update({ status: "error", error: source.error });
    }
    askForTicket();
    if (source.peaks || source.duration) {
      store.update({ peaks: source.peaks ?? state().peaks, duration: source.duration ?? state().duration });
      saveShape(track.id);
    }
    point(track.id, source, startAt === "resume" ? store.getTime() : startAt);
    if (play) startPlayback();
  }

  function startPlayback() {
    audio.play().catch((cause: unknown) => {
      // A pause or a new load before playback began is not a failure.
      if (cause instanceof DOMException && cause.name === "AbortError") return;
      console.warn("play failed", cause);
      store.update({ status: "error", error: playerErrorMessages.playback });
    });
  }

  /** A new queue state; when the current track changed, it is loaded (and played, if asked) from its start. */
  function apply(next: Queue, { play = true, reload = false } = {}) {
    const before = current();
    const trackChanged = rules.currentTrack(next)?.id !== before?.id || reload;
    if (!trackChanged) {
      store.update(next);
      return saveQueue();
    }
    startListen();
    const kept = rules.currentTrack(next) ? sources.get(rules.currentTrack(next)!.id)?.source : undefined;
    store.update({ ...next, error: null, duration: kept?.duration ?? 0, peaks: kept?.peaks ?? null });
    store.setTime(0);
    saveQueue();
    savePosition();
    updateMediaSession();
    if (rules.currentTrack(next)) void load(play, 0);
  }

  // --- The element's events

  function onTimeUpdate() {
    const seconds = audio.currentTime;
    listen.heard = heard(listen.heard, listen.lastTime, seconds, audio.paused);
    listen.lastTime = seconds;
    const track = current();
    if (track && heardEnough(listen.heard)) reportPlay(track.id);
    store.setTime(seconds);
    if (Math.abs(seconds - positionSavedAt) >= savePositionEverySeconds) savePosition();
    // The next track's URL, fetched ahead so it starts at once.
    const next = state().tracks[state().index + 1];
    if (next && state().duration - seconds < prefetchBeforeEndSeconds && !sources.has(next.id)) void fetchSource(next.id);
  }

  function onEnded() {
    const track = current();
    // Only a real end: a seek to the end taken back at once is no longer there.
    if (!track || !audio.ended) return;
    if (heardToTheEnd(listen.heard, audio.duration)) reportPlay(track.id);
    startListen();
    const step = rules.afterEnd(state());
    if ("again" in step) {
      audio.currentTime = 0;
      return startPlayback();
    }
    // The end of the queue: the bar stops here, and never goes on to music nobody asked for.
    if ("stop" in step) return store.update({ status: "paused" });
    apply(rules.goTo(state(), step.index), { reload: true });
  }

  function onError() {
    const track = current();
    if (!track || !audio.error || loaded?.trackId !== track.id) return;
    const wasPlaying = state().status === "playing" || state().status === "loading";
    if (!retriedLoad) {
      // Most often the signed URL ran out during a long pause: sign it again and carry on from there.
      retriedLoad = true;
      sources.delete(track.id);
      loaded = null;
      return void load(wasPlaying, "resume");
    }
    console.warn("audio player error", audio.error);
    store.update({ status: "error", error: wasPlaying ? playerErrorMessages.playback : playerErrorMessages.load });
  }

  const mediaSession = () => (typeof navigator !== "undefined" && "mediaSession" in navigator ? navigator.mediaSession : null);

  function updateMediaSession() {
    const session = mediaSession();
    if (!session) return;
    const track = current();
    session.metadata = track
      ? new MediaMetadata({
          title: track.title,
          artist: track.artistName,
          album: track.album ?? "",
          artwork: track.artworkUrl ? [{ src: new URL(track.artworkUrl, location.href).href }] : [],
        })
      : null;
  }

  const events: [keyof HTMLMediaElementEventMap, () => void][] = [
    ["timeupdate", onTimeUpdate],
    ["ended", onEnded],
    ["error", onError],
    ["play", () => store.update({ status: "loading" })],
    [
      "playing",
      () => {
        retriedLoad = false;
        store.update({ status: "playing" });
        const session = mediaSession();
        if (session) session.playbackState = "playing";
      },
    ],
    [
      "pause",
      () => {
        if (state().status !== "error") store.update({ status: "paused" });
        savePosition();
        const session = mediaSession();
        if (session) session.playbackState = "paused";
      },
    ],
    ["durationchange", () => Number.isFinite(audio.duration) && store.update({ duration: audio.duration })],
  ];

  // --- The commands (the facade in `index.ts` calls these)

  const engine = {
    /**
     * A URL a page already has for a track (the track page streams one in): kept, and held ready in the
     * element when nothing else is queued, so the page's Play only starts the sound.
     */
    offerSource(trackId: string, source: TrackSource) {
      if (!("url" in source)) return;
      if (!sources.has(trackId)) keep(trackId, source);
      if (state().index >= 0 || !lastsToPlay(source.expiresAt)) return;
      audio.preload = "metadata";
      point(trackId, source, 0);
    },
    playTracks(tracks: QueueTrack[], start = 0) {
      apply(rules.playFrom(state(), tracks, start), { reload: true });
    },
    /** The track itself: the current one resumes (or pauses), another starts in place of the queue. */
    toggleTrack(track: QueueTrack) {
      if (current()?.id === track.id) return engine.toggle();
      engine.playTracks([track]);
    },
    play() {
      if (!current()) return;
      retriedLoad = false;
      if (audio.ended) startListen();
      void load(true, "resume");
    },
    pause() {
      audio.pause();
    },
    toggle() {
      if (state().status === "playing" || state().status === "loading") engine.pause();
      else engine.play();
    },
    playAt(index: number) {
      apply(rules.goTo(state(), index), { reload: true });
    },
    next() {
      const index = rules.nextIndex(state());
      if (index !== null) apply(rules.goTo(state(), index), { reload: true });
    },
    previous() {
      const step = rules.previousStep(state(), store.getTime());
      if ("restart" in step) return engine.seek(0);
      apply(rules.goTo(state(), step.index), { reload: true });
    },
    seek(seconds: number) {
      const target = Math.min(Math.max(seconds, 0), state().duration || seconds);
      if (loaded?.trackId === current()?.id && audio.readyState >= HTMLMediaElement.HAVE_METADATA) audio.currentTime = target;
      store.setTime(target);
      savePosition();
    },
    setVolume(volume: number) {
      audio.volume = volume;
      audio.muted = false;
      store.update({ volume, muted: false });
      saveQueue();
    },
    toggleMute() {
      audio.muted = !state().muted;
      store.update({ muted: !state().muted });
      saveQueue();
    },
    playNext(track: QueueTrack) {
      apply(rules.playNext(state(), track));
    },
    addToQueue(track: QueueTrack) {
      apply(rules.addToQueue(state(), track));
    },
    /** The current track removed stops, and the next takes its place, paused. */
    remove(index: number) {
      const { queue, currentRemoved } = rules.remove(state(), index);
      if (!currentRemoved) return apply(queue);
      audio.pause();
      loaded = null;
      if (queue.index < 0) return engine.clear();
      apply(queue, { play: false, reload: true });
    },
    move(from: number, to: number) {
      apply(rules.move(state(), from, to));
    },
    clear() {
      audio.pause();
      audio.removeAttribute("src");
      loaded = null;
      loadNumber++;
      store.update({ ...rules.clear(state()), status: "idle", error: null, duration: 0, peaks: null });
      store.setTime(0);
      saveQueue();
      savePosition();
      updateMediaSession();
    },
    toggleShuffle() {
      apply(rules.toggleShuffle(state(), Math.random));
    },
    cycleRepeat() {
      apply(rules.cycleRepeat(state()));
    },
  };

  // --- Attached once, for the page's life (the bar, and its element, never unmount)

  if (state().index < 0) restore();
  audio.volume = state().volume;
  audio.muted = state().muted;
  for (const [event, handler] of events) audio.addEventListener(event, handler);
  addEventListener("pagehide", savePosition);
  const session = mediaSession();
  if (session) {
    const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
      ["play", () => engine.play()],
      ["pause", () => engine.pause()],
      ["previoustrack", () => engine.previous()],
      ["nexttrack", () => engine.next()],
      ["seekto", (details) => details.seekTime !== undefined && engine.seek(details.seekTime)],
      ["seekbackward", (details) => engine.seek(store.getTime() - (details.seekOffset ?? 10))],
      ["seekforward", (details) => engine.seek(store.getTime() + (details.seekOffset ?? 10))],
    ];
    for (const [action, handler] of actions) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // An action this browser does not know.
      }
    }
  }
  updateMediaSession();
  return engine;
}

export type PlayerEngine = ReturnType<typeof createPlayerEngine>;
