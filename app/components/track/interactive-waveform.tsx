import { useEffect, useRef } from "react";
import WaveSurfer from "wavesurfer.js";
import { SeekSlider } from "~/components/player/seek-waveform";
import { player } from "~/lib/player";

/**
 * The track page's waveform once its track is the player's (loaded then, after the page's first paint):
 * wavesurfer.js drawing the stored peaks and length (nothing decoded, nothing downloaded) on the site's
 * one audio element, which it follows and seeks by click and drag. The slider around it keeps the keys
 * and what assistive technology reads; the server-drawn SVG stays the first paint and the view without
 * JavaScript.
 */
export default function InteractiveWaveform({
  peaks,
  time,
  duration,
  height,
  className,
}: {
  peaks: number[] | null;
  time: number;
  duration: number;
  height: number;
  className?: string;
}) {
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const media = document.querySelector<HTMLAudioElement>("audio[data-site-player]");
    if (!container.current || !media || !duration) return;
    const colours = getComputedStyle(document.documentElement);
    const waveform = WaveSurfer.create({
      container: container.current,
      media,
      peaks: [peaks ?? [0]],
      duration,
      height,
      waveColor: colours.getPropertyValue("--color-stage-600"),
      progressColor: colours.getPropertyValue("--color-accent"),
      cursorWidth: 0,
      barWidth: 2,
      barGap: 1,
      barRadius: 1,
      interact: true,
      dragToSeek: true,
    });
    // Dropped with the page or when another track plays; the audio element is the player's and stays.
    return () => waveform.destroy();
  }, [peaks, duration, height]);

  return (
    <SeekSlider time={time} duration={duration} onSeek={player.seek} height={height} className={className}>
      <div ref={container} aria-hidden="true" className="size-full" />
    </SeekSlider>
  );
}
