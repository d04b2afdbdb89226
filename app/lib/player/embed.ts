// The embedded player's script (the embed pages at /embed/…, served as `/embed-player.js`): plays the
// frame's tracks with the browser's audio element, draws the stored waveform as the position moves,
// seeks by pointer and keyboard, moves through an album or a playlist, and reports plays by the site's
// rules. No framework: the embed is the first thing a reader of another site loads. Built on its own
// (see `vite.config.ts`) from the same rules as the site's player (`listening.ts`, `waveform.ts`), so a
// rule is written once. It asks for signed audio URLs and reports plays without cookies: an embed never
// uses a Crate session. It plays in a sandboxed frame too (WordPress frames every player it discovers with
// `sandbox="allow-scripts"` alone): its requests need no origin of its own, and its links go out through
// WordPress's embed protocol, or, where no host opens them, as an address to copy.
import { heard, heardEnough, heardToTheEnd, lastsToPlay, parseTrackSource, waitForTicket, type PlayTicket } from "./listening";
import { playerErrorMessages } from "./messages";
import { playedShare, waveformBars, waveformWidth } from "./waveform";

/** A track as the embed page lists it (its JSON). */
type EmbedTrack = {
  id: string;
  title: string;
  artistName: string;
  href: string;
  artistHref: string;
  duration: number | null;
  peaks: number[] | null;
};

const seekStepSeconds = 5;

function element<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (!found) throw new Error(`the embed page has no ${selector}`);
  return found;
}

const clock = (seconds: number) => {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
};

// A random (version 4) id. crypto.randomUUID exists only in secure contexts, and a frame inside an http
// page is none, so the id is made from getRandomValues, which every context has.
function newListenerId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type ListeningWindow = Window & { crateListener?: string };

/** The id another player of this page holds (a frame may read a sibling frame of its own origin). */
function siblingListener(): string | null {
  for (let index = 0; index < window.parent.frames.length; index++) {
    try {
      const id = (window.parent.frames[index] as ListeningWindow).crateListener;
      if (typeof id === "string") return id;
    } catch {
      // a frame of another origin
    }
  }
  return null;
}

/**
 * The listener id this site's embeds share, so a play reported twice counts once, as on Crate: kept in
 * storage (which the browser keeps apart per embedding site), read when a track is asked for rather than
 * when the frame loads (two players on one page load together, and each would make its own id). Where
 * the browser gives a frame no storage, the players of one page still share one through each other.
 */
function listenerId(): string {
  const self = window as ListeningWindow;
  let id = self.crateListener ?? null;
  try {
    id = localStorage.getItem("crate:listener") ?? id ?? siblingListener() ?? newListenerId();
    localStorage.setItem("crate:listener", id);
  } catch {
    id ??= siblingListener() ?? newListenerId();
  }
  self.crateListener = id;
  return id;
}

