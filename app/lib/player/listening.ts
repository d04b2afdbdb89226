// The rules of listening that the site's player and the embedded player share (the embed's script is
// built from this same module): when a signed URL is too old to start on, how much heard playback is a
// play, and what an audio source answer must hold. No DOM, no state of its own.

/** A signed URL this close to its end is renewed before playing, so playback never starts on a dying URL. */
const renewalMarginMs = 60_000;

/** Seconds heard after which a play is reported (enough to tell listening from skipping). */
const playCountsAfter = 5;

/** The next track's URL is fetched this long before the current one ends, so it starts without a wait. */
export const prefetchBeforeEndSeconds = 20;

/** Whether a URL that stops working at `expiresAt` still serves to start playing now. */
export const lastsToPlay = (expiresAt: number, now = Date.now()) => expiresAt - renewalMarginMs > now;

/**
 * Heard playback, as the media clock moves: small forward steps while playing count (a seek is a jump,
 * and a pause hears nothing). Returns the seconds heard so far.
 */
export function heard(listened: number, from: number, to: number, paused: boolean): number {
  const step = to - from;
  return !paused && step > 0 && step < 1.5 ? listened + step : listened;
}

/** A play, once `playCountsAfter` seconds are heard. */
export const heardEnough = (listened: number) => listened >= playCountsAfter;

/**
 * A track shorter than the threshold counts once heard to its end (a second of slack for the steps
 * between time updates); a seek to the end is no listen.
 */
export const heardToTheEnd = (listened: number, duration: number) => listened >= Math.min(playCountsAfter, duration) - 1;

/** The ticket a track's URL comes with: a play is reported with it, no sooner than `afterSeconds` after. */
export type PlayTicket = { value: string; afterSeconds: number };

/** Where a track streams from (a signed URL and when it stops working), or why it cannot (`missing`: it has no audio). */
export type AudioSource = { url: string; expiresAt: number } | { error: string; missing?: boolean };

/** An audio source with the track's stored waveform and length, and the play ticket it came with (none for a page's). */
export type TrackSource =
  | (Extract<AudioSource, { url: string }> & { peaks: number[] | null; duration: number | null; ticket?: PlayTicket })
  | Extract<AudioSource, { error: string }>;

/** The source route's answer, checked: a URL with when it expires (and the waveform, if stored), or why not. */
export function parseTrackSource(body: unknown): TrackSource | null {
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

/** How long to wait before reporting a play with a ticket received at `receivedAt` (ms; 0: now). */
export const waitForTicket = (ticket: PlayTicket, receivedAt: number, now = Date.now()) =>
  Math.max(ticket.afterSeconds * 1000 - (now - receivedAt), 0);
