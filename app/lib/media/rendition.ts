// What a streaming rendition is, and a master's audio read as it arrives: the rendition queue
// (rendition-queue.server.ts) feeds a master's bytes in pieces and encodes the samples as they come, so a
// 50 MB upload never sits in the Worker's memory whole.

/**
 * MP3 at 64 kbps a channel, constant bitrate (128 kbps for stereo): every browser plays it (Chrome, Firefox,
 * Safari on macOS and iOS, without a fallback), a listener on a phone cannot tell it from the master, and
 * it is 1/11 of a 16-bit 44.1 kHz stereo WAV. The ending names the format in the rendition's file name, so
 * a new format is a new file: `npm run renditions -- --all` then renders what does not end in it.
 */
export const renditionFormat = ".128k.mp3";
export const renditionType = "audio/mpeg";

const mp3SampleRates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3SampleRate = (typeof mp3SampleRates)[number];

export type EncoderSettings = { channels: 1 | 2; sampleRate: number; bitrate: 64 | 128 | 320; outputSampleRate: Mp3SampleRate };

/** The encoder's settings for a master: mono stays mono; more than two channels are mixed to stereo. */
export function encoderSettings(channels: number, sampleRate: number): EncoderSettings {
  const out: 1 | 2 = channels === 1 ? 1 : 2;
  // MP3 holds up to 48 kHz: a master above it (88.2, 96, 192 kHz) is resampled to 44.1 or 48 kHz by LAME.
  const outputSampleRate =
    mp3SampleRates.find((rate) => rate === sampleRate) ?? (sampleRate % 44100 === 0 ? 44100 : sampleRate > 48000 ? 48000 : 44100);
  return { channels: out, sampleRate, bitrate: out === 1 ? 64 : 128, outputSampleRate };
}

/**
 * The settings of a download's MP3: 320 kbps, which only MPEG-1's rates (32, 44.1, 48 kHz) carry, so a
 * master at a lower rate is resampled up to the nearest of them that its rate divides (44.1 or 48 kHz).
 */
export function downloadEncoderSettings(channels: number, sampleRate: number): EncoderSettings {
  const settings = encoderSettings(channels, sampleRate);
  const rate = settings.outputSampleRate;
  const outputSampleRate = rate === 32000 || rate === 44100 || rate === 48000 ? rate : 44100 % rate === 0 ? 44100 : 48000;
  return { ...settings, bitrate: 320, outputSampleRate };
}

/** Why a master could not be rendered: said to its artist as "Failed: <reason>". */
export class UnreadableMaster extends Error {}

type WavFormat = { channels: number; sampleRate: number; bytesPerSample: number; float: boolean };

/**
 * A WAV file read as its bytes arrive: `push` takes the next piece and answers the samples it completes,
 * one Float32Array a channel (the encoder's input); `format` is known once the header has passed. PCM of
 * 8, 16, 24 or 32 bits, or 32-bit float.
 */
export class WavReader {
  format: WavFormat | null = null;
  private header: Uint8Array = new Uint8Array(0);
  private dataLeft = 0;
  private carry: Uint8Array = new Uint8Array(0);

  push(piece: Uint8Array): Float32Array[] | null {
    if (!this.format) return this.readHeader(piece);
    return this.samples(piece);
  }

  /** True once the data chunk has been read to its end. */
  get finished(): boolean {
    return this.format !== null && this.dataLeft === 0;
  }

  private readHeader(piece: Uint8Array): Float32Array[] | null {
    this.header = concat(this.header, piece);
    const bytes = this.header;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
    if (bytes.length < 12) return null;
    if (text(0) !== "RIFF" || text(8) !== "WAVE") throw new UnreadableMaster("the WAV file's header is not readable");
    let format: WavFormat | null = null;
    for (let at = 12; at + 8 <= bytes.length;) {
      const id = text(at);
      const size = view.getUint32(at + 4, true);
      const body = at + 8;
      if (id === "data") {
        if (!format) throw new UnreadableMaster("the WAV file has no format before its audio");
        this.format = format;
        this.dataLeft = size;
        this.header = new Uint8Array(0);
        return this.samples(bytes.subarray(body));
      }
      if (body + size > bytes.length) return null;
      if (id === "fmt " && size >= 16) format = wavFormat(view, body);
      at = body + size + (size % 2);
      // A header this long is not a WAV file's.
      if (at > 1024 * 1024) break;
    }
    if (bytes.length > 1024 * 1024) throw new UnreadableMaster("the WAV file's header is not readable");
    return null;
  }

  private samples(piece: Uint8Array): Float32Array[] {
    const format = this.format!;
    const taken = piece.subarray(0, Math.min(piece.length, this.dataLeft));
    this.dataLeft -= taken.length;
    const bytes = this.carry.length ? concat(this.carry, taken) : taken;
    const frameSize = format.bytesPerSample * format.channels;
    const frames = Math.floor(bytes.length / frameSize);
    this.carry = bytes.slice(frames * frameSize);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const channels = Array.from({ length: Math.min(format.channels, 2) }, () => new Float32Array(frames));
    for (let frame = 0; frame < frames; frame++) {
      const at = frame * frameSize;
      if (format.channels <= 2) {
        for (let channel = 0; channel < format.channels; channel++) {
          channels[channel]![frame] = sample(view, at + channel * format.bytesPerSample, format);
        }
        continue;
      }
      // Surround: the odd channels to the left, the even ones to the right, as an even mix.
      let left = 0;
      let right = 0;
      for (let channel = 0; channel < format.channels; channel++) {
        const value = sample(view, at + channel * format.bytesPerSample, format);
        if (channel % 2 === 0) left += value;
        else right += value;
      }
      channels[0]![frame] = left / Math.ceil(format.channels / 2);
      channels[1]![frame] = right / Math.floor(format.channels / 2);
    }
    return channels;
  }
}

function wavFormat(view: DataView, at: number): WavFormat {
  let encoding = view.getUint16(at, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const bits = view.getUint16(at + 14, true);
  // WAVE_FORMAT_EXTENSIBLE names its real encoding in the first two bytes of its sub-format.
  if (encoding === 0xfffe && view.byteLength >= at + 26) encoding = view.getUint16(at + 24, true);
  const float = encoding === 3 && bits === 32;
  if ((encoding !== 1 && !float) || ![8, 16, 24, 32].includes(bits)) {
    throw new UnreadableMaster("the WAV file's encoding is not PCM or 32-bit float");
  }
  if (channels < 1 || channels > 8 || sampleRate < 8000 || sampleRate > 384000) {
    throw new UnreadableMaster("the WAV file's channels or sample rate are out of range");
  }
  return { channels, sampleRate, bytesPerSample: bits / 8, float };
}

function sample(view: DataView, at: number, { bytesPerSample, float }: WavFormat): number {
  if (float) return view.getFloat32(at, true);
  if (bytesPerSample === 1) return (view.getUint8(at) - 128) / 128;
  if (bytesPerSample === 2) return view.getInt16(at, true) / 32768;
  if (bytesPerSample === 3) return ((view.getUint8(at + 2) << 24) | (view.getUint8(at + 1) << 16) | (view.getUint8(at) << 8)) / 2147483648;
  return view.getInt32(at, true) / 2147483648;
}

export function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const whole = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.length;
  }
  return whole;
}
