// How long an upload plays, read from its bytes alone (app/lib/media/audio-length.ts): each format's header,
// first frames or last page, never the length a browser claimed; and an upload past the hour refused.
import { describe, expect, it } from "vitest";
import { audioSeconds, type ReadBytes } from "~/lib/media/audio-length";
import { audioFiles, judgeAudio } from "~/lib/media/media-files";
import { wavHeader } from "../support/wav-header";

const mp3 = { mime: "audio/mpeg", extension: "mp3" } as const;
const wav = { mime: "audio/wav", extension: "wav" } as const;
const aac = { mime: "audio/aac", extension: "aac" } as const;
const ogg = { mime: "audio/ogg", extension: "ogg" } as const;

/** A file of `size` bytes whose first bytes are `head` and last are `tail` (the rest zeros, never read). */
function file(size: number, head: Uint8Array, tail = new Uint8Array(0)): ReadBytes {
  return async (start, length) => {
    const out = new Uint8Array(Math.max(Math.min(length, size - start), 0));
    out.set(head.subarray(start, start + out.length));
    const tailStart = size - tail.length;
    for (let i = 0; i < out.length; i += 1) if (start + i >= tailStart) out[i] = tail[start + i - tailStart]!;
    return out;
  };
}

/** MP3 frames: `header` repeated `count` times, each padded to its length. */
function frames(header: number[], length: number, count: number, first?: (frame: Uint8Array) => void): Uint8Array {
  const bytes = new Uint8Array(length * count);
  for (let n = 0; n < count; n += 1) bytes.set(header, n * length);
  first?.(bytes.subarray(0, length));
  return bytes;
}

describe("an upload's length, from its bytes", () => {
  it("reads a WAV's from its header, bounded by the file's size", async () => {
    expect(
      await audioSeconds(
        wav,
        44 + 176400 * 3,
        file(44 + 176400 * 3, wavHeader({ sampleRate: 44100, channels: 2, bits: 16, dataLength: 176400 * 3 })),
      ),
    ).toBe(3);
    // A header claiming more than the file holds is held to the file; one written before its length was known runs to the end.
    expect(
      await audioSeconds(wav, 44 + 8000, file(44 + 8000, wavHeader({ sampleRate: 8000, channels: 1, bits: 8, dataLength: 8000 * 7200 }))),
    ).toBe(1);
    expect(
      await audioSeconds(wav, 44 + 16000, file(44 + 16000, wavHeader({ sampleRate: 8000, channels: 1, bits: 8, dataLength: 0xffffffff }))),
    ).toBe(2);
  });

  it("reads an MP3's from its Xing frame count, or its constant bitrate over its size", async () => {
    // MPEG-1 layer III, 128 kbps, 44.1 kHz, stereo: 417-byte frames.
    const cbr = frames([0xff, 0xfb, 0x90, 0x00], 417, 4);
    expect(await audioSeconds(mp3, 10_000_000, file(10_000_000, cbr))).toBeCloseTo(625, 0);
    const xing = frames([0xff, 0xfb, 0x90, 0x00], 417, 4, (frame) => {
      frame.set(new TextEncoder().encode("Xing"), 36);
      new DataView(frame.buffer, frame.byteOffset).setUint32(40, 1);
      new DataView(frame.buffer, frame.byteOffset).setUint32(44, 10_000);
    });
    expect(await audioSeconds(mp3, 5_000_000, file(5_000_000, xing))).toBeCloseTo((10_000 * 1152) / 44100, 3);
    // After an ID3 tag (a cover, say) of 20 bytes.
    const tagged = new Uint8Array(30 + cbr.length);
    tagged.set([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 20]);
    tagged.set(cbr, 30);
    expect(await audioSeconds(mp3, 10_000_030, file(10_000_030, tagged))).toBeCloseTo(625, 0);
  });

  it("finds the 20 minutes of a 1.2 MB MP3 at 8 kbps, and an hour past the limit in 4 MB", async () => {
    // MPEG-2.5 layer III, 8 kbps, 8 kHz, mono: 72-byte frames.
    const slow = frames([0xff, 0xe3, 0x18, 0xc0], 72, 8);
    expect(await audioSeconds(mp3, 1_200_000, file(1_200_000, slow))).toBeCloseTo(1200, 0);
    expect(await audioSeconds(mp3, 4_000_000, file(4_000_000, slow))).toBeGreaterThan(audioFiles.maxSeconds);
  });

  it("reads AAC's from its ADTS frames, and Ogg's from its last page's granule position", async () => {
    // 100-byte ADTS frames at 44.1 kHz, one raw block (1,024 samples) each.
    const adts = frames([0xff, 0xf1, 0x50, 0x80, 0x0c, 0x9f, 0xfc], 100, 2);
    expect(await audioSeconds(aac, 441_000, file(441_000, adts))).toBeCloseTo((4410 * 1024) / 44100, 3);
    const head = new Uint8Array(64);
    head.set(new TextEncoder().encode("OggS"), 0);
    head.set([1, ...new TextEncoder().encode("vorbis")], 28);
    new DataView(head.buffer).setUint32(28 + 12, 48000, true);
    const tail = new Uint8Array(64);
    tail.set(new TextEncoder().encode("OggS"), 10);
    new DataView(tail.buffer).setBigUint64(10 + 6, 48000n * 200n, true);
    expect(await audioSeconds(ogg, 2_000_000, file(2_000_000, head, tail))).toBe(200);
  });

  it("says nothing of bytes it cannot read", async () => {
    expect(await audioSeconds(mp3, 1000, file(1000, new Uint8Array(100)))).toBeNull();
    expect(await audioSeconds(wav, 1000, file(1000, new Uint8Array(44)))).toBeNull();
  });

  it("refuses an upload longer than an hour, with a message that says so", async () => {
    const slow = frames([0xff, 0xe3, 0x18, 0xc0], 72, 60_000);
    expect(await judgeAudio(new Blob([slow.slice()]))).toEqual({ type: null, problem: audioFiles.tooLong, seconds: 4320 });
    expect(audioFiles.tooLong).toBe("This track is longer than 60 minutes, the longest a track may be.");
  });
});
