import { peakCount, waveformPeaks } from "../../../supabase/functions/_shared/waveform";

// A track's waveform and length, read in the browser while it uploads, so the player can draw it at once
// as it does for every published track. The browser decodes whatever it can play.

export type Waveform = { peaks: number[]; durationSeconds: number };

/** 3 kHz is plenty for 300 bars and keeps a long track's decoded samples small. */
const sampleRate = 3000;

/** The waveform of an audio file, or null when the browser cannot decode it. */
export async function readWaveform(file: Blob): Promise<Waveform | null> {
  try {
    const audio = await new OfflineAudioContext(1, 1, sampleRate).decodeAudioData(await file.arrayBuffer());
    if (!(audio.duration > 0)) return null;
    const mixed = new Float32Array(audio.length);
    for (let channel = 0; channel < audio.numberOfChannels; channel++) {
      const samples = audio.getChannelData(channel);
      samples.forEach((sample, i) => (mixed[i] = (mixed[i] ?? 0) + sample / audio.numberOfChannels));
    }
    return { peaks: waveformPeaks(mixed, peakCount), durationSeconds: audio.duration };
  } catch {
    return null;
  }
}
