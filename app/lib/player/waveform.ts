// A waveform's geometry, drawn from a track's stored peaks (each in [0, 1]): the same bars on the server
// (the first paint, and the view without JavaScript), in the site's player and in the embedded player.

/** A track without stored peaks shows an even, low line of this many bars. */
const flatBarCount = 120;
const flatPeak = 0.08;

/** Each bar's slot is this wide in the drawing's units: a bar of 2 and a gap of 1. */
const slot = 3;

type WaveformBar = { x: number; y: number; width: number; height: number; rx: number };

/** The bars for `peaks` (an even line without them), in a box `waveformWidth` wide and 100 high. */
export function waveformBars(peaks: readonly number[] | null): WaveformBar[] {
  const values = peaks && peaks.length > 0 ? peaks : Array.from({ length: flatBarCount }, () => flatPeak);
  return values.map((peak, index) => {
    const height = Math.max(peak * 100, 2);
    return { x: index * slot, y: (100 - height) / 2, width: 2, height, rx: 0.5 };
  });
}

/** The drawing's width for so many bars. */
export const waveformWidth = (bars: number) => bars * slot;

/** The share of a track played, for the drawing's two colours. */
export const playedShare = (time: number, duration: number) => (duration > 0 ? Math.min(Math.max(time / duration, 0), 1) : 0);
