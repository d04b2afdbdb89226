import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useRevalidator } from "react-router";
import type WaveSurfer from "wavesurfer.js";
import { Spinner } from "~/components/ui/spinner";
import { player } from "~/lib/constants";
import { trackAudioPath, trackPlayPath } from "~/lib/catalog";
import { audioUnavailableAdvice, playerErrorMessages } from "~/lib/errors";
import { formatDuration } from "~/lib/format";
import { Icon } from "~/components/ui/icon";

/** Where the player streams a track from (a signed URL and when it stops working), or why it cannot. */
export type AudioSource = { url: string; expiresAt: number } | { error: string };

type PlayerState = "loading" | "ready" | "playing" | "paused" | "finished" | "error";

/** A signed URL this close to its end is renewed before playing, so playback never starts on a dying URL. */
const renewalMarginMs = 60_000;
const seekStepSeconds = 5;

/**
 * The track page's player: wavesurfer.js on a media element that streams the signed URL with HTTP Range
 * requests, so playback starts before the file has arrived; the waveform is drawn at once from the
 * peaks stored with the track instead of by downloading and decoding the file. The page streams the URL
 * in after its first paint: until it comes (`source` null) the waveform shows and Play waits. Without
 * JavaScript the browser's own audio controls play the track's lasting audio address, which redirects
 * to a URL signed for the listener.
 */

/** Seconds of playback after which a play is reported (spec-free: enough to tell listening from skipping). */
const playCountsAfter = 5;