function startEmbeddedPlayer() {
  const tracks = JSON.parse(element("[data-tracks]").textContent ?? "[]") as EmbedTrack[];
  const audio = element<HTMLAudioElement>("[data-audio]");
  const play = element<HTMLButtonElement>("[data-play]");
  const slider = element<HTMLElement>("[role=slider]");
  const svg = slider.querySelector("svg")!;
  const gradient = slider.querySelector("linearGradient")!;
  const stops = slider.querySelectorAll("stop");
  const bars = slider.querySelector("g")!;
  const time = element<HTMLElement>("[data-time]");
  const title = element<HTMLAnchorElement>("[data-title]");
  const artist = element<HTMLAnchorElement>("[data-artist]");
  const status = element<HTMLElement>("[data-status]");
  const rows = [...document.querySelectorAll<HTMLButtonElement>("[data-track]")];
  const icon = play.querySelector("use")!;
  // The pass the server gave this page: brought back with each play, which it lets through from a frame
  // of any origin and which names the site that framed the player for the artist's analytics.
  const pass = document.documentElement.dataset.embed ?? "";

  let index = 0;
  let loaded: { id: string; expiresAt: number; ticket?: PlayTicket; receivedAt: number; listener: string } | null = null;
  let listen = { heard: 0, lastTime: 0, reported: false };

  const current = () => tracks[index]!;
  const duration = () => (Number.isFinite(audio.duration) && audio.duration) || current().duration || 0;

  function drawPeaks(peaks: number[] | null) {
    const drawn = waveformBars(peaks);
    const width = String(waveformWidth(drawn.length));
    svg.setAttribute("viewBox", `0 0 ${width} 100`);
    gradient.setAttribute("x2", width);
    bars.replaceChildren(
      ...drawn.map((bar) => {
        const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
        for (const [name, value] of Object.entries(bar)) rect.setAttribute(name, String(value));
        return rect;
      }),
    );
  }

  function showPosition() {
    const seconds = audio.currentTime || 0;
    const total = duration();
    for (const stop of stops) stop.setAttribute("offset", String(playedShare(seconds, total)));
    slider.setAttribute("aria-valuemax", String(Math.floor(total)));
    slider.setAttribute("aria-valuenow", String(Math.floor(seconds)));
    slider.setAttribute("aria-valuetext", `${clock(seconds)} of ${clock(total)}`);
    time.textContent = `${clock(seconds)} / ${clock(total)}`;
  }

  function showPlaying() {
    const paused = audio.paused;
    icon.setAttribute("href", paused ? "#play" : "#pause");
    play.setAttribute("aria-label", `${paused ? "Play" : "Pause"} ${current().title}`);
  }

  function show(next: number) {
    index = next;
    const track = current();
    title.textContent = track.title;
    title.href = track.href;
    artist.textContent = track.artistName;
    artist.href = track.artistHref;
    rows.forEach((row, i) => (i === index ? row.setAttribute("aria-current", "true") : row.removeAttribute("aria-current")));
    drawPeaks(track.peaks);
    listen = { heard: 0, lastTime: 0, reported: false };
    status.textContent = "";
    showPlaying();
    showPosition();
  }

  async function start() {
    const track = current();
    if (!loaded || loaded.id !== track.id || !lastsToPlay(loaded.expiresAt)) {
      play.setAttribute("aria-busy", "true");
      try {
        // The listener is named, so the play ticket that comes with the URL is this listener's.
        const listener = listenerId();
        const response = await fetch(`/track/${track.id}/source?${new URLSearchParams({ listener })}`, { credentials: "omit" });
        const source = parseTrackSource(await response.json());
        if (!source || "error" in source) throw new Error(source?.error || playerErrorMessages.load);
        if (track !== current()) return;
        if (source.peaks) drawPeaks((track.peaks = source.peaks));
        if (source.duration !== null) track.duration = source.duration;
        const resumeAt = loaded?.id === track.id ? audio.currentTime : 0;
        loaded = { id: track.id, expiresAt: source.expiresAt, ticket: source.ticket, receivedAt: Date.now(), listener };
        audio.src = source.url;
        if (resumeAt) audio.currentTime = resumeAt;
      } catch (error) {
        status.textContent = error instanceof Error && error.message ? error.message : playerErrorMessages.load;
        return;
      } finally {
        play.removeAttribute("aria-busy");
      }
    }
    audio.play().catch((error: unknown) => {
      if (!(error instanceof DOMException && error.name === "AbortError")) status.textContent = playerErrorMessages.playback;
    });
  }

  /** The play goes with the ticket its URL came with, no sooner than the wait the server set for it. */
  function report() {
    if (listen.reported || !loaded?.ticket) return;
    listen.reported = true;
    const { id, ticket, receivedAt, listener } = loaded;
    const query = new URLSearchParams({ listener, ticket: ticket.value, embed: pass });
    const send = () => fetch(`/track/${id}/play?${query}`, { method: "POST", credentials: "omit", keepalive: true }).catch(() => {});
    const wait = waitForTicket(ticket, receivedAt);
    if (wait > 0) setTimeout(send, wait + 250);
    else send();
  }

  function seek(seconds: number) {
    const total = duration();
    if (!total) return;
    const target = Math.min(Math.max(seconds, 0), total);
    if (loaded?.id === current().id) audio.currentTime = target;
    showPosition();
  }

  play.addEventListener("click", () => (audio.paused ? void start() : audio.pause()));
  rows.forEach((row, i) =>
    row.addEventListener("click", () => {
      if (i === index) return play.click();
      audio.pause();
      show(i);
      void start();
    }),
  );
  audio.addEventListener("play", showPlaying);
  audio.addEventListener("pause", showPlaying);
  audio.addEventListener("timeupdate", () => {
    listen.heard = heard(listen.heard, listen.lastTime, audio.currentTime, audio.paused);
    listen.lastTime = audio.currentTime;
    if (heardEnough(listen.heard)) report();
    showPosition();
  });
  audio.addEventListener("durationchange", showPosition);
  audio.addEventListener("ended", () => {
    if (heardToTheEnd(listen.heard, audio.duration)) report();
    if (index + 1 < tracks.length) {
      show(index + 1);
      void start();
    } else {
      showPlaying();
    }
  });

  slider.tabIndex = 0;
  slider.removeAttribute("aria-disabled");
  slider.addEventListener("keydown", (event) => {
    const steps: Record<string, number> = {
      ArrowLeft: -seekStepSeconds,
      ArrowDown: -seekStepSeconds,
      ArrowRight: seekStepSeconds,
      ArrowUp: seekStepSeconds,
    };
    const step = steps[event.key];
    if (step !== undefined) seek(audio.currentTime + step);
    else if (event.key === "Home") seek(0);
    else if (event.key === "End") seek(duration());
    else return;
    event.preventDefault();
  });
  const seekWithPointer = (event: PointerEvent) => {
    if (event.type === "pointermove" && !slider.hasPointerCapture(event.pointerId)) return;
    if (event.type === "pointerdown") slider.setPointerCapture(event.pointerId);
    const box = slider.getBoundingClientRect();
    seek(((event.clientX - box.left) / box.width) * duration());
  };
  slider.addEventListener("pointerdown", seekWithPointer);
  slider.addEventListener("pointermove", seekWithPointer);
}

