import { beforeEach, describe, expect, it } from "vitest";
import { player, type QueueTrack } from "~/lib/player";
import { engine } from "~/lib/player-engine";

// The queue's rules, without a media element (the browser suite plays real audio): what plays where,
// what moves, and what shuffle and repeat do to the order.

const track = (title: string): QueueTrack => ({ id: title, title, artistId: "a", artistName: "Artist", artworkUrl: null });
const album = ["One", "Two", "Three", "Four"].map(track);
const order = () => player.getState().queue.map((queued) => queued.title);
const playing = () => player.getState().queue[player.getState().index]?.title;

beforeEach(() => engine.clear());

describe("the queue", () => {
  it("plays a list from the track chosen, and previous and next walk it; the end stops, unless repeating all", () => {
    engine.playTracks(album, 1);
    expect(playing()).toBe("Two");
    engine.next();
    engine.next();
    expect(playing()).toBe("Four");
    engine.next();
    expect(playing()).toBe("Four");
    engine.cycleRepeat();
    expect(player.getState().repeat).toBe("all");
    engine.next();
    expect(playing()).toBe("One");
    engine.previous();
    expect(playing()).toBe("One");
    engine.cycleRepeat();
    engine.cycleRepeat();
    expect(player.getState().repeat).toBe("off");
  });

  it("puts Play next after the current track and Add to queue at the end; with nothing queued, either plays at once", () => {
    engine.addToQueue(track("Alone"));
    expect(order()).toEqual(["Alone"]);
    expect(playing()).toBe("Alone");
    engine.playTracks(album);
    engine.addToQueue(track("Last"));
    engine.playNext(track("Soon"));
    expect(order()).toEqual(["One", "Soon", "Two", "Three", "Four", "Last"]);
  });

  it("moves tracks around the one playing, which keeps playing wherever it lands", () => {
    engine.playTracks(album, 1);
    engine.move(3, 0);
    expect(order()).toEqual(["Four", "One", "Two", "Three"]);
    expect(playing()).toBe("Two");
    engine.move(2, 3);
    expect(order()).toEqual(["Four", "One", "Three", "Two"]);
    expect(playing()).toBe("Two");
    engine.move(0, 3);
    expect(playing()).toBe("Two");
    engine.move(9, 0);
    expect(order()).toEqual(["One", "Three", "Two", "Four"]);
  });

  it("removes a track; removing the one playing moves on to the next; removing the last empties the queue", () => {
    engine.playTracks(album, 1);
    engine.remove(0);
    expect(order()).toEqual(["Two", "Three", "Four"]);
    expect(playing()).toBe("Two");
    engine.remove(0);
    expect(playing()).toBe("Three");
    engine.remove(1);
    engine.remove(0);
    expect(player.getState()).toMatchObject({ queue: [], index: -1, status: "idle" });
  });

  it("shuffles only what comes next, and puts it back in order when shuffle ends (keeping what was added meanwhile)", () => {
    const many = Array.from({ length: 30 }, (_, n) => track(`T${n}`));
    engine.playTracks(many, 2);
    engine.toggleShuffle();
    expect(player.getState().shuffle).toBe(true);
    expect(order().slice(0, 3)).toEqual(["T0", "T1", "T2"]);
    expect(new Set(order())).toEqual(new Set(many.map((queued) => queued.title)));
    expect(order().slice(3)).not.toEqual(many.slice(3).map((queued) => queued.title));
    engine.addToQueue(track("Added"));
    engine.remove(player.getState().queue.findIndex((queued) => queued.title === "T10"));
    engine.toggleShuffle();
    expect(order()).toEqual([...many.map((queued) => queued.title).filter((title) => title !== "T10"), "Added"]);
  });
});
