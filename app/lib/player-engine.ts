import { trackPlayPath, trackSourcePath } from "./catalog";
import { playerErrorMessages } from "./errors";
import {
  knownSources as sources,
  player,
  savedQueueKey as storageKey,
  updatePlayerState as set,
  type PlayerState,
  type QueueTrack,
  type Repeat,
  type TrackSource,
} from "./player";

// What the site's player does (see `player.ts` for what every page holds): it loads each track's signed
// URL just before it plays and the next one ahead, follows the audio element's events, keeps the queue's
// rules, tells the Media Session, saves the queue to the tab's session storage and reports plays.

/** A signed URL this close to its end is renewed before playing, so playback never starts on a dying URL. */
const renewalMarginMs = 60_000;
/** The next track's URL is fetched this long before the current one ends, so it starts without a wait. */
const prefetchBeforeEndSeconds = 20;
/** Seconds heard after which a play is reported (enough to tell listening from skipping). */
const playCountsAfter = 5;
/** Previous within this many seconds of a track's start goes to the track before; later, back to its start. */
const restartAfterSeconds = 3;
const positionKey = "crate:player:position";
/** The current track's stored length and waveform, so a reloaded bar shows them (and seeks) before playing. */
const shapeKey = "crate:player:shape";

const state = player.getState;
let audio: HTMLAudioElement | null = null;
/** The track whose URL the audio element holds, and when that URL stops working. */
let loaded: { trackId: string; expiresAt: number } | null = null;
/** Each load gets a number; an answer for an older load is dropped (the listener moved on). */
let loadNumber = 0;
/** A failed media load is retried once with a freshly signed URL (it may have expired during a pause). */
let retriedLoad = false;
// A play is reported once per listen: after `playCountsAfter` seconds heard, or at the end of a shorter
// track; again when the track is played anew. The database decides whether it counts.
let listened = 0;
let playReported = false;
/**
 * The play ticket each track's URL came with, and when it came (this clock): a play is reported with it,
 * no sooner than the server's wait after it was given.
 */
const tickets = new Map<string, { value: string; afterSeconds: number; receivedAt: number }>();
let lastTime = 0;

function setQueue(patch: Partial<PlayerState>) {
  set(patch);
  save();
}

const current = () => state().queue[state().index];

function save() {
  try {
    const { queue, index, volume, muted, shuffle, repeat, unshuffled } = state();
    sessionStorage.setItem(storageKey, JSON.stringify({ queue, index, volume, muted, shuffle, repeat, unshuffled }));
  } catch {
    // Storage full or refused: the queue still works for this page's life.
  }
}

function savePosition() {
  try {
    sessionStorage.setItem(positionKey, String(Math.floor(state().time)));
  } catch {
    // as above
  }
}

function saveShape(trackId: string) {
  try {
    const { duration, peaks } = state();
    sessionStorage.setItem(shapeKey, JSON.stringify({ trackId, duration, peaks }));
  } catch {
    // as above
  }
}

/** The saved length and waveform, when they are the track's. */
function savedShape(trackId: string | undefined): Pick<PlayerState, "duration" | "peaks"> {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(shapeKey) ?? "null");
    if (!saved || typeof saved !== "object") return { duration: 0, peaks: null };
    const value = saved as Record<string, unknown>;
    if (value.trackId !== trackId) return { duration: 0, peaks: null };
    const peaks = Array.isArray(value.peaks) && value.peaks.every((peak) => typeof peak === "number") ? (value.peaks as number[]) : null;
    return { duration: typeof value.duration === "number" && value.duration > 0 ? value.duration : 0, peaks };
  } catch {
    return { duration: 0, peaks: null };
  }
}

function isQueueTrack(value: unknown): value is QueueTrack {
  if (!value || typeof value !== "object") return false;
  const track = value as Record<string, unknown>;
  return (
    typeof track.id === "string" &&
    typeof track.title === "string" &&
    typeof track.artistId === "string" &&
    typeof track.artistName === "string" &&
    (track.artworkUrl === null || typeof track.artworkUrl === "string") &&
    (track.album === undefined || typeof track.album === "string")
  );
}

/** The tab's saved queue, if any, paused where it was. Anything malformed is ignored. */
function restore() {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? "null");
    if (!saved || typeof saved !== "object") return;
    const value = saved as Record<string, unknown>;
    const queue = Array.isArray(value.queue) ? value.queue.filter(isQueueTrack) : [];
    const index = typeof value.index === "number" && value.index >= 0 && value.index < queue.length ? value.index : queue.length ? 0 : -1;
    const unshuffled = Array.isArray(value.unshuffled) ? value.unshuffled.filter(isQueueTrack) : null;
    const time = Number(sessionStorage.getItem(positionKey)) || 0;
    set({
      queue,
      index,
      status: index >= 0 ? "paused" : "idle",
      time,
      ...savedShape(queue[index]?.id),
      volume: typeof value.volume === "number" && value.volume >= 0 && value.volume <= 1 ? value.volume : state().volume,
      muted: value.muted === true,
      shuffle: value.shuffle === true && unshuffled !== null,
      repeat: value.repeat === "all" || value.repeat === "one" ? value.repeat : "off",
      unshuffled: value.shuffle === true ? unshuffled : null,
    });
  } catch {
    // A corrupt entry is no queue.
  }
}

