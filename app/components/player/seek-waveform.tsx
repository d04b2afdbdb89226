import { useId, useMemo, type KeyboardEvent, type PointerEvent, type ReactNode } from "react";
import { formatDuration } from "~/lib/format";
import { playedShare, waveformBars, waveformWidth } from "~/lib/player/waveform";

const seekStepSeconds = 5;

/**
 * A track's waveform, drawn as SVG from the peaks stored with it (nothing to download or decode), the
 * part already played in the accent colour. With `onSeek` it is the seek slider: a click or a drag
 * moves playback there, ←/→ step 5 seconds, Home and End go to either end.
 */
export function SeekWaveform({
  peaks,
  time,
  duration,
  onSeek,
  height,
  className,
}: {
  peaks: number[] | null;
  time: number;
  duration: number;
  onSeek: ((seconds: number) => void) | null;
  /** In pixels; else the container's. */
  height?: number;
  className?: string;
}) {
  const gradientId = useId();
  // The bars are drawn once per track; only the played part's edge moves as the track plays.
  const bars = useMemo(() => waveformBars(peaks), [peaks]);
  const drawing = useMemo(() => bars.map((bar, index) => <rect key={index} {...bar} />), [bars]);
  const width = waveformWidth(bars.length);
  const played = playedShare(time, duration);

  function seekWithPointer(event: PointerEvent<HTMLDivElement>) {
    if (!onSeek || (event.type === "pointermove" && !event.currentTarget.hasPointerCapture(event.pointerId))) return;
    if (event.type === "pointerdown") event.currentTarget.setPointerCapture(event.pointerId);
    const box = event.currentTarget.getBoundingClientRect();
    onSeek(Math.min(Math.max(((event.clientX - box.left) / box.width) * duration, 0), duration));
  }

  return (
    <SeekSlider
      time={time}
      duration={duration}
      onSeek={onSeek}
      height={height}
      className={className}
      onPointerDown={seekWithPointer}
      onPointerMove={seekWithPointer}
    >
      <svg aria-hidden="true" viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" className="size-full">
        <defs>
          <linearGradient id={gradientId} gradientUnits="userSpaceOnUse" x1={0} x2={width} y1={0} y2={0}>
            <stop offset={played} style={{ stopColor: "var(--color-accent)" }} />
            <stop offset={played} style={{ stopColor: "var(--color-stage-600)" }} />
          </linearGradient>
        </defs>
        <g fill={`url(#${gradientId})`}>{drawing}</g>
      </svg>
    </SeekSlider>
  );
}

/**
 * The seek slider around a waveform's drawing (the SVG above, or the track page's interactive one): what
 * assistive technology reads (the position and the length in whole seconds, as the text shows them) and
 * the keys: ←/→ step 5 seconds, Home and End go to either end.
 */
export function SeekSlider({
  time,
  duration,
  onSeek,
  height,
  className,
  onPointerDown,
  onPointerMove,
  children,
}: {
  time: number;
  duration: number;
  onSeek: ((seconds: number) => void) | null;
  height?: number;
  className?: string;
  onPointerDown?: (event: PointerEvent<HTMLDivElement>) => void;
  onPointerMove?: (event: PointerEvent<HTMLDivElement>) => void;
  children: ReactNode;
}) {
  function seekWithKeys(event: KeyboardEvent<HTMLDivElement>) {
    const targets: Record<string, number> = {
      ArrowLeft: time - seekStepSeconds,
      ArrowDown: time - seekStepSeconds,
      ArrowRight: time + seekStepSeconds,
      ArrowUp: time + seekStepSeconds,
      Home: 0,
      End: duration,
    };
    const target = targets[event.key];
    if (target === undefined || !onSeek) return;
    event.preventDefault();
    onSeek(Math.min(Math.max(target, 0), duration));
  }

  return (
    <div
      // It follows the player's clock (the player's bench counts what re-renders as it ticks).
      data-player-clock
      role="slider"
      tabIndex={onSeek ? 0 : -1}
      aria-label="Seek"
      aria-valuemin={0}
      aria-valuemax={Math.floor(duration)}
      aria-valuenow={Math.floor(time)}
      aria-valuetext={`${formatDuration(Math.floor(time))} of ${formatDuration(duration)}`}
      aria-disabled={!onSeek || undefined}
      onKeyDown={seekWithKeys}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      style={height ? { height } : undefined}
      className={`touch-none rounded-md ${onSeek ? "cursor-pointer" : ""} ${className ?? ""}`}
    >
      {children}
    </div>
  );
}
