import { lazy, Suspense, useEffect, useId, useState, type ReactNode } from "react";
import { SeekWaveform } from "~/components/player/seek-waveform";
import { Icon } from "~/components/ui/icon";
import { Spinner } from "~/components/ui/spinner";
import { trackAudioPath } from "~/lib/catalog/catalog";
import { audioPreparing, playerDefaults } from "~/lib/constants";
import { formatDuration } from "~/lib/format";
import { player as sitePlayer, usePlayer, usePlayerTime, type AudioSource, type QueueTrack } from "~/lib/player";

// wavesurfer.js, for the track playing: loaded once it plays here, never with the page.
const InteractiveWaveform = lazy(() => import("./interactive-waveform"));

// The "Unable to play track" box's words, here with the box: the page that shows it loads nothing else
// of the backend's messages (lib/backend/errors.ts).
/** The box's text when no reason is known (spec). */
const unknownAudioError = "Error loading audio file";

/** The extra advice under 'Unable to play track' when the file itself is gone. */
export function audioUnavailableAdvice(message: string): string | null {
  return message.includes("no longer available")
    ? "The file may have been removed or may be temporarily unavailable. Please check back later or contact the artist."
    : null;
}

/**
 * The track page's player: a view of the site's one player. Play here starts the track in the player
 * bar (the same audio element, never a second sound), and the waveform, drawn from the stored peaks,
 * follows the bar's position. The page streams the track's signed URL in after its first paint: until
 * it comes (`source` null) the waveform shows and Play waits, and the player keeps it for when the track
 * plays. Without JavaScript the browser's own audio controls play the track's lasting audio address,
 * which redirects to a URL signed for the listener.
 */
export function WaveformPlayer({
  track,
  source,
  peaks,
  duration,
}: {
  track: QueueTrack;
  source: AudioSource | null;
  peaks: number[] | null;
  duration: number | null;
}) {
  const isCurrent = usePlayer((state) => state.tracks[state.index]?.id === track.id);
  // What the page shows of the player: this track's own state only while it is the player's.
  const status = usePlayer((state) => (isCurrent ? state.status : "idle"));
  const playerError = usePlayer((state) => (isCurrent && state.status === "error" ? state.error : null));
  const playerDuration = usePlayer((state) => (isCurrent ? state.duration : 0));
  const volume = usePlayer((state) => state.volume);
  const volumeId = useId();
  // wavesurfer.js loads once the track is the player's and has settled (playing, or paused), never while
  // a press is still starting the audio: its download and start-up would hold up the sound. It stays
  // while the track is the player's, through any later buffering.
  const [interactive, setInteractive] = useState(false);
  const settled = isCurrent && (status === "playing" || status === "paused");
  if (settled && !interactive) setInteractive(true);
  if (!isCurrent && interactive) setInteractive(false);

  useEffect(() => {
    if (source && "url" in source) sitePlayer.offerSource(track.id, { ...source, peaks, duration });
  }, [source, track.id, peaks, duration]);

  const error = source && "error" in source ? source.error : playerError;
  if (error !== null) {
    // Preparing is not a failure: the stream is being made, in seconds (the next visit plays it).
    const preparing = error === audioPreparing;
    const message = error || unknownAudioError;
    const advice = audioUnavailableAdvice(message);
    return (
      <div role={preparing ? "status" : "alert"} className="rounded-2xl border border-danger/40 bg-danger/10 p-5">
        <h2 className="text-lg font-semibold text-ink">{preparing ? message : "Unable to play track"}</h2>
        {preparing ? null : <p className="mt-1 text-danger">{message}</p>}
        {advice ? <p className="mt-2 text-sm text-ink-muted">{advice}</p> : null}
      </div>
    );
  }

  // Play waits for the page's URL; once the track is the player's, its button pauses even while loading.
  const waiting = !isCurrent && !source;
  const loading = waiting || status === "loading";
  const playing = status === "playing" || status === "loading";
  const total = playerDuration || duration || 0;
  return (
    <section aria-label={`Player: ${track.title}`} className="rounded-2xl border border-stage-700 bg-stage-850 p-4 sm:p-5">
      <div className="flex items-center gap-4">
        {/* Controls that need JavaScript hide without it; the browser's own controls take over below. */}
        <button
          type="button"
          onClick={() => sitePlayer.toggleTrack(track)}
          disabled={waiting}
          aria-label={playing ? `Pause ${track.title}` : `Play ${track.title}`}
          className="grid size-14 shrink-0 place-items-center rounded-full bg-accent text-accent-ink shadow-lg shadow-accent/25 transition hover:bg-accent-strong disabled:opacity-60 noscript:hidden"
        >
          {loading ? (
            <Spinner label="Loading audio" className="text-accent-ink" />
          ) : playing ? (
            <Icon name="pause" className="size-6" />
          ) : (
            <Icon name="play" className="ml-0.5 size-6" />
          )}
        </button>
        <TrackClock current={isCurrent}>
          {(time) => {
            const drawn = (
              <SeekWaveform
                peaks={peaks}
                time={time}
                duration={total}
                onSeek={isCurrent ? sitePlayer.seek : null}
                className="min-w-0 flex-1"
                height={playerDefaults.waveformHeight}
              />
            );
            // The track playing gets the interactive waveform; the drawn one shows until it has loaded.
            if (!interactive || !total) return drawn;
            return (
              <Suspense fallback={drawn}>
                <InteractiveWaveform
                  peaks={peaks}
                  time={time}
                  duration={total}
                  height={playerDefaults.waveformHeight}
                  className="min-w-0 flex-1"
                />
              </Suspense>
            );
          }}
        </TrackClock>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-x-6 gap-y-2 sm:pl-18 noscript:hidden">
        <p className="font-mono text-sm text-ink-muted tabular-nums">
          <span className="sr-only">Elapsed </span>
          <TrackClock current={isCurrent}>
            {(time) => (
              <span data-testid="elapsed" data-player-clock>
                {formatDuration(time)}
              </span>
            )}
          </TrackClock>{" "}
          / <span className="sr-only">total </span>
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
            onChange={(event) => sitePlayer.setVolume(Number(event.target.value))}
            aria-valuetext={`${Math.round(volume * 100)}%`}
            className="w-32 accent-accent"
          />
        </div>
      </div>
      <noscript>
        <audio controls preload="none" src={trackAudioPath(track.id)} aria-label={`Play ${track.title}`} className="mt-4 w-full" />
      </noscript>
    </section>
  );
}

/** What follows the clock (only while the track is the player's): a tick re-renders this, not the page's player. */
function TrackClock({ current, children }: { current: boolean; children: (time: number) => ReactNode }) {
  return children(usePlayerTime(current));
}
