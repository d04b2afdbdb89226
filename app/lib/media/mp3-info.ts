// An MP3's Info frame: the Xing header with LAME's extension, as LAME writes it before its audio (LAME's
// VbrTag.c). Players read from it the exact number of frames (a length and seeking without a scan) and the
// encoder's delay and padding, which gapless decoders (mpg123, ffmpeg, iTunes, foobar2000) trim, so an
// album plays without gaps and a track decodes to exactly its master's samples. It can only be written
// once every frame is known: `Mp3Frames` counts the frames LAME makes as they pass, and `infoFrame` then
// writes the frame that goes before them.

/** LAME's encoder delay in samples (ENCDELAY), before the decoder's own 529. */
export const lameEncoderDelay = 576;

const versions = { 3: "MPEG-1", 2: "MPEG-2", 0: "MPEG-2.5" } as const;
/** Layer III bitrates by index, in kbps: MPEG-1's, then MPEG-2's and 2.5's. */
const bitrates = {
  "MPEG-1": [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  other: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
} as const;
const sampleRates = { "MPEG-1": [44100, 48000, 32000], "MPEG-2": [22050, 24000, 16000], "MPEG-2.5": [11025, 12000, 8000] } as const;

type FrameHeader = { version: (typeof versions)[keyof typeof versions]; bitrateIndex: number; sampleRate: number; mono: boolean };

function readHeader(bytes: Uint8Array, at: number): FrameHeader | null {
  if (bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return null;
  const version = versions[((bytes[at + 1]! >> 3) & 3) as keyof typeof versions];
  const layer = (bytes[at + 1]! >> 1) & 3;
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 3;
  if (!version || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  return { version, bitrateIndex, sampleRate: sampleRates[version][rateIndex]!, mono: bytes[at + 3]! >> 6 === 3 };
}

const kbpsOf = (header: FrameHeader) => bitrates[header.version === "MPEG-1" ? "MPEG-1" : "other"][header.bitrateIndex]!;
/** Samples per channel in a Layer III frame. */
const samplesPerFrame = (header: FrameHeader) => (header.version === "MPEG-1" ? 1152 : 576);
/** A frame's length in bytes without its padding byte. */
const frameLength = (header: FrameHeader, kbps = kbpsOf(header)) =>
  Math.floor((samplesPerFrame(header) / 8) * ((kbps * 1000) / header.sampleRate));
/** Layer III side information, which the tag follows (the frame carries no CRC). */
const sideInfoLength = (header: FrameHeader) => (header.version === "MPEG-1" ? (header.mono ? 17 : 32) : header.mono ? 9 : 17);

/** CRC-16 as LAME computes its checksums (polynomial 0x8005, reflected, from 0). */
export function crc16(bytes: Uint8Array, crc = 0): number {
  let value = crc;
  for (const byte of bytes) {
    value ^= byte;
    for (let bit = 0; bit < 8; bit++) value = value & 1 ? (value >>> 1) ^ 0xa001 : value >>> 1;
  }
  return value;
}

/**
 * The frames of an MP3 as its bytes pass (in pieces of any size): how many, their bytes, the CRC-16 of
 * their bytes (LAME's "music CRC") and their first header. Bytes that are not a frame where one must begin
 * are an error: the encoder's output is frames alone.
 */
export class Mp3Frames {
  count = 0;
  bytes = 0;
  musicCrc = 0;
  first: FrameHeader | null = null;
  /** Where the next frame begins, counted from the first byte. */
  private nextFrame = 0;
  /** A header's bytes split across pieces. */
  private carried = new Uint8Array(0);

  add(piece: Uint8Array): Uint8Array {
    this.musicCrc = crc16(piece, this.musicCrc);
    const start = this.bytes;
    this.bytes += piece.length;
    const joined = this.carried.length > 0 ? concat(this.carried, piece) : piece;
    const joinedStart = start - this.carried.length;
    this.carried = new Uint8Array(0);
    while (this.nextFrame < this.bytes) {
      const at = this.nextFrame - joinedStart;
      if (at + 4 > joined.length) {
        this.carried = joined.slice(at);
        break;
      }
      const header = readHeader(joined, at);
      if (!header) throw new Error(`the MP3 encoder's output has no frame at byte ${this.nextFrame}`);
      this.first ??= header;
      this.count++;
      this.nextFrame += frameLength(header) + ((joined[at + 2]! >> 1) & 1);
    }
    return piece;
  }
}

/**
 * The Info frame for the frames counted, made of `samples` samples per channel (at the MP3's rate): the
 * stream's own header at a bitrate whose frame holds the tag (a silent frame to a decoder that does not
 * know it), "Info" (a constant bitrate), the frame count, the stream's bytes with this frame, a table of
 * contents, and LAME's extension with the encoder delay, the padding and the CRCs.
 */
export function infoFrame(frames: Mp3Frames, samples: number): Uint8Array {
  const header = frames.first;
  if (!header) throw new Error("an MP3 without frames has no Info frame");
  const side = sideInfoLength(header);
  const tagLength = 4 + 4 + 4 + 4 + 100 + 4 + 36;
  const table = bitrates[header.version === "MPEG-1" ? "MPEG-1" : "other"];
  const fits = (index: number) => index >= header.bitrateIndex && frameLength(header, table[index]) >= 4 + side + tagLength;
  const bitrateIndex = table.findIndex((_, index) => index > 0 && fits(index));
  if (bitrateIndex < 0) throw new Error("no MP3 frame at this rate holds an Info tag");
  const length = frameLength(header, table[bitrateIndex]);
  const frame = new Uint8Array(length);
  const view = new DataView(frame.buffer);
  const versionBits = { "MPEG-1": 3, "MPEG-2": 2, "MPEG-2.5": 0 }[header.version];
  const rateIndex = (sampleRates[header.version] as readonly number[]).indexOf(header.sampleRate);
  // Sync, version, Layer III, no CRC; bitrate, rate, no padding; the stream's channel mode.
  frame.set([0xff, 0xe0 | (versionBits << 3) | (1 << 1) | 1, (bitrateIndex << 4) | (rateIndex << 2), header.mono ? 0xc0 : 0x40]);
  const streamBytes = length + frames.bytes;
  const perFrame = samplesPerFrame(header);
  const padding = Math.min(Math.max(frames.count * perFrame - lameEncoderDelay - samples, 0), 0xfff);
  let at = 4 + side;
  frame.set(new TextEncoder().encode("Info"), at);
  view.setUint32(at + 4, 0x0f); // frames, bytes, table of contents, quality
  view.setUint32(at + 8, frames.count);
  view.setUint32(at + 12, streamBytes);
  // A constant bitrate: each hundredth of the track lies as far into the stream.
  for (let percent = 0; percent < 100; percent++) frame[at + 16 + percent] = Math.floor((percent * 256) / 100);
  // LAME's quality indicator for a constant bitrate at its default settings (100 - 10 × 4 - 3).
  view.setUint32(at + 116, 57);
  at += 120;
  const tagCrcAt = at + 34;
  frame.set(new TextEncoder().encode("LAME3.100"), at);
  frame[at + 9] = 0x01; // revision 0, constant bitrate
  // Lowpass, peak and ReplayGain unknown (0); no flags.
  frame[at + 20] = Math.min(kbpsOf(header), 255);
  frame[at + 21] = lameEncoderDelay >> 4;
  frame[at + 22] = ((lameEncoderDelay & 0x0f) << 4) | (padding >> 8);
  frame[at + 23] = padding & 0xff;
  view.setUint32(at + 28, streamBytes);
  view.setUint16(at + 32, frames.musicCrc);
  view.setUint16(tagCrcAt, crc16(frame.subarray(0, tagCrcAt)));
  return frame;
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}
