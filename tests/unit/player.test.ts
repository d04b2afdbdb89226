import { describe, expect, it } from "vitest";
import { heard, heardEnough, heardToTheEnd, lastsToPlay, parseTrackSource, waitForTicket } from "~/lib/player/listening";
import * as queue from "~/lib/player/queue";
import { emptyQueue, type Queue, type QueueTrack } from "~/lib/player/queue";
import { playedShare, waveformBars } from "~/lib/player/waveform";

// The player's rules on their own, with no media element and no DOM (the browser suite plays real
// audio): the queue's (what plays where, what moves, what shuffle and repeat do to the order), the
// rules of listening the site and the embeds share, and the waveform's geometry.

const track = (title: string): QueueTrack => ({ id: title, title, artistId: "a", artistName: "Artist", artworkUrl: null });
const album = ["One", "Two", "Three", "Four"].map(track);
const order = (state: Queue) => state.tracks.map((queued) => queued.title);
const playing = (state: Queue) => queue.currentTrack(state)?.title;
/** A random source that replays `values` in turn, so a shuffle's order is known. */
const replaying = (values: number[]) => {
  let next = 0;
  return () => values[next++ % values.length]!;
};

describe("the queue", () => {
  it("plays a list from the track chosen; Next walks it and stops at the end, unless repeating all", () => {
    let state = queue.playFrom(emptyQueue, album, 1);
    expect(playing(state)).toBe("Two");
    expect(queue.nextIndex(state)).toBe(2);
    state = queue.goTo(state, 3);
    expect(queue.nextIndex(state)).toBeNull();
    expect(queue.afterEnd(state)).toEqual({ stop: true });
    state = queue.cycleRepeat(state);
    expect(state.repeat).toBe("all");
    expect(queue.nextIndex(state)).toBe(0);
    expect(queue.afterEnd(state)).toEqual({ index: 0 });
    state = queue.cycleRepeat(state);
    expect(state.repeat).toBe("one");
    expect(queue.afterEnd(state)).toEqual({ again: true });
    expect(queue.cycleRepeat(state).repeat).toBe("off");
    expect(queue.playFrom(state, album, 99).index).toBe(3);
    expect(queue.playFrom(state, [], 0)).toBe(state);
  });

  it("goes back a track early in one, and to its start later or on the first", () => {
    const state = queue.playFrom(emptyQueue, album, 2);
    expect(queue.previousStep(state, 1)).toEqual({ index: 1 });
    expect(queue.previousStep(state, queue.restartAfterSeconds + 1)).toEqual({ restart: true });
    expect(queue.previousStep(queue.goTo(state, 0), 0)).toEqual({ restart: true });
    expect(queue.goTo(state, 9)).toBe(state);
  });

  it("puts Play next after the current track and Add to queue at the end; with nothing queued, either plays at once", () => {
    expect(queue.addToQueue(emptyQueue, track("Alone"))).toMatchObject({ index: 0, tracks: [track("Alone")] });
    expect(queue.playNext(emptyQueue, track("Alone"))).toMatchObject({ index: 0, tracks: [track("Alone")] });
    let state = queue.playFrom(emptyQueue, album);
    state = queue.addToQueue(state, track("Last"));
    state = queue.playNext(state, track("Soon"));
    expect(order(state)).toEqual(["One", "Soon", "Two", "Three", "Four", "Last"]);
    expect(playing(state)).toBe("One");
  });

  it("moves tracks around the one playing, which stays current wherever it lands", () => {
    let state = queue.playFrom(emptyQueue, album, 1);
    state = queue.move(state, 3, 0);
    expect(order(state)).toEqual(["Four", "One", "Two", "Three"]);
    expect(playing(state)).toBe("Two");
    state = queue.move(state, 2, 3);
    expect(order(state)).toEqual(["Four", "One", "Three", "Two"]);
    expect(playing(state)).toBe("Two");
    state = queue.move(state, 0, 3);
    expect(playing(state)).toBe("Two");
    expect(queue.move(state, 9, 0)).toBe(state);
    expect(order(state)).toEqual(["One", "Three", "Two", "Four"]);
  });

  it("removes a track; removing the one playing gives its place to the next; removing the last empties the queue", () => {
    let state = queue.playFrom(emptyQueue, album, 1);
    let removed = queue.remove(state, 0);
    expect(removed.currentRemoved).toBe(false);
    state = removed.queue;
    expect(order(state)).toEqual(["Two", "Three", "Four"]);
    expect(playing(state)).toBe("Two");
    removed = queue.remove(state, 0);
    expect(removed).toMatchObject({ currentRemoved: true });
    expect(playing(removed.queue)).toBe("Three");
    state = queue.goTo(removed.queue, 1);
    removed = queue.remove(state, 1);
    expect(playing(removed.queue)).toBe("Three");
    removed = queue.remove(removed.queue, 0);
    expect(removed).toEqual({ queue: emptyQueue, currentRemoved: true });
    expect(queue.clear(queue.cycleRepeat(state))).toEqual({ ...emptyQueue, repeat: "all" });
  });

  it("shuffles only what comes next, in the order its random source gives, and puts it back when shuffle ends", () => {
    const state = queue.playFrom(emptyQueue, album, 0);
    // Fisher–Yates over Two, Three, Four with 0 each time: Four swaps with Two, then Three with Four.
    const mixed = queue.toggleShuffle(state, () => 0);
    expect(mixed.shuffle).toBe(true);
    expect(order(mixed)).toEqual(["One", "Three", "Four", "Two"]);
    expect(queue.shuffled([1, 2, 3, 4], replaying([0.99]))).toEqual([1, 2, 3, 4]);
    // Meanwhile one is added and one removed: off again, the rest are in their order, the added one last.
    const changed = queue.remove(queue.addToQueue(mixed, track("Added")), 1).queue;
    expect(order(queue.toggleShuffle(changed, Math.random))).toEqual(["One", "Two", "Four", "Added"]);
    expect(queue.toggleShuffle(changed, Math.random)).toMatchObject({ shuffle: false, unshuffled: null });
    // A new list ends the shuffle.
    expect(queue.playFrom(mixed, album)).toMatchObject({ shuffle: false, unshuffled: null });
  });

  it("a shuffle of many keeps every track, with the current one first", () => {
    const many = Array.from({ length: 30 }, (_, n) => track(`T${n}`));
    const mixed = queue.toggleShuffle(queue.playFrom(emptyQueue, many, 2), Math.random);
    expect(order(mixed).slice(0, 3)).toEqual(["T0", "T1", "T2"]);
    expect(new Set(order(mixed))).toEqual(new Set(order({ ...emptyQueue, tracks: many })));
  });

  it("reads a saved queue back, dropping what is malformed", () => {
    const saved = { tracks: [...album, { id: 1 }], index: 2, shuffle: true, unshuffled: [album[3]], repeat: "one" };
    expect(queue.parseSavedQueue(JSON.parse(JSON.stringify(saved)))).toEqual({
      tracks: album,
      index: 2,
      shuffle: true,
      unshuffled: [album[3]],
      repeat: "one",
    });
    expect(queue.parseSavedQueue({ queue: album, index: 9, repeat: "sometimes" })).toMatchObject({
      index: 0,
      repeat: "off",
      shuffle: false,
    });
    expect(queue.parseSavedQueue("nonsense")).toBeNull();
    expect(queue.parseSavedQueue({})).toMatchObject({ tracks: [], index: -1 });
  });
});

