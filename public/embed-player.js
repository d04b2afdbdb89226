// The embedded player's script (the embed pages at /embed/…): plays the frame's tracks with the browser's
// audio element, draws the stored waveform as the position moves, seeks by pointer and keyboard, moves
// through an album or a playlist, and reports plays by the site's rules (5 s heard, or a shorter track to
// its end). Plain JavaScript, no framework: the embed is the first thing a reader of another site loads.
// It asks for signed audio URLs and reports plays without cookies: an embed never uses a Crate session.
(() => {
  const $ = (selector) => document.querySelector(selector);
  const tracks = JSON.parse($("[data-tracks]").textContent);
  const audio = $("[data-audio]");
  const play = $("[data-play]");
  const slider = $("[role=slider]");
  const stops = slider.querySelectorAll("stop");
  const bars = slider.querySelector("g");
  const time = $("[data-time]");
  const title = $("[data-title]");
  const artist = $("[data-artist]");
  const status = $("[data-status]");
  const rows = [...document.querySelectorAll("[data-track]")];
  const icon = play.querySelector("use");
  const renewalMarginMs = 60_000;
  const playCountsAfter = 5;
  const seekStep = 5;
  let index = 0;
  let loaded = null;
  let listened = 0;
  let lastTime = 0;
  let reported = false;

  const clock = (seconds) => {
    const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
    return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
  };
  const current = () => tracks[index];
  const duration = () => (Number.isFinite(audio.duration) && audio.duration) || current().duration || 0;

  function drawPeaks(peaks) {
    const values = peaks ?? Array.from({ length: 200 }, () => 0.08);
    const svg = slider.querySelector("svg");
    svg.setAttribute("viewBox", `0 0 ${values.length * 3} 100`);
    slider.querySelector("linearGradient").setAttribute("x2", String(values.length * 3));
    bars.replaceChildren(
      ...values.map((peak, i) => {
        const height = Math.max(peak * 100, 2);
        const rect = document.createElementNS("http://www.w3.org/2000/svg", "rect");
        for (const [name, value] of Object.entries({ x: i * 3, y: (100 - height) / 2, width: 2, height, rx: 0.5 }))
          rect.setAttribute(name, String(value));
        return rect;
      }),
    );
  }

  function showPosition() {
    const seconds = audio.currentTime || 0;
    const total = duration();
    const played = total > 0 ? Math.min(seconds / total, 1) : 0;
    for (const stop of stops) stop.setAttribute("offset", String(played));
    slider.setAttribute("aria-valuemax", String(Math.round(total)));
    slider.setAttribute("aria-valuenow", String(Math.floor(seconds)));
    slider.setAttribute("aria-valuetext", `${clock(seconds)} of ${clock(total)}`);
    time.textContent = `${clock(seconds)} / ${clock(total)}`;
  }

  function showPlaying() {
    const paused = audio.paused;
    icon.setAttribute("href", icon.getAttribute("href").replace(/#.*$/, paused ? "#play" : "#pause"));
    play.setAttribute("aria-label", `${paused ? "Play" : "Pause"} ${current().title}`);
  }

  function show(next) {
    index = next;
    const track = current();
    title.textContent = track.title;
    title.href = track.href;
    artist.textContent = track.artistName;
    artist.href = track.artistHref;
    rows.forEach((row, i) => (i === index ? row.setAttribute("aria-current", "true") : row.removeAttribute("aria-current")));
    drawPeaks(track.peaks);
    listened = 0;
    lastTime = 0;
    reported = false;
    status.textContent = "";
    showPlaying();
    showPosition();
  }

  async function start() {
    const track = current();
    if (!loaded || loaded.id !== track.id || loaded.expiresAt - renewalMarginMs < Date.now()) {
      play.setAttribute("aria-busy", "true");
      try {
        // The listener is named, so the play ticket that comes with the URL is this listener's.
        const listener = listenerId();
        const response = await fetch(`/track/${track.id}/source?${new URLSearchParams({ listener })}`, { credentials: "omit" });
        const source = await response.json();
        if (typeof source.url !== "string") throw new Error(source.error || "Unable to load audio");
        if (track !== current()) return;
        if (Array.isArray(source.peaks)) drawPeaks((track.peaks = source.peaks));
        if (typeof source.duration === "number") track.duration = source.duration;
        const resumeAt = loaded?.id === track.id ? audio.currentTime : 0;
        loaded = { id: track.id, expiresAt: source.expiresAt, ticket: source.ticket, receivedAt: Date.now(), listener };
        audio.src = source.url;
        if (resumeAt) audio.currentTime = resumeAt;
      } catch (error) {
        status.textContent = error instanceof Error && error.message ? error.message : "Unable to load audio";
        return;
      } finally {
        play.removeAttribute("aria-busy");
      }
    }
    audio.play().catch((error) => {
      if (error?.name !== "AbortError") status.textContent = "Playback failed. Please try again.";
    });
  }

  // The site that framed this player, as the server read it from the embed's own request and signed it:
  // sent back with each play for the artist's analytics; none when it was opened on its own.
  const embeddedOn = document.documentElement.dataset.site || "";

  // A random (version 4) id. crypto.randomUUID exists only in secure contexts, and a frame inside an
  // http page is none, so the id is made from getRandomValues, which every context has.
  function newListenerId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }

  // The listener id this site's embeds share, so a play reported twice counts once, as on Crate: kept in
  // storage (which the browser keeps apart per embedding site), read when a track is asked for rather
  // than when the frame loads (two players on one page load together, and each would make its own id).
  // Where the browser gives a frame no storage, the players of one page still share one: a frame may
  // read a sibling frame of its own origin.
  function siblingListener() {
    for (let index = 0; index < window.parent.frames.length; index++) {
      try {
        const id = window.parent.frames[index].crateListener;
        if (typeof id === "string") return id;
      } catch {
        // a frame of another origin
      }
    }
    return null;
  }
  function listenerId() {
    let id = window.crateListener ?? null;
    try {
      id = localStorage.getItem("crate:listener") ?? id ?? siblingListener() ?? newListenerId();
      localStorage.setItem("crate:listener", id);
    } catch {
      id ??= siblingListener() ?? newListenerId();
    }
    window.crateListener = id;
    return id;
  }

  // The play goes with the ticket its URL came with, no sooner than the wait the server set for it.
  function report() {
    if (reported || !loaded?.ticket) return;
    reported = true;
    const { id, ticket, receivedAt, listener } = loaded;
    const query = new URLSearchParams({ listener, ticket: ticket.value, ...(embeddedOn ? { embeddedOn } : {}) });
    const send = () => fetch(`/track/${id}/play?${query}`, { method: "POST", credentials: "omit", keepalive: true }).catch(() => {});
    const wait = ticket.afterSeconds * 1000 - (Date.now() - receivedAt);
    if (wait > 0) setTimeout(send, wait + 250);
    else send();
  }

  function seek(seconds) {
    const total = duration();
    if (!total) return;
    const target = Math.min(Math.max(seconds, 0), total);
    if (loaded?.id === current().id) audio.currentTime = target;
    showPosition();
  }

  play.addEventListener("click", () => (audio.paused ? start() : audio.pause()));
  rows.forEach((row, i) =>
    row.addEventListener("click", () => {
      if (i === index) return play.click();
      audio.pause();
      show(i);
      start();
    }),
  );
  audio.addEventListener("play", showPlaying);
  audio.addEventListener("pause", showPlaying);
  audio.addEventListener("timeupdate", () => {
    const step = audio.currentTime - lastTime;
    // Time actually heard: small steps forward while playing (a seek is a jump).
    if (!audio.paused && step > 0 && step < 1.5) listened += step;
    lastTime = audio.currentTime;
    if (listened >= playCountsAfter) report();
    showPosition();
  });
  audio.addEventListener("durationchange", showPosition);
  audio.addEventListener("ended", () => {
    if (listened >= Math.min(playCountsAfter, audio.duration) - 1) report();
    if (index + 1 < tracks.length) {
      show(index + 1);
      start();
    } else {
      showPlaying();
    }
  });

  slider.tabIndex = 0;
  slider.removeAttribute("aria-disabled");
  slider.addEventListener("keydown", (event) => {
    const targets = { ArrowLeft: -seekStep, ArrowDown: -seekStep, ArrowRight: seekStep, ArrowUp: seekStep };
    if (event.key in targets) seek(audio.currentTime + targets[event.key]);
    else if (event.key === "Home") seek(0);
    else if (event.key === "End") seek(duration());
    else return;
    event.preventDefault();
  });
  const seekWithPointer = (event) => {
    if (event.type === "pointermove" && !slider.hasPointerCapture(event.pointerId)) return;
    if (event.type === "pointerdown") slider.setPointerCapture(event.pointerId);
    const box = slider.getBoundingClientRect();
    seek(((event.clientX - box.left) / box.width) * duration());
  };
  slider.addEventListener("pointerdown", seekWithPointer);
  slider.addEventListener("pointermove", seekWithPointer);
})();
