// How a made file is encoded (the formats themselves are the registry, supabase/functions/_shared/made-formats.ts),
// and why a master could not be read, which every encoder says the same way.
import { madeFormats, type MadeFormat, type Mp3Kbps } from "../../../supabase/functions/_shared/made-formats";

const mp3SampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3SampleRate = (typeof mp3SampleRates)[number];

/** MPEG-2 and 2.5 (rates below 32 kHz) carry at most 160 kbps: a higher bitrate takes MPEG-1's rates. */
const mpeg2MaxKbps = 160;

export type EncoderSettings = { channels: 1 | 2; sampleRate: number; bitrate: Mp3Kbps; outputSampleRate: Mp3SampleRate };

/**
 * LAME's settings for an MP3 format of a master: mono stays mono; more than two channels are mixed to
 * stereo; the registry's bitrate. MP3 holds up to 48 kHz: a master above it (88.2, 96, 192 kHz) is
 * resampled to 44.1 or 48 kHz; a bitrate above MPEG-2's takes the nearest MPEG-1 rate (32, 44.1, 48 kHz)
 * that the master's rate divides.
 */
export function encoderSettings(format: MadeFormat, channels: number, sampleRate: number): EncoderSettings {
  const { encoding } = madeFormats[format];
  if (encoding.codec !== "mp3") throw new Error(`${format} is not an MP3 format`);
  const out: 1 | 2 = channels === 1 ? 1 : 2;
  const bitrate: Mp3Kbps = out === 1 ? encoding.kbps.mono : encoding.kbps.stereo;
  let outputSampleRate: Mp3SampleRate =
    mp3SampleRates.find((rate) => rate === sampleRate) ?? (sampleRate % 44100 === 0 ? 44100 : sampleRate > 48000 ? 48000 : 44100);
  if (bitrate > mpeg2MaxKbps && outputSampleRate < 32000) outputSampleRate = 44100 % outputSampleRate === 0 ? 44100 : 48000;
  return { channels: out, sampleRate, bitrate, outputSampleRate };
}

/** Why a master could not be made into a file: said to its artist as "Failed: <reason>". */
export class UnreadableMaster extends Error {}
