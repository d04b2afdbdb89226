import { lazy, Suspense, useRef, useState } from "react";
import { Link } from "react-router";
import { Artwork } from "~/components/catalog/artist-image";
import { Icon, type IconName } from "~/components/ui/icon";
import { Spinner } from "~/components/ui/spinner";
import { artistPath, trackPath } from "~/lib/catalog/catalog";
import { cx } from "~/lib/ui/cx";
import { formatDuration } from "~/lib/format";
import { player, usePlayer, usePlayerTime } from "~/lib/player";
import { repeatLabels } from "./repeat-labels";
import { SeekWaveform } from "./seek-waveform";

// The queue view is opened now and then; it loads when first opened, not with every page.
const QueuePanel = lazy(() => import("./queue-panel"));

/**
 * The player bar's controls, once something is queued: loaded then (the bar itself, on every page, holds
 * only the audio element), so a page that never plays pays nothing for them.
 */
export default function PlayerControls() {
  // Everything but the clock: a tick re-renders only the seek strip below.
  const state = usePlayer((whole) => whole);
  const [queueOpen, setQueueOpen] = useState(false);
  const queueButton = useRef<HTMLButtonElement>(null);
  const track = state.tracks[state.index];

  function closeQueue() {
    setQueueOpen(false);
    queueButton.current?.focus();
  }

  const playing = state.status === "playing" || state.status === "loading";
  if (!track) return null;
  // On phones the bar is two rows: the track and Previous, Play, Next; then the seek bar and the Queue.
  return (
    <section aria-label="Player" data-player-bar className="fixed inset-x-0 bottom-0 z-40">
      {queueOpen ? (
        <Suspense fallback={null}>
          <QueuePanel onClose={closeQueue} />
        </Suspense>
      ) : null}
      <div className="border-t border-stage-700 bg-stage-900/95 px-3 py-2 backdrop-blur sm:px-4">
        <div className="mx-auto flex max-w-screen-2xl flex-wrap items-center gap-x-3 gap-y-1 sm:flex-nowrap sm:gap-x-4">
          <div className="flex min-w-0 flex-1 items-center gap-3 sm:w-64 sm:flex-none lg:w-72">
            <Artwork src={track.artworkUrl} className="size-12 shrink-0 rounded-md" />
            <div className="min-w-0">
              <Link to={trackPath(track.id)} className="block truncate text-sm leading-6 font-semibold text-ink hover:underline">
                {track.title}
              </Link>
              <Link
                to={artistPath(track.artistId)}
                className="block truncate text-xs leading-6 text-ink-muted hover:text-ink hover:underline"
              >
                {track.artistName}
              </Link>
            </div>
          </div>
          <div className="flex items-center gap-1">
            <BarButton icon="shuffle" label="Shuffle" pressed={state.shuffle} onClick={player.toggleShuffle} className="hidden sm:grid" />
            <BarButton icon="previous" label="Previous track" onClick={player.previous} />
            <button
              type="button"
              onClick={player.toggle}
              aria-label={playing ? "Pause" : "Play"}
              className="grid size-10 place-items-center rounded-full bg-accent text-accent-ink hover:bg-accent-strong"
            >
              {state.status === "loading" ? (
                <Spinner label="Loading audio" className="text-accent-ink" />
              ) : (
                <Icon name={playing ? "pause" : "play"} className={cx("size-5", !playing && "ml-0.5")} />
              )}
            </button>
            <BarButton
              icon="next"
              label="Next track"
              onClick={player.next}
              disabled={state.index + 1 >= state.tracks.length && state.repeat !== "all"}
            />
            <BarButton
              icon="repeat"
              label={repeatLabels[state.repeat]}
              active={state.repeat !== "off"}
              onClick={player.cycleRepeat}
              badge={state.repeat === "one" ? "1" : undefined}
              className="hidden sm:grid"
            />
          </div>
          <BarSeek />
          {state.error ? (
            <p role="alert" className="w-full text-xs text-danger sm:w-auto">
              {state.error}
            </p>
          ) : null}
          <div className="order-last flex items-center gap-1 sm:order-none">
            {/* A phone's own buttons set its volume. */}
            <BarButton
              icon={state.muted ? "muted" : "volume"}
              label="Mute"
              pressed={state.muted}
              onClick={player.toggleMute}
              className="hidden sm:grid"
            />
            <label className="hidden items-center md:flex">
              <span className="sr-only">Volume</span>
              <input
                type="range"
                min={0}
                max={1}
                step={0.01}
                value={state.muted ? 0 : state.volume}
                onChange={(event) => player.setVolume(Number(event.target.value))}
                aria-valuetext={`${Math.round((state.muted ? 0 : state.volume) * 100)}%`}
                className="w-24 accent-accent"
              />
            </label>
            <BarButton
              ref={queueButton}
              icon="queue"
              label="Queue"
              expanded={queueOpen}
              onClick={() => (queueOpen ? closeQueue() : setQueueOpen(true))}
            />
          </div>
        </div>
      </div>
    </section>
  );
}

function BarButton({
  icon,
  label,
  onClick,
  pressed,
  active,
  expanded,
  disabled,
  badge,
  className,
  ref,
}: {
  icon: IconName;
  label: string;
  onClick: () => void;
  pressed?: boolean;
  /** Shown as on, where the name says the state itself (Repeat: all). */
  active?: boolean;
  expanded?: boolean;
  disabled?: boolean;
  badge?: string;
  className?: string;
  ref?: React.Ref<HTMLButtonElement>;
}) {
  return (
    <button
      ref={ref}
      type="button"
      onClick={onClick}
      aria-label={label}
      aria-pressed={pressed}
      aria-expanded={expanded}
      disabled={disabled}
      className={cx(
        "relative grid size-9 place-items-center rounded-full hover:bg-stage-800 disabled:opacity-40",
        pressed || active || expanded ? "text-accent" : "text-ink-muted hover:text-ink",
        className,
      )}
    >
      <Icon name={icon} className="size-5" />
      {badge ? <span className="absolute right-1 bottom-1 text-[0.6rem] leading-none font-bold">{badge}</span> : null}
    </button>
  );
}

/** The elapsed time, the seek strip and the length: the bar's only part that follows the clock. */
function BarSeek() {
  const time = usePlayerTime();
  const duration = usePlayer((state) => state.duration);
  const peaks = usePlayer((state) => state.peaks);
  return (
    <div
      data-player-clock
      className="order-last flex min-w-0 grow basis-[calc(100%-3rem)] items-center gap-2 font-mono text-xs text-ink-muted tabular-nums sm:order-none sm:basis-0"
    >
      <span>
        <span className="sr-only">Elapsed </span>
        {formatDuration(time)}
      </span>
      <SeekWaveform peaks={peaks} time={time} duration={duration} onSeek={player.seek} height={32} className="min-w-0 flex-1" />
      <span>
        <span className="sr-only">Total </span>
        {formatDuration(duration)}
      </span>
    </div>
  );
}
