import type { Repeat } from "~/lib/player";

/** What the Repeat button is called in each mode (its name says the state): the bar's and the queue's. */
export const repeatLabels: Record<Repeat, string> = { off: "Repeat: off", all: "Repeat: all", one: "Repeat: one" };
