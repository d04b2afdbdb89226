// A play counts only for a listener the server gave that track's audio URL long enough before: with the
// URL comes a ticket, signed by the Worker, naming the track, the listener and when it was given; the play
// report must bring it back at least 5 seconds later (a shorter track: its length, less the second the
// player allows at its end). Rotating listener ids buys nothing: each needs its own URL and its wait.

/** Seconds of listening after which a play counts (the player's rule, app/lib/player-engine.ts). */
export const playCountsAfterSeconds = 5;

/** A ticket older than this is refused: a URL given that long ago has expired many times over. */
const ticketLifetimeMs = 6 * 60 * 60 * 1000;

const encoder = new TextEncoder();

const keys = new Map<string, Promise<CryptoKey>>();

/** The ticket's signing key, derived from the Worker's secret (and kept apart from its other uses). */
function signingKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(`play-ticket:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

const fromBase64url = (text: string): Uint8Array<ArrayBuffer> | null => {
  try {
    return Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (character) => character.charCodeAt(0));
  } catch {
    return null;
  }
};

const signed = (trackId: string, listener: string, issuedAt: number, afterSeconds: number) =>
  encoder.encode(`${trackId}|${listener}|${issuedAt}|${afterSeconds}`);

/** How long a track must have been heard before its play counts: 5 s, or a shorter track's length less a second. */
export function secondsBeforeAPlay(durationSeconds: number | null): number {
  if (durationSeconds === null || durationSeconds >= playCountsAfterSeconds) return playCountsAfterSeconds;
  return Math.max(0, Math.floor(durationSeconds) - 1);
}

/** The ticket given with a track's audio URL: `{issued at}.{seconds to wait}.{signature}`. */
export async function playTicket(
  secret: string,
  {
    trackId,
    listener,
    afterSeconds,
    issuedAt = Date.now(),
  }: { trackId: string; listener: string; afterSeconds: number; issuedAt?: number },
): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await signingKey(secret), signed(trackId, listener, issuedAt, afterSeconds));
  return `${issuedAt}.${afterSeconds}.${base64url(signature)}`;
}

/** Whether a play report's ticket was given to this listener for this track, long enough ago. */
export async function ticketHolds(
  secret: string,
  ticket: string | null,
  { trackId, listener, now = Date.now() }: { trackId: string; listener: string; now?: number },
): Promise<"heard" | "too soon" | "no ticket"> {
  const match = /^(\d{13})\.(\d)\.([\w-]{43})$/.exec(ticket ?? "");
  if (!match) return "no ticket";
  const issuedAt = Number(match[1]);
  const afterSeconds = Number(match[2]);
  const signature = fromBase64url(match[3]!);
  if (!signature) return "no ticket";
  const genuine = await crypto.subtle.verify(
    "HMAC",
    await signingKey(secret),
    signature,
    signed(trackId, listener, issuedAt, afterSeconds),
  );
  if (!genuine || now - issuedAt > ticketLifetimeMs) return "no ticket";
  return now - issuedAt >= afterSeconds * 1000 ? "heard" : "too soon";
}
