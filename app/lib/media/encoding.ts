// How a made file is encoded (the formats themselves are the registry, supabase/functions/_shared/made-formats.ts),
// and why a master could not be read, which every encoder says the same way.
import { madeFormats, type MadeFormat, type Mp3Kbps } from "../../../supabase/functions/_shared/made-formats";

const mp3SampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3SampleRate = (typeof mp3SampleRates)[number];

/** The bitrates MP3 allows at a sample rate: MPEG-1 (32-48 kHz), MPEG-2 (16-24 kHz), MPEG-2.5 (8-12 kHz). */
function bitrateRange(sampleRate: Mp3SampleRate): { least: Mp3Kbps; most: Mp3Kbps } {
  if (sampleRate >= 32000) return { least: 32, most: 320 };
  return sampleRate >= 16000 ? { least: 8, most: 160 } : { least: 8, most: 64 };
}

export type EncoderSettings = { channels: 1 | 2; sampleRate: number; bitrate: Mp3Kbps; outputSampleRate: Mp3SampleRate };

/**
 * LAME's settings for an MP3 format of a master: mono stays mono; more than two channels are mixed to
 * stereo. Nothing is upsampled: the master's rate is kept where MP3 has it, a rate between MP3's becomes the
 * one below it, and one above 48 kHz (88.2, 96, 192 kHz) becomes 44.1 or 48 kHz. The bitrate is the
 * registry's, or `kbps` where the master warrants less (private.download_mp3_kbps), within what MP3 allows
 * at that rate.
 */
export function encoderSettings(format: MadeFormat, channels: number, sampleRate: number, kbps: number | null = null): EncoderSettings {
  const { encoding } = madeFormats[format];
  if (encoding.codec !== "mp3") throw new Error(`${format} is not an MP3 format`);
  const out: 1 | 2 = channels === 1 ? 1 : 2;
  const outputSampleRate: Mp3SampleRate =
    sampleRate > 48000 ? (sampleRate % 44100 === 0 ? 44100 : 48000) : (mp3SampleRates.findLast((rate) => rate <= sampleRate) ?? 8000);
  const { least, most } = bitrateRange(outputSampleRate);
  const wanted = Math.min(out === 1 ? encoding.kbps.mono : encoding.kbps.stereo, kbps ?? Infinity);
  const bitrate = mp3Bitrates.findLast((rate) => rate <= Math.min(wanted, most) && rate >= least) ?? least;
  return { channels: out, sampleRate, bitrate, outputSampleRate };
}

/** The constant bitrates LAME encodes at, lowest first. */
const mp3Bitrates: readonly Mp3Kbps[] = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];

/** Why a master could not be made into a file: said to its artist as "Failed: <reason>". */
export class UnreadableMaster extends Error {}