describe("the rules of listening", () => {
  it("counts heard playback in small forward steps while playing, never a seek or a pause", () => {
    let listened = heard(0, 0, 0.25, false);
    listened = heard(listened, 0.25, 0.5, false);
    expect(listened).toBe(0.5);
    expect(heard(listened, 0.5, 30, false)).toBe(0.5);
    expect(heard(listened, 0.5, 0.75, true)).toBe(0.5);
    expect(heard(listened, 0.75, 0.5, false)).toBe(0.5);
    expect(heardEnough(4.9)).toBe(false);
    expect(heardEnough(5)).toBe(true);
  });

  it("counts a short track heard to its end, not one sought to its end", () => {
    expect(heardToTheEnd(2.1, 3)).toBe(true);
    expect(heardToTheEnd(0.2, 3)).toBe(false);
    expect(heardToTheEnd(4, 60)).toBe(true);
  });

  it("renews a URL within a minute of its end, and waits out a ticket's delay", () => {
    expect(lastsToPlay(1_000_000 + 61_000, 1_000_000)).toBe(true);
    expect(lastsToPlay(1_000_000 + 59_000, 1_000_000)).toBe(false);
    expect(waitForTicket({ value: "t", afterSeconds: 5 }, 1_000, 3_000)).toBe(3_000);
    expect(waitForTicket({ value: "t", afterSeconds: 5 }, 1_000, 9_000)).toBe(0);
  });

  it("reads a source answer, refusing what is not one", () => {
    expect(
      parseTrackSource({ url: "https://a/b", expiresAt: 5, peaks: [0.5, "x"], duration: 30, ticket: { value: "v", afterSeconds: 5 } }),
    ).toEqual({
      url: "https://a/b",
      expiresAt: 5,
      peaks: null,
      duration: 30,
      ticket: { value: "v", afterSeconds: 5 },
    });
    expect(parseTrackSource({ error: "No audio", missing: true })).toEqual({ error: "No audio", missing: true });
    expect(parseTrackSource({ url: "https://a/b" })).toBeNull();
    expect(parseTrackSource(null)).toBeNull();
  });
});

describe("the waveform", () => {
  it("draws a bar per peak, centred, at least 2 high, and an even line without peaks", () => {
    expect(waveformBars([1, 0, 0.5])).toEqual([
      { x: 0, y: 0, width: 2, height: 100, rx: 0.5 },
      { x: 3, y: 49, width: 2, height: 2, rx: 0.5 },
      { x: 6, y: 25, width: 2, height: 50, rx: 0.5 },
    ]);
    const flat = waveformBars(null);
    expect(new Set(flat.map((bar) => bar.height))).toEqual(new Set([8]));
    expect(playedShare(30, 60)).toBe(0.5);
    expect(playedShare(90, 60)).toBe(1);
    expect(playedShare(5, 0)).toBe(0);
  });
});
