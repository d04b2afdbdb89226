// Values the Worker hands out and must recognise when they come back: a play ticket, an embed's pass.
// Each is signed with a key derived from the Worker's secret for its purpose, so one purpose's signature
// is never another's.
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function signingKey(secret: string, purpose: string): Promise<CryptoKey> {
  const name = `${purpose}:${secret}`;
  let key = keys.get(name);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(name), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(name, key);
  }
  return key;
}

const base64url = (bytes: Uint8Array<ArrayBuffer> | ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

/**
 * The bytes `text` spells, or null unless it is their one spelling: atob ignores the unused low bits of
 * the last character, so without this check a signature would have several spellings that all verify.
 */
function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    const bytes = Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (character) => character.charCodeAt(0));
    return base64url(bytes) === text ? bytes : null;
  } catch {
    return null;
  }
}

/** The signature of `text` for `purpose`, base64url (43 characters). */
export async function signature(secret: string, purpose: string, text: string): Promise<string> {
  return base64url(await crypto.subtle.sign("HMAC", await signingKey(secret, purpose), encoder.encode(text)));
}

/** Whether `signed` (base64url) is `text`'s signature for `purpose`. */
async function isSignature(secret: string, purpose: string, text: string, signed: string): Promise<boolean> {
  const bytes = fromBase64url(signed);
  return bytes !== null && crypto.subtle.verify("HMAC", await signingKey(secret, purpose), bytes, encoder.encode(text));
}

// A play counts only for a listener the server gave that track's audio URL long enough before: with the
// URL comes a ticket, signed by the Worker, naming the track, the listener and when it was given; the play
// report must bring it back at least 5 seconds later (a shorter track: its length, less the second the
// player allows at its end). Rotating listener ids buys nothing: each needs its own URL and its wait.

/** Seconds of listening after which a play counts (the player's rule, app/lib/player/listening.ts). */
const playCountsAfterSeconds = 5;

/** A ticket older than this is refused: a URL given that long ago has expired many times over. */
const ticketLifetimeMs = 6 * 60 * 60 * 1000;

const purpose = "play-ticket";

const signed = (trackId: string, listener: string, issuedAt: number, afterSeconds: number) =>
  `${trackId}|${listener}|${issuedAt}|${afterSeconds}`;

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
  return `${issuedAt}.${afterSeconds}.${await signature(secret, purpose, signed(trackId, listener, issuedAt, afterSeconds))}`;
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
  const genuine = await isSignature(secret, purpose, signed(trackId, listener, issuedAt, afterSeconds), match[3]!);
  if (!genuine || now - issuedAt > ticketLifetimeMs) return "no ticket";
  return now - issuedAt >= afterSeconds * 1000 ? "heard" : "too soon";
}

// An embed's pass: handed to every embedded player with its page, and brought back with its play reports.
// It names the site that framed the player (taken from the embed request's own Referer, embeddingSite;
// empty when none was known) for the artist's analytics, and it is what lets a report come from a frame
// whose origin the browser hides (a sandboxed frame's is `null`): the Worker believes the report came from
// an embed it served only when the pass comes back unchanged. The honest-play rules apply as to any play.
const embedPassPurpose = "embed-pass";

/** The pass an embed's player is served with: `{site, base64url}.{signature}`. */
export async function embedPass(secret: string, site: string | null): Promise<string> {
  return `${base64url(encoder.encode(site ?? ""))}.${await signature(secret, embedPassPurpose, site ?? "")}`;
}

/** What a pass says (the framing site, or null when none was known), or null when this Worker did not sign it. */
export async function readEmbedPass(secret: string, value: string | null): Promise<{ site: string | null } | null> {
  const match = /^([\w-]{0,400})\.([\w-]{43})$/.exec(value ?? "");
  const bytes = match ? fromBase64url(match[1]!) : null;
  if (!match || !bytes) return null;
  const site = new TextDecoder().decode(bytes);
  return (await isSignature(secret, embedPassPurpose, site, match[2]!)) ? { site: site || null } : null;
}

// A guest's receipt link: it names the guest's order and until when it holds (30 days from the payment),
// signed, so whoever holds it downloads what the order bought in any browser, without an account, and
// nobody can make one for another order. `{order id}.{until, seconds}.{signature}` as the return page hands
// it to the browser that paid; `{order id}.{until}.m.{signature}` as the receipt mail carries it, which
// proves its holder reads the order's mailbox (as a confirmation link would): that one alone adds the
// order to the account with that email.
const receiptPassPurpose = "receipt-pass";

/** How long a receipt link holds after the payment. */
export const receiptPassDays = 30;

/** Where a receipt link is handed out: in the receipt mail, or on the return page to the browser that paid. */
export type ReceiptPassHandedOut = "mail" | "return page";

const receiptPassSigned = (orderId: string, until: string, mailed: boolean) => `${orderId}|${until}${mailed ? "|mail" : ""}`;

export async function receiptPass(secret: string, orderId: string, paidAt: Date, handedOut: ReceiptPassHandedOut): Promise<string> {
  const until = String(Math.floor(paidAt.getTime() / 1000) + receiptPassDays * 24 * 3600);
  const mailed = handedOut === "mail";
  return `${orderId}.${until}.${mailed ? "m." : ""}${await signature(secret, receiptPassPurpose, receiptPassSigned(orderId, until, mailed))}`;
}

