// The queue's rules, and nothing else: what plays from a list, what Next, Previous and the end of a
// track lead to, where Play next and Add to queue put a track, what removing and moving do around the
// track playing, and what Shuffle and Repeat do to the order. State in, state out: no audio element, no
// storage, no clock (the engine does those), so every rule is tested on its own.

import { emptyQueue, type Queue, type QueueTrack, type Repeat } from "./queue-state";

export { emptyQueue, type Queue, type QueueTrack, type Repeat } from "./queue-state";

/** Previous within this many seconds of a track's start goes to the track before; later, back to its start. */
export const restartAfterSeconds = 3;

export const currentTrack = (queue: Queue): QueueTrack | undefined => queue.tracks[queue.index];

/** `tracks` in place of the queue, from `start` (Play on a list, an album or Play All); Repeat stays. */
export function playFrom(queue: Queue, tracks: QueueTrack[], start = 0): Queue {
  if (tracks.length === 0) return queue;
  return { ...queue, tracks, index: Math.min(Math.max(start, 0), tracks.length - 1), shuffle: false, unshuffled: null };
}

/** The track Next goes to: the one after, the first again when repeating all, else none. */
export function nextIndex(queue: Queue): number | null {
  if (queue.index + 1 < queue.tracks.length) return queue.index + 1;
  return queue.repeat === "all" && queue.tracks.length > 0 ? 0 : null;
}

/** Previous: back to the start of this track (late in it, or the first), else the track before. */
export function previousStep(queue: Queue, seconds: number): { restart: true } | { index: number } {
  if (seconds > restartAfterSeconds || queue.index <= 0) return { restart: true };
  return { index: queue.index - 1 };
}

/** What follows the end of a track: itself again (Repeat one), another track, or the end of listening. */
export function afterEnd(queue: Queue): { again: true } | { index: number } | { stop: true } {
  if (queue.repeat === "one") return { again: true };
  const index = nextIndex(queue);
  return index === null ? { stop: true } : { index };
}

/** Goes to a queued track (a row's Play, Next, Previous). */
export function goTo(queue: Queue, index: number): Queue {
  if (index < 0 || index >= queue.tracks.length) return queue;
  return { ...queue, index };
}

/** The current track, then `upcoming`: the queue from here on. */
const withUpcoming = (queue: Queue, upcoming: QueueTrack[]) => [...queue.tracks.slice(0, queue.index + 1), ...upcoming];

/** Right after the current track; with nothing queued, the track alone (and it plays). */
export function playNext(queue: Queue, track: QueueTrack): Queue {
  if (queue.index < 0) return playFrom(queue, [track]);
  return { ...queue, tracks: withUpcoming(queue, [track, ...queue.tracks.slice(queue.index + 1)]) };
}

/** At the end; with nothing queued, the track alone (and it plays). */
export function addToQueue(queue: Queue, track: QueueTrack): Queue {
  if (queue.index < 0) return playFrom(queue, [track]);
  return { ...queue, tracks: [...queue.tracks, track] };
}

/**
 * Takes a track out. The current one's place goes to the track after it (or the new last), which the
 * engine loads paused; the last one out leaves the queue empty.
 */
export function remove(queue: Queue, index: number): { queue: Queue; currentRemoved: boolean } {
  if (index < 0 || index >= queue.tracks.length) return { queue, currentRemoved: false };
  const tracks = queue.tracks.filter((_, i) => i !== index);
  if (tracks.length === 0) return { queue: clear(queue), currentRemoved: true };
  if (index > queue.index) return { queue: { ...queue, tracks }, currentRemoved: false };
  if (index < queue.index) return { queue: { ...queue, tracks, index: queue.index - 1 }, currentRemoved: false };
  return { queue: { ...queue, tracks, index: Math.min(index, tracks.length - 1) }, currentRemoved: true };
}

/** Moves a track to another place; the current track stays current wherever it lands. */
export function move(queue: Queue, from: number, to: number): Queue {
  const { tracks, index } = queue;
  if (from === to || from < 0 || to < 0 || from >= tracks.length || to >= tracks.length) return queue;
  const moved = [...tracks];
  const [track] = moved.splice(from, 1);
  moved.splice(to, 0, track!);
  const shift = from < index && to >= index ? -1 : from > index && to <= index ? 1 : 0;
  return { ...queue, tracks: moved, index: from === index ? to : index + shift };
}

/** Nothing queued; Repeat, a choice of the listener's, stays. */
export function clear(queue: Queue): Queue {
  return { ...emptyQueue, repeat: queue.repeat };
}

/** A fair shuffle (Fisher–Yates) with the random source given (`Math.random` in the player). */
export function shuffled<T>(items: T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * Shuffle mixes what comes after the current track; turned off, those tracks go back to their order:
 * tracks removed while shuffled stay removed, and those added since keep their place at the end.
 */
export function toggleShuffle(queue: Queue, random: () => number): Queue {
  const upcoming = queue.tracks.slice(queue.index + 1);
  if (!queue.shuffle) return { ...queue, shuffle: true, unshuffled: upcoming, tracks: withUpcoming(queue, shuffled(upcoming, random)) };
  const unshuffled = queue.unshuffled ?? [];
  const upcomingIds = new Set(upcoming.map((track) => track.id));
  const shuffledIds = new Set(unshuffled.map((track) => track.id));
  const restored = unshuffled.filter((track) => upcomingIds.has(track.id));
  const added = upcoming.filter((track) => !shuffledIds.has(track.id));
  return { ...queue, shuffle: false, unshuffled: null, tracks: withUpcoming(queue, [...restored, ...added]) };
}

const repeatOrder: Repeat[] = ["off", "all", "one"];

/** Off, all, one, off. */
export function cycleRepeat(queue: Queue): Queue {
  return { ...queue, repeat: repeatOrder[(repeatOrder.indexOf(queue.repeat) + 1) % repeatOrder.length]! };
}

/** A queue as the tab saved it, checked: anything malformed is dropped (a corrupt entry is no queue). */
export function parseSavedQueue(saved: unknown): Queue | null {
  if (!saved || typeof saved !== "object") return null;
  const value = saved as Record<string, unknown>;
  // `queue` is the name earlier versions saved the tracks under.
  const listed = Array.isArray(value.tracks) ? value.tracks : Array.isArray(value.queue) ? value.queue : [];
  const tracks = listed.filter(isQueueTrack);
  const index = typeof value.index === "number" && value.index >= 0 && value.index < tracks.length ? value.index : tracks.length ? 0 : -1;
  const unshuffled = Array.isArray(value.unshuffled) ? value.unshuffled.filter(isQueueTrack) : null;
  const shuffle = value.shuffle === true && unshuffled !== null;
  return {
    tracks,
    index,
    shuffle,
    repeat: value.repeat === "all" || value.repeat === "one" ? value.repeat : "off",
    unshuffled: shuffle ? unshuffled : null,
  };
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