/** The source route's answer, checked: a URL with when it expires (and the waveform, if stored), or why not. */
function asTrackSource(body: unknown): TrackSource | null {
  if (!body || typeof body !== "object") return null;
  const value = body as Record<string, unknown>;
  if (typeof value.error === "string") return { error: value.error, missing: value.missing === true };
  if (typeof value.url !== "string" || typeof value.expiresAt !== "number") return null;
  const peaks = Array.isArray(value.peaks) && value.peaks.every((peak) => typeof peak === "number") ? (value.peaks as number[]) : null;
  const ticket = value.ticket as Record<string, unknown> | null | undefined;
  return {
    url: value.url,
    expiresAt: value.expiresAt,
    peaks,
    duration: typeof value.duration === "number" ? value.duration : null,
    ...(ticket && typeof ticket.value === "string" && typeof ticket.afterSeconds === "number"
      ? { ticket: { value: ticket.value, afterSeconds: ticket.afterSeconds } }
      : {}),
  };
}

/** The track's audio address and stored waveform, from the audio URL function (through the Worker). */
async function fetchSource(trackId: string): Promise<TrackSource> {
  try {
    const source = asTrackSource(await (await fetch(trackSourcePath(trackId))).json());
    if (!source) return { error: playerErrorMessages.load };
    if ("url" in source) {
      sources.set(trackId, source);
      if (source.ticket) tickets.set(trackId, { ...source.ticket, receivedAt: Date.now() });
    }
    return source;
  } catch {
    return { error: playerErrorMessages.load };
  }
}

/** A URL for the track that will last a while: the one fetched ahead, or a fresh one. */
function freshSource(trackId: string): Promise<TrackSource> {
  const known = sources.get(trackId);
  if (known && known.expiresAt - renewalMarginMs > Date.now()) return Promise.resolve(known);
  return fetchSource(trackId);
}

/** Reports the play with its ticket, once the server's wait after giving it has passed. */
function reportPlay(trackId: string) {
  if (playReported) return;
  playReported = true;
  const ticket = tickets.get(trackId);
  if (!ticket) return;
  const send = () =>
    fetch(`${trackPlayPath(trackId)}?${new URLSearchParams({ ticket: ticket.value })}`, { method: "POST", keepalive: true }).catch(
      () => {},
    );
  const wait = ticket.afterSeconds * 1000 - (Date.now() - ticket.receivedAt);
  if (wait > 0) setTimeout(send, wait + 250);
  else send();
}

function startListen() {
  listened = 0;
  playReported = false;
}

/** Loads the current track's audio (a fresh URL when the held one is missing or dying) and, if asked, plays it. */
async function load(play: boolean, startAt: number) {
  const track = current();
  const media = audio;
  if (!track || !media) return;
  const number = ++loadNumber;
  set({ status: play ? "loading" : "paused", error: null });
  const source = await freshSource(track.id);
  if (number !== loadNumber) return;
  if ("error" in source) {
    loaded = null;
    set({ status: "error", error: source.error });
    return;
  }
  loaded = { trackId: track.id, expiresAt: source.expiresAt };
  // The URL a track page handed over came with no ticket: one is asked for beside the playback.
  if (!tickets.has(track.id)) void fetchSource(track.id);
  if (source.peaks || source.duration) {
    set({ peaks: source.peaks, duration: source.duration ?? state().duration });
    saveShape(track.id);
  }
  media.src = source.url;
  // A position can be set only once the media knows its length (a restored queue, a renewed URL).
  if (startAt > 0) {
    media.addEventListener("loadedmetadata", () => number === loadNumber && (media.currentTime = startAt), { once: true });
  }
  if (play) startPlayback();
}

function startPlayback() {
  audio?.play().catch((cause: unknown) => {
    // A pause or a new load before playback began is not a failure.
    if (cause instanceof DOMException && cause.name === "AbortError") return;
    console.warn("play failed", cause);
    set({ status: "error", error: playerErrorMessages.playback });
  });
}

