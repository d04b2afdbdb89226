// The one WAV reader: a WAV file's samples read as its bytes arrive, for the media Worker's jobs (a master
// made into a stream or a download) and, whole, for an upload's waveform and length when the server works
// them out itself (an upload without JavaScript; with it, the browser decodes every format). PCM of 8, 16,
// 24 or 32 bits, or 32-bit float, WAVE_FORMAT_EXTENSIBLE included.
import { concat } from "../http/bytes";
import { UnreadableMaster } from "./encoding";

type WavFormat = { channels: number; sampleRate: number; bytesPerSample: number; float: boolean };

/**
 * A WAV file read as its bytes arrive: `push` takes the next piece and answers the samples it completes,
 * one Float32Array a channel (the encoder's input); `format` is known once the header has passed. PCM of
 * 8, 16, 24 or 32 bits, or 32-bit float.
 */
export class WavReader {
  format: WavFormat | null = null;
  /** How many sample frames the header says the data chunk holds (known with `format`). */
  declaredFrames = 0;
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
        this.declaredFrames = Math.floor(size / (format.bytesPerSample * format.channels));
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

type DecodedAudio = { samples: Float32Array; durationSeconds: number };

/** The reader takes a whole file a mebibyte at a time, as it would take a stream. */
const pieceSize = 1024 * 1024;

/** A whole WAV file's first channel (enough for a waveform) and its length; null when it is not one we read. */
export function decodeWav(bytes: Uint8Array): DecodedAudio | null {
  const reader = new WavReader();
  let samples: Float32Array | null = null;
  let frames = 0;
  try {
    for (let at = 0; at < bytes.length && !reader.finished; at += pieceSize) {
      const first = reader.push(bytes.subarray(at, at + pieceSize))?.[0];
      if (!first || !reader.format) continue;
      // No more frames than the file has bytes for: one array, filled in place.
      samples ??= new Float32Array(Math.ceil(bytes.length / (reader.format.bytesPerSample * reader.format.channels)));
      samples.set(first, frames);
      frames += first.length;
    }
  } catch (error) {
    if (error instanceof UnreadableMaster) return null;
    throw error;
  }
  if (!reader.format) return null;
  return { samples: (samples ?? new Float32Array(0)).subarray(0, frames), durationSeconds: frames / reader.format.sampleRate };
}