/**
 * The order a receipt link names and whether it is the mailed one, or null when this Worker did not sign it
 * or it has lapsed.
 */
export async function readReceiptPass(
  secret: string,
  pass: string | null,
  now = Date.now(),
): Promise<{ orderId: string; mailed: boolean } | null> {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,12})\.(m\.)?([\w-]{43})$/.exec(pass ?? "");
  if (!match || Number(match[2]) * 1000 < now) return null;
  const [orderId, until, mailed, signed] = [match[1]!, match[2]!, match[3] !== undefined, match[4]!];
  return (await isSignature(secret, receiptPassPurpose, receiptPassSigned(orderId, until, mailed), signed)) ? { orderId, mailed } : null;
}

// An unsubscribe link, in every release mail and its List-Unsubscribe header: it names the address and
// the artist whose release mail it stops (or every artist's), signed, so whoever holds the mail stops it
// without signing in, and nobody can make one for another address or artist. It does not lapse: a mail
// read a year later must still stop the next. `{address, base64url}.{artist id | all}.{signature}`.
const unsubscribePurpose = "unsubscribe";

/** What an unsubscribe link stops: `artistId` null for every artist's release mail. */
export type Unsubscribe = { email: string; artistId: string | null };

export async function unsubscribePass(secret: string, { email, artistId }: Unsubscribe): Promise<string> {
  const address = email.toLowerCase();
  const artist = artistId ?? "all";
  return `${base64url(encoder.encode(address))}.${artist}.${await signature(secret, unsubscribePurpose, `${address}|${artist}`)}`;
}

/** What a link says, or null when this Worker did not sign it (forged, altered, or another address's changed). */
export async function readUnsubscribePass(secret: string, pass: string | null): Promise<Unsubscribe | null> {
  const match = /^([\w-]{1,440})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|all)\.([\w-]{43})$/.exec(pass ?? "");
  const bytes = match ? fromBase64url(match[1]!) : null;
  if (!match || !bytes) return null;
  const email = new TextDecoder().decode(bytes);
  if (!(await isSignature(secret, unsubscribePurpose, `${email}|${match[2]}`, match[3]!))) return null;
  return { email, artistId: match[2] === "all" ? null : match[2]! };
}

// A checkout's way back (the payment page's cancel link): it names the order, signed, so coming back ends
// that checkout at once, and only for whoever was given the link (the browser that opened it): the order's
// id alone, which the artists of its lines see, ends nothing. `{order id}.{signature}`.
const checkoutBackPurpose = "checkout-back";

export async function checkoutBackPass(secret: string, orderId: string): Promise<string> {
  return `${orderId}.${await signature(secret, checkoutBackPurpose, orderId)}`;
}

/** The order a way back names, or null when this Worker did not sign it. */
export async function readCheckoutBackPass(secret: string, pass: string | null): Promise<string | null> {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{43})$/.exec(pass ?? "");
  if (!match) return null;
  return (await isSignature(secret, checkoutBackPurpose, match[1]!, match[2]!)) ? match[1]! : null;
}

// A newsletter signup's confirmation link, in the mail the signup sends: it names that mail (which names
// the address and the artist), signed, so whoever holds the mail confirms without signing in, and nobody
// can make one for another signup. The database says whether it was used. `{mail id}.{signature}`.
const newsletterPassPurpose = "newsletter-confirmation";

export async function newsletterPass(secret: string, mailId: string): Promise<string> {
  return `${mailId}.${await signature(secret, newsletterPassPurpose, mailId)}`;
}

/** The confirmation mail a link names, or null when this Worker did not sign it. */
export async function readNewsletterPass(secret: string, pass: string | null): Promise<string | null> {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([\w-]{43})$/.exec(pass ?? "");
  if (!match) return null;
  return (await isSignature(secret, newsletterPassPurpose, match[1]!, match[2]!)) ? match[1]! : null;
}

// A gift's claim link, in the mail to its recipient: it names the gift and its recipient's turn
// (`link_version`, raised when the giver gives it to another address, so the earlier address's link claims
// nothing), signed, so only the link's holder claims it and nobody can make one for another gift. It does
// not lapse: a gift waits to be claimed. `{gift id}.{version}.{signature}`.
const giftPassPurpose = "gift-claim";

export async function giftPass(secret: string, giftId: string, version: number): Promise<string> {
  return `${giftId}.${version}.${await signature(secret, giftPassPurpose, `${giftId}|${version}`)}`;
}

/** The gift a claim link names and its recipient's turn, or null when this Worker did not sign it. */
export async function readGiftPass(secret: string, pass: string | null): Promise<{ giftId: string; version: number } | null> {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.(\d{1,9})\.([\w-]{43})$/.exec(pass ?? "");
  if (!match) return null;
  const [giftId, version, signed] = [match[1]!, Number(match[2]), match[3]!];
  return (await isSignature(secret, giftPassPurpose, `${giftId}|${version}`, signed)) ? { giftId, version } : null;
}