/** Moves to a track of the queue and plays it from its start. */
function go(index: number, play = true) {
  if (index < 0 || index >= state().queue.length) return;
  startListen();
  lastTime = 0;
  set({ index, time: 0, duration: 0, peaks: null, error: null });
  save();
  savePosition();
  void load(play, 0);
  updateMediaSession();
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** The current track, then `upcoming`: the queue from here on. */
function withUpcoming(upcoming: QueueTrack[]): QueueTrack[] {
  return [...state().queue.slice(0, state().index + 1), ...upcoming];
}

function onTimeUpdate() {
  if (!audio) return;
  const seconds = audio.currentTime;
  const step = seconds - lastTime;
  // Playback time actually heard: small forward steps while playing (a seek is a jump).
  if (!audio.paused && step > 0 && step < 1.5) listened += step;
  lastTime = seconds;
  const track = current();
  if (track && listened >= playCountsAfter) reportPlay(track.id);
  set({ time: seconds });
  savePosition();
  // The next track's URL, fetched ahead so it starts at once.
  const next = state().queue[state().index + 1];
  if (next && state().duration - seconds < prefetchBeforeEndSeconds && !sources.has(next.id)) void fetchSource(next.id);
}

function onEnded() {
  const track = current();
  if (!track || !audio) return;
  // Only a real end: a seek to the end taken back at once is no longer there.
  if (!audio.ended) return;
  // A track shorter than the threshold counts once heard to its end (a second of slack for the steps
  // between time updates); a seek to the end is no listen.
  if (listened >= Math.min(playCountsAfter, audio.duration) - 1) reportPlay(track.id);
  startListen();
  if (state().repeat === "one") {
    audio.currentTime = 0;
    return startPlayback();
  }
  if (state().index + 1 < state().queue.length) return go(state().index + 1);
  if (state().repeat === "all" && state().queue.length > 0) return go(0);
  // The end of the queue: the bar stops here, and never goes on to music nobody asked for.
  set({ status: "paused" });
}

function onError() {
  const track = current();
  if (!track || !audio?.error || loaded?.trackId !== track.id) return;
  const wasPlaying = state().status === "playing" || state().status === "loading";
  if (!retriedLoad) {
    // Most often the signed URL ran out during a long pause: sign it again and carry on from there.
    retriedLoad = true;
    sources.delete(track.id);
    loaded = null;
    void load(wasPlaying, state().time);
    return;
  }
  console.warn("audio player error", audio.error);
  set({ status: "error", error: wasPlaying ? playerErrorMessages.playback : playerErrorMessages.load });
}

function updateMediaSession() {
  if (typeof navigator === "undefined" || !("mediaSession" in navigator)) return;
  const track = current();
  navigator.mediaSession.metadata = track
    ? new MediaMetadata({
        title: track.title,
        artist: track.artistName,
        album: track.album ?? "",
        artwork: track.artworkUrl ? [{ src: new URL(track.artworkUrl, location.href).href }] : [],
      })
    : null;
}

function setMediaSessionActions() {
  if (!("mediaSession" in navigator)) return;
  const session = navigator.mediaSession;
  const actions: [MediaSessionAction, MediaSessionActionHandler][] = [
    ["play", () => engine.play()],
    ["pause", () => engine.pause()],
    ["previoustrack", () => engine.previous()],
    ["nexttrack", () => engine.next()],
    ["seekto", (details) => details.seekTime !== undefined && engine.seek(details.seekTime)],
    ["seekbackward", (details) => engine.seek(state().time - (details.seekOffset ?? 10))],
    ["seekforward", (details) => engine.seek(state().time + (details.seekOffset ?? 10))],
  ];
  for (const [action, handler] of actions) {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  }
}

const mediaEvents: [keyof HTMLMediaElementEventMap, () => void][] = [
  ["timeupdate", onTimeUpdate],
  ["ended", onEnded],
  ["error", onError],
  ["play", () => set({ status: "loading" })],
  [
    "playing",
    () => {
      retriedLoad = false;
      set({ status: "playing" });
      if ("mediaSession" in navigator) navigator.mediaSession.playbackState = "playing";
    },
  ],
  [
    "pause",
    () => {
      if (state().status !== "error") set({ status: "paused" });
      if ("mediaSession" in navigator) navigator.mediaSession.playbackState = "paused";
    },
  ],
  [
    "durationchange",
    () => {
      if (audio && Number.isFinite(audio.duration)) set({ duration: audio.duration });
    },
  ],
];

export const engine = {
  /** The bar hands over its audio element once it is in the page (and null when it leaves). */
  attach(element: HTMLAudioElement | null) {
    if (element === audio) return;
    for (const [event, handler] of mediaEvents) audio?.removeEventListener(event, handler);
    audio = element;
    loaded = null;
    if (!element) return;
    if (state().queue.length === 0) restore();
    element.volume = state().volume;
    element.muted = state().muted;
    for (const [event, handler] of mediaEvents) element.addEventListener(event, handler);
    setMediaSessionActions();
    updateMediaSession();
  },

  /** Plays `tracks` from `start`, in place of the queue (Play on a list, an album or Play All). */
  playTracks(tracks: QueueTrack[], start = 0) {
    if (tracks.length === 0) return;
    setQueue({ queue: tracks, shuffle: false, unshuffled: null });
    go(Math.min(Math.max(start, 0), tracks.length - 1));
  },

  /** Plays the track itself: the current one resumes (or pauses), another starts in place of the queue. */
  toggleTrack(track: QueueTrack) {
    if (current()?.id === track.id) return engine.toggle();
    engine.playTracks([track]);
  },

  play() {
    const track = current();
    if (!track || !audio) return;
    retriedLoad = false;
    if (loaded?.trackId !== track.id || loaded.expiresAt - renewalMarginMs < Date.now()) {
      // Nothing loaded yet (a restored queue), or the URL runs out soon: sign it again, from where it was.
      void load(true, audio.currentTime || state().time);
      return;
    }
    if (audio.ended) startListen();
    startPlayback();
  },
  pause() {
    audio?.pause();
  },
  toggle() {
    if (state().status === "playing" || state().status === "loading") engine.pause();
    else engine.play();
  },
  /** Plays a queued track now (the queue view's rows). */
  playAt(index: number) {
    go(index);
  },
  next() {
    if (state().index + 1 < state().queue.length) go(state().index + 1);
    else if (state().repeat === "all") go(0);
  },
  previous() {
    if (state().time > restartAfterSeconds || state().index === 0) return engine.seek(0);
    go(state().index - 1);
  },
  seek(seconds: number) {
    const target = Math.min(Math.max(seconds, 0), state().duration || seconds);
    if (audio && loaded?.trackId === current()?.id) audio.currentTime = target;
    set({ time: target });
    savePosition();
  },
  setVolume(volume: number) {
    if (audio) {
      audio.volume = volume;
      audio.muted = false;
    }
    setQueue({ volume, muted: false });
  },
  toggleMute() {
    if (audio) audio.muted = !state().muted;
    setQueue({ muted: !state().muted });
  },

  /** Puts a track right after the current one (or plays it, when nothing is queued). */
  playNext(track: QueueTrack) {
    if (state().index < 0) return engine.playTracks([track]);
    setQueue({ queue: withUpcoming([track, ...state().queue.slice(state().index + 1)]) });
  },
  addToQueue(track: QueueTrack) {
    if (state().index < 0) return engine.playTracks([track]);
    setQueue({ queue: [...state().queue, track] });
  },
  /** Takes a track out of the queue; the current one stops and the next takes its place, paused. */
  remove(index: number) {
    if (index < 0 || index >= state().queue.length) return;
    const queue = state().queue.filter((_, i) => i !== index);
    if (index > state().index) return setQueue({ queue });
    if (index < state().index) return setQueue({ queue, index: state().index - 1 });
    audio?.pause();
    loaded = null;
    if (queue.length === 0) return engine.clear();
    setQueue({ queue, index: Math.min(index, queue.length - 1) });
    go(state().index, false);
  },
  /** Moves a queued track to another place; the current track keeps playing wherever it lands. */
  move(from: number, to: number) {
    if (from === to || from < 0 || to < 0 || from >= state().queue.length || to >= state().queue.length) return;
    const queue = [...state().queue];
    const [moved] = queue.splice(from, 1);
    queue.splice(to, 0, moved!);
    const { index } = state();
    const shift = from < index && to >= index ? -1 : from > index && to <= index ? 1 : 0;
    setQueue({ queue, index: from === index ? to : index + shift });
  },
  clear() {
    audio?.pause();
    audio?.removeAttribute("src");
    loaded = null;
    loadNumber++;
    setQueue({ queue: [], index: -1, status: "idle", error: null, time: 0, duration: 0, peaks: null, shuffle: false, unshuffled: null });
    savePosition();
    updateMediaSession();
  },
  /** Shuffle mixes what comes after the current track; turned off, those tracks go back to their order. */
  toggleShuffle() {
    const upcoming = state().queue.slice(state().index + 1);
    if (!state().shuffle) return setQueue({ shuffle: true, unshuffled: upcoming, queue: withUpcoming(shuffled(upcoming)) });
    // Tracks removed while shuffled stay removed; those added since keep their place at the end.
    const unshuffled = state().unshuffled ?? [];
    const upcomingIds = new Set(upcoming.map((track) => track.id));
    const shuffledIds = new Set(unshuffled.map((track) => track.id));
    const restored = unshuffled.filter((track) => upcomingIds.has(track.id));
    const added = upcoming.filter((track) => !shuffledIds.has(track.id));
    setQueue({ shuffle: false, unshuffled: null, queue: withUpcoming([...restored, ...added]) });
  },
  cycleRepeat() {
    const order: Repeat[] = ["off", "all", "one"];
    setQueue({ repeat: order[(order.indexOf(state().repeat) + 1) % order.length] });
  },
};
