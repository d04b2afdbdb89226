// Small real files for the upload tests: they pass the checks by their bytes, as an artist's would.
import { crc32, deflateSync } from "node:zlib";
import jpeg from "jpeg-js";
import { encodeWav } from "@crate/local-supabase/media";

/** A 1×1 PNG. */
export const tinyPng = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64"),
);

/** A mono WAV of a tone that swells, so its waveform is not flat. */
export function toneWav(seconds: number, sampleRate = 8000): Uint8Array<ArrayBuffer> {
  const frames = Math.round(seconds * sampleRate);
  return encodeWav(
    Float32Array.from({ length: frames }, (_, frame) => Math.sin(frame / 4) * (frame / frames)),
    sampleRate,
  );
}

/**
 * A 16-bit PCM WAV of a 440 Hz tone at half scale, on every channel (the right one a fifth higher): the
 * rendition tests' masters, of any length, rate and channel count.
 */
export function encodeTestWav({ seconds, sampleRate, channels }: { seconds: number; sampleRate: number; channels: number }) {
  const frames = Math.round(seconds * sampleRate);
  const tone = (pitch: number) =>
    Float32Array.from({ length: frames }, (_, frame) => Math.sin((2 * Math.PI * pitch * frame) / sampleRate) / 2);
  return encodeWav(
    Array.from({ length: channels }, (_, channel) => tone(channel % 2 === 0 ? 440 : 660)),
    sampleRate,
  );
}

const pngChunk = (type: string, data: Buffer) => {
  const bytes = Buffer.alloc(12 + data.length);
  bytes.writeUInt32BE(data.length, 0);
  bytes.write(type, 4, "latin1");
  data.copy(bytes, 8);
  bytes.writeUInt32BE(crc32(bytes.subarray(4, 8 + data.length)), 8 + data.length);
  return bytes;
};
const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // 8 bits a sample, greyscale, no interlace
  return pngChunk("IHDR", header);
}

/** A real PNG of `width`×`height` (grey): the tests that read a picture's size from its bytes. */
export function pngOf(width: number, height: number): Uint8Array<ArrayBuffer> {
  // Each row: filter type 0, then its pixels.
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let row = 0; row < height; row += 1) rows[row * (width + 1)] = 0;
  return Uint8Array.from(
    Buffer.concat([pngSignature, pngHeader(width, height), pngChunk("IDAT", deflateSync(rows)), pngChunk("IEND", Buffer.alloc(0))]),
  );
}

/** A small PNG whose header claims `width`×`height` pixels (no picture of that size behind it). */
export function pngClaiming(width: number, height: number): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(
    Buffer.concat([
      pngSignature,
      pngHeader(width, height),
      pngChunk("IDAT", deflateSync(Buffer.alloc(2))),
      pngChunk("IEND", Buffer.alloc(0)),
    ]),
  );
}

/**
 * A real JPEG of `width`×`height`, with `metadataBytes` of metadata (APP2 segments, as an ICC profile
 * is stored) before its frame header, as a camera's or an editor's export may carry.
 */
export function jpegOf(width: number, height: number, metadataBytes = 0): Uint8Array<ArrayBuffer> {
  const image = jpeg.encode({ data: Buffer.alloc(width * height * 4, 0x80), width, height }, 80).data;
  const segments: Buffer[] = [];
  for (let left = metadataBytes; left > 0; left -= 65_533) {
    const length = Math.min(left, 65_533);
    const segment = Buffer.alloc(4 + length);
    segment.writeUInt16BE(0xffe2, 0);
    segment.writeUInt16BE(length + 2, 2);
    segments.push(segment);
  }
  return Uint8Array.from(Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)]));
}