/**
 * The secret WordPress gives a player it frames (`#?secret=` in its address): with it, the player asks
 * the host page, by `postMessage`, to open a link in its own window and to size the frame. WordPress
 * takes no secret but of letters and digits.
 */
const wordPressSecret = /[#?&]secret=([A-Za-z0-9]+)/.exec(location.hash)?.[1] ?? null;

/** How long WordPress may take to leave for a link before the player shows its address instead. */
const hostGoesWithinMs = 1500;

function tellWordPress(message: "link" | "height", value: string | number) {
  window.parent.postMessage({ message, value, secret: wordPressSecret }, "*");
}

/**
 * Links leave the frame as its host allows. A frame of Crate's own origin opens them in a new tab, as
 * written. A frame WordPress made asks WordPress to open them; a sandboxed frame (whose origin is `null`)
 * without it tries a new tab, which a sandbox without pop-ups refuses. Where neither works, the player
 * shows the address to copy.
 */
function openLinksAsTheHostAllows() {
  const panel = element<HTMLElement>("[data-address]");
  const field = element<HTMLInputElement>("[data-address-field]");
  const copy = element<HTMLButtonElement>("[data-copy]");
  const player = element<HTMLElement>("main");
  let openedFrom: HTMLElement | null = null;

  function showAddress(link: HTMLAnchorElement) {
    openedFrom = link;
    field.value = link.href;
    copy.textContent = "Copy";
    panel.hidden = false;
    player.inert = true;
    field.focus();
    field.select();
  }
  function closeAddress() {
    panel.hidden = true;
    player.inert = false;
    openedFrom?.focus();
  }

  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[href]") : null;
    if (!link || (!wordPressSecret && window.origin !== "null")) return;
    event.preventDefault();
    if (wordPressSecret) {
      tellWordPress("link", link.href);
      // WordPress sends its whole page there, and this frame with it; a page still here is one without
      // WordPress's host script (a plugin may remove it).
      setTimeout(() => showAddress(link), hostGoesWithinMs);
      return;
    }
    const opened = window.open(link.href, "_blank");
    if (opened) opened.opener = null;
    else showAddress(link);
  });
  copy.addEventListener("click", async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      // A sandboxed frame is seldom allowed the clipboard API (nor is a page over http); the older command
      // copies the selection with the click's own permission.
      if (!document.execCommand("copy")) return;
    }
    copy.textContent = "Copied";
  });
  element("[data-close]").addEventListener("click", closeAddress);
  panel.addEventListener("keydown", (event) => {
    if (event.key === "Escape") closeAddress();
  });
}

/**
 * WordPress sizes the frame to what the player needs (it makes none shorter than 200 px), told when the
 * player starts and again whenever WordPress's host script says it is `ready` (it may load after the
 * player, and asks then): that message is also what shows the frame in place of its fallback link.
 */
function sizeTheFrameForWordPress() {
  if (!wordPressSecret) return;
  const needed = Number(document.documentElement.dataset.height);
  tellWordPress("height", needed);
  window.addEventListener("message", (event) => {
    const data: unknown = event.data;
    if (event.source !== window.parent || typeof data !== "object" || data === null) return;
    if ("message" in data && data.message === "ready" && "secret" in data && data.secret === wordPressSecret)
      tellWordPress("height", needed);
  });
}

startEmbeddedPlayer();
openLinksAsTheHostAllows();
sizeTheFrameForWordPress();