export function WaveformPlayer({
  trackId,
  title,
  source,
  peaks,
  duration,
}: {
  trackId: string;
  title: string;
  source: AudioSource | null;
  peaks: number[] | null;
  duration: number | null;
}) {
  const waveformRef = useRef<HTMLDivElement>(null);
  const audioRef = useRef<HTMLAudioElement>(null);
  const waveRef = useRef<WaveSurfer | null>(null);
  const [state, setState] = useState<PlayerState>(source && "error" in source ? "error" : "loading");
  const [error, setError] = useState<string | null>(source && "error" in source ? source.error : null);
  const [time, setTime] = useState(0);
  const [total, setTotal] = useState(duration ?? 0);
  const [volume, setVolume] = useState<number>(player.defaultVolume);
  const stateRef = useRef(state);
  stateRef.current = state;
  const volumeRef = useRef(volume);
  volumeRef.current = volume;
  // Where playback is, or will be: a seek into audio not yet buffered lands a moment later.
  const position = useRef(0);
  // The last place the listener asked for, until the media element has got there.
  const seekTarget = useRef<number | null>(null);
  // When the URL the player holds stops working, and whether a play waits for a fresh one.
  const loadedExpiry = useRef(source && "url" in source ? source.expiresAt : 0);
  const playAfterRenewal = useRef(false);
  // A play is reported once per listen: after `playCountsAfter` seconds heard, or at the end of a shorter
  // track; again after the track finished and is played anew. The database decides whether it counts.
  const playRecorded = useRef(false);
  const listened = useRef(0);
  const revalidator = useRevalidator();
  const volumeId = useId();
  const initialUrl = source && "url" in source ? source.url : null;

  function reportPlay() {
    if (playRecorded.current) return;
    playRecorded.current = true;
    // Not a router fetcher: that would reload the page's data (and its audio URL) after every play.
    fetch(trackPlayPath(trackId), { method: "POST", keepalive: true }).catch(() => {});
  }

  function fail(message: string) {
    waveRef.current?.unAll();
    waveRef.current?.destroy();
    waveRef.current = null;
    setError(message);
    setState("error");
  }

  // One wavesurfer per player (the page keys the player by track). Later URLs for the same track (the
  // page's data is reloaded after posting a comment) must not interrupt playback, so they are only used
  // when the held one runs out.
  useEffect(() => {
    const container = waveformRef.current;
    const media = audioRef.current;
    if (!initialUrl || !container || !media) return;
    let cancelled = false;
    let wave: WaveSurfer | null = null;
    import("~/lib/wavesurfer.client").then(
      ({ WaveSurfer: WaveSurferClass }) => {
        if (cancelled) return;
        const colors = getComputedStyle(document.documentElement);
        const created = WaveSurferClass.create({
          container,
          media,
          url: initialUrl,
          peaks: peaks ? [peaks] : undefined,
          duration: duration ?? undefined,
          height: player.waveformHeight,
          barWidth: player.barWidth,
          barGap: player.barGap,
          barRadius: 1,
          waveColor: colors.getPropertyValue("--color-stage-600").trim() || "#3b3558",
          progressColor: colors.getPropertyValue("--color-accent").trim() || "#ff4fa3",
          cursorColor: colors.getPropertyValue("--color-amber").trim() || "#ffb547",
          cursorWidth: 2,
          dragToSeek: true,
        });
        wave = created;
        waveRef.current = created;
        wave.setVolume(volumeRef.current);
        wave.on("ready", (seconds) => {
          setTotal(seconds);
          wave?.setVolume(volumeRef.current);
          if (stateRef.current === "loading") setState("ready");
        });
        wave.on("timeupdate", () => {
          // Read from the player, not the event: the end of a track reports the end even when a seek
          // back (End, then ←) has already moved on from it.
          const seconds = created.getCurrentTime();
          // Playback time actually heard: small forward steps while playing (a seek is a jump).
          const step = seconds - position.current;
          if (stateRef.current === "playing" && step > 0 && step < 1.5) listened.current += step;
          position.current = seconds;
          setTime(Math.floor(seconds));
          if (listened.current >= playCountsAfter) reportPlay();
        });
        wave.on("interaction", (seconds) => (seekTarget.current = seconds));
        wave.on("play", () => setState("playing"));
        // The media element pauses before it reports the end; a finished track stays finished.
        wave.on("pause", () => setState((current) => (current === "finished" ? current : "paused")));
        wave.on("finish", () => {
          // Only a real end: a seek to the end taken back at once is no longer there.
          if (!media.ended) return;
          // A track shorter than the threshold counts once it has been heard to its end (with a second
          // of slack for the steps between time updates); a seek to the end is no listen.
          if (listened.current >= Math.min(playCountsAfter, created.getDuration()) - 1) reportPlay();
          playRecorded.current = false;
          listened.current = 0;
          setState("finished");
        });
        // wavesurfer drops a seek requested while an earlier one is still under way (its pending
        // position is cleared by the earlier seek's event), so rapid seeks could stop short: finish it.
        media.addEventListener("seeked", finishSeek);
        wave.on("error", (cause) => {
          console.warn("audio player error", cause);
          fail(stateRef.current === "playing" ? playerErrorMessages.playback : playerErrorMessages.load);
        });
      },
      (cause) => {
        console.warn("loading the player failed", cause);
        fail(playerErrorMessages.load);
      },
    );
    function finishSeek() {
      const target = seekTarget.current;
      if (target === null || !wave) return;
      // Half a second of slack: playback moves on while a seek settles, and that is no dropped seek.
      if (Math.abs(media!.currentTime - target) > 0.5) wave.setTime(target);
      else seekTarget.current = null;
    }
    return () => {
      cancelled = true;
      media.removeEventListener("seeked", finishSeek);
      wave?.unAll();
      wave?.destroy();
      waveRef.current = null;
    };
    // Built once: the URL, peaks and duration are those the track had when the page opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // A fresh URL arrived after the held one ran out: load it and play, as the listener asked.
  useEffect(() => {
    const wave = waveRef.current;
    if (!playAfterRenewal.current || !wave || !source) return;
    // The player is an outside system: a renewal that failed is reported from here, where it is driven.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    if (!("url" in source)) return fail(source.error);
    if (source.expiresAt - renewalMarginMs < Date.now()) return;
    playAfterRenewal.current = false;
    loadedExpiry.current = source.expiresAt;
    wave
      .load(source.url, peaks ? [peaks] : undefined, duration ?? undefined)
      .then(() => startPlaying(wave))
      .catch(() => fail(playerErrorMessages.load));
    // Only a new source matters here; peaks and duration never change for the same track.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [source]);

  function startPlaying(wave: WaveSurfer) {
    wave.play().catch((cause: unknown) => {
      // A pause or a new load before playback began is not a failure.
      if (cause instanceof DOMException && cause.name === "AbortError") return;
      console.warn("play failed", cause);
      fail(playerErrorMessages.playback);
    });
  }

  function togglePlay() {
    const wave = waveRef.current;
    if (!wave) return;
    if (wave.isPlaying()) return wave.pause();
    if (loadedExpiry.current - renewalMarginMs < Date.now()) {
      playAfterRenewal.current = true;
      setState("loading");
      void revalidator.revalidate();
      return;
    }
    startPlaying(wave);
  }

  function changeVolume(value: number) {
    setVolume(value);
    waveRef.current?.setVolume(value);
  }

  function seekWithKeys(event: KeyboardEvent<HTMLDivElement>) {
    const wave = waveRef.current;
    if (!wave || total <= 0) return;
    // Keys pressed in quick succession step from the seek still under way (End, then ←), not from the
    // position the audio last reported.
    const from = seekTarget.current ?? position.current;
    // The media's own length once known (the stored duration is rounded): End reaches the real end.
    const length = wave.getDuration() || total;
    const targets: Record<string, number> = {
      ArrowLeft: from - seekStepSeconds,
      ArrowDown: from - seekStepSeconds,
      ArrowRight: from + seekStepSeconds,
      ArrowUp: from + seekStepSeconds,
      Home: 0,
      End: length,
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    seekTarget.current = Math.min(Math.max(target, 0), length);
    wave.setTime(seekTarget.current);
  }

  if (state === "error") {
    const message = error ?? playerErrorMessages.fallback;
    const advice = audioUnavailableAdvice(message);
    return (
      <div role="alert" className="rounded-2xl border border-danger/40 bg-danger/10 p-5">
        <h2 className="text-lg font-semibold text-ink">Unable to play track</h2>
        <p className="mt-1 text-danger">{message}</p>
        {advice ? <p className="mt-2 text-sm text-ink-muted">{advice}</p> : null}
      </div>
    );
  }

  const playing = state === "playing";
  const canPlay = state !== "loading";
  return (
    <section aria-label={`Player: ${title}`} className="rounded-2xl border border-stage-700 bg-stage-850 p-4 sm:p-5">
      <div className="flex items-center gap-4">
        {/* Controls that need JavaScript hide without it; the browser's own controls take over below. */}
        <button
          type="button"
          onClick={togglePlay}
          disabled={!canPlay}
          aria-label={playing ? `Pause ${title}` : `Play ${title}`}
          className="grid size-14 shrink-0 place-items-center rounded-full bg-accent text-accent-ink shadow-lg shadow-accent/25 transition hover:bg-accent-strong disabled:opacity-60 noscript:hidden"
        >
          {state === "loading" ? (
            <Spinner label="Loading audio" className="text-accent-ink" />
          ) : playing ? (
            <Icon name="pause" className="size-6" />
          ) : (
            <Icon name="play" className="ml-0.5 size-6" />
          )}
        </button>
        <div className="relative min-w-0 flex-1" style={{ height: player.waveformHeight }}>
          {/* Drawn by the server from the stored peaks, so the waveform shows before (and without) JavaScript. */}
          {state === "loading" && peaks ? <StaticWaveform peaks={peaks} /> : null}
          <div
            ref={waveformRef}
            role="slider"
            tabIndex={canPlay ? 0 : -1}
            aria-label="Seek"
            aria-valuemin={0}
            aria-valuemax={Math.round(total)}
            aria-valuenow={time}
            aria-valuetext={`${formatDuration(time)} of ${formatDuration(total)}`}
            aria-disabled={!canPlay || undefined}
            onKeyDown={seekWithKeys}
            className="absolute inset-0 cursor-pointer rounded-md noscript:hidden"
          />
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-x-6 gap-y-2 sm:pl-18 noscript:hidden">
        <p className="font-mono text-sm text-ink-muted tabular-nums">
          <span className="sr-only">Elapsed </span>
          <span data-testid="elapsed">{formatDuration(time)}</span> / <span className="sr-only">total </span>
          {formatDuration(total)}
        </p>
        <div className="flex items-center gap-3">
          <label htmlFor={volumeId} className="text-sm text-ink-muted">
            Volume
          </label>
          <input
            id={volumeId}
            type="range"
            min={0}
            max={1}
            step={0.01}
            value={volume}
            onChange={(event) => changeVolume(Number(event.target.value))}
            aria-valuetext={`${Math.round(volume * 100)}%`}
            className="w-32 accent-accent"
          />
        </div>
      </div>
      <audio ref={audioRef} preload="none" hidden />
      <noscript>
        <audio controls preload="none" src={trackAudioPath(trackId)} aria-label={`Play ${title}`} className="mt-4 w-full" />
      </noscript>
    </section>
  );
}

/** The stored peaks as bars, the way the player draws them. */
function StaticWaveform({ peaks }: { peaks: number[] }) {
  return (
    <svg
      aria-hidden="true"
      viewBox={`0 0 ${peaks.length * 3} 100`}
      preserveAspectRatio="none"
      className="absolute inset-0 size-full text-stage-600"
    >
      {peaks.map((peak, index) => {
        const height = Math.max(peak * 100, 1);
        return <rect key={index} x={index * 3} y={(100 - height) / 2} width={2} height={height} rx={0.5} fill="currentColor" />;
      })}
    </svg>
  );
}
