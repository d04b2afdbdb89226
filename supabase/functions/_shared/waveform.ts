// The waveform the track page draws before the audio has loaded, computed once at upload. Shared by
// the app (uploads), the Edge Functions and the local stack's demo media (plain TypeScript).

/** How many bars a stored waveform has. */
export const peakCount = 300;

/** Loudest absolute sample in each of `count` equal slices, scaled so the loudest slice is 1, to 3 decimals. */
export function waveformPeaks(samples: Float32Array, count: number): number[] {
  const peaks: number[] = [];
  for (let slice = 0; slice < count; slice++) {
    const from = Math.floor((slice * samples.length) / count);
    const to = Math.floor(((slice + 1) * samples.length) / count);
    let peak = 0;
    for (let i = from; i < to; i++) peak = Math.max(peak, Math.abs(samples[i] ?? 0));
    peaks.push(peak);
  }
  const loudest = Math.max(...peaks) || 1;
  return peaks.map((peak) => Math.round((peak / loudest) * 1000) / 1000);
}
