// What a queue is: its tracks, the one playing, Shuffle and Repeat. Every page holds this (the store's
// state is made of it); the rules that change it (`queue.ts`) load with the engine.

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

export type Repeat = "off" | "all" | "one";

export type Queue = {
  tracks: QueueTrack[];
  /** The track playing (or paused), or -1 when nothing is queued. */
  index: number;
  shuffle: boolean;
  repeat: Repeat;
  /** The upcoming tracks in their own order while shuffle has mixed them, to put back when it ends. */
  unshuffled: QueueTrack[] | null;
};

export const emptyQueue: Queue = { tracks: [], index: -1, shuffle: false, repeat: "off", unshuffled: null };
