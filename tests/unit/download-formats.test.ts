// The made download formats, read back by other people's code: FLAC decoded by libFLAC (WebAssembly) to
// the very samples it was given, and the tags of both formats read by music-metadata, the tag reader
// music players and servers on npm use.
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { parseBuffer } from "music-metadata";
import { createMp3Encoder } from "wasm-media-encoders";
import { describe, expect, it } from "vitest";
import { FlacEncoder } from "~/lib/media/flac";
import { concat } from "~/lib/http/bytes";
import { id3Tag, type DownloadTags } from "~/lib/media/tags";
import { Md5 } from "~/lib/media/md5";

/** A 1×1 PNG. */
const png = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);
const cover = { type: "image/png", data: png, width: 1, height: 1 };
const tags: DownloadTags = {
  title: "Héllo — “Wörld” ☀",
  artist: "Søren & The Ünicode",
  album: "Nights / Days",
  trackNumber: 7,
  trackCount: 12,
  genre: "Ambient",
  year: 2024,
  cover,
};

/** `frames` samples of each channel at `bits`, as integers and as the floats the WAV reader gives. */
function signal(frames: number, channels: number, bits: number, shape: (frame: number, channel: number) => number) {
  const scale = 2 ** (bits - 1);
  const integers = Array.from({ length: channels }, (_, channel) =>
    Int32Array.from({ length: frames }, (_, frame) => Math.max(-scale, Math.min(scale - 1, Math.round(shape(frame, channel) * scale)))),
  );
  return { integers, floats: integers.map((channel) => Float32Array.from(channel, (value) => value / scale)) };
}

async function decodeFlac(file: Uint8Array) {
  const decoder = new FLACDecoder();
  await decoder.ready;
  try {
    return await decoder.decodeFile(file);
  } finally {
    decoder.free();
  }
}

const music = (frame: number, channel: number) =>
  0.4 * Math.sin((2 * Math.PI * (channel ? 660 : 440) * frame) / 44100) +
  0.1 * Math.sin(frame / 3.7) +
  0.05 * (((frame * 7919) % 101) / 101 - 0.5);

describe("FLAC", () => {
  for (const { channels, bits, frames, sampleRate } of [
    { channels: 2, bits: 16, frames: 44100 * 2 + 123, sampleRate: 44100 },
    { channels: 2, bits: 24, frames: 20000, sampleRate: 96000 },
    { channels: 1, bits: 16, frames: 5000, sampleRate: 22050 },
    { channels: 1, bits: 8, frames: 4096, sampleRate: 8000 },
    { channels: 2, bits: 16, frames: 9000, sampleRate: 37800 },
  ]) {
    it(`gives back every sample: ${channels} channel(s), ${bits} bits, ${sampleRate} Hz, ${frames} frames`, async () => {
      const { integers, floats } = signal(frames, channels, bits, music);
      const encoder = new FlacEncoder(channels, sampleRate, bits, frames);
      // Pieces of awkward sizes, as a master's bytes arrive: each gives the frames it completes.
      const parts = [encoder.start(tags)];
      for (let start = 0; start < frames; start += 3001) {
        parts.push(...encoder.push(floats.map((channel) => channel.subarray(start, start + 3001))));
      }
      expect(parts.length).toBe(1 + Math.floor(frames / 4096));
      const file = concat(...parts, ...encoder.finish());
      const decoded = await decodeFlac(file);
      expect(decoded.errors).toEqual([]);
      expect(decoded.sampleRate).toBe(sampleRate);
      expect(decoded.bitDepth).toBe(bits);
      expect(decoded.samplesDecoded).toBe(frames);
      const scale = 2 ** (bits - 1);
      for (let channel = 0; channel < channels; channel++) {
        const back = Int32Array.from(decoded.channelData[channel]!, (value) => Math.round(value * (scale - 1)));
        expect(back).toEqual(integers[channel]);
      }
    });
  }

  it("codes silence, full scale and a hard left/right split exactly, and smaller than the samples", async () => {
    const frames = 4096 * 3;
    const { integers, floats } = signal(frames, 2, 16, (frame, channel) =>
      frame < 4096 ? 0 : frame < 8192 ? (frame % 2 ? 1 : -1) : channel ? 0 : Math.sin(frame / 10) * 0.9,
    );
    const encoder = new FlacEncoder(2, 44100, 16, frames);
    const file = concat(encoder.start({ ...tags, cover: null }), ...encoder.push(floats), ...encoder.finish());
    const decoded = await decodeFlac(file);
    for (let channel = 0; channel < 2; channel++) {
      expect(Int32Array.from(decoded.channelData[channel]!, (value) => Math.round(value * 32767))).toEqual(integers[channel]);
    }
    expect(file.length).toBeLessThan(frames * 2 * 2);
  });

  it("compresses music well below its WAV", () => {
    const frames = 44100 * 3;
    const { floats } = signal(frames, 2, 16, music);
    const encoder = new FlacEncoder(2, 44100, 16, frames);
    const size = [encoder.start({ ...tags, cover: null }), ...encoder.push(floats), ...encoder.finish()].reduce(
      (sum, part) => sum + part.length,
      0,
    );
    expect(size).toBeLessThan(frames * 2 * 2 * 0.8);
  });

  it("keeps the count its STREAMINFO names, written before any frame: a master that ends short is made up with silence", async () => {
    const { floats } = signal(5000, 2, 16, music);
    const encoder = new FlacEncoder(2, 44100, 16, 9000);
    const file = concat(encoder.start(null), ...encoder.push(floats), ...encoder.finish());
    const decoded = await decodeFlac(file);
    expect(decoded.errors).toEqual([]);
    expect(decoded.samplesDecoded).toBe(9000);
    expect(new Set(decoded.channelData[0]!.subarray(5000))).toEqual(new Set([0]));
    expect((await parseBuffer(file, { mimeType: "audio/flac" })).format.duration).toBeCloseTo(9000 / 44100, 5);
  });

  it("carries its tags and cover as Vorbis comments and a PICTURE block", async () => {
    const { floats } = signal(8000, 2, 16, music);
    const encoder = new FlacEncoder(2, 44100, 16, 8000);
    const file = concat(encoder.start(tags), ...encoder.push(floats), ...encoder.finish());
    const { common, format } = await parseBuffer(file, { mimeType: "audio/flac" });
    expect(format.container).toBe("FLAC");
    expect(format.duration).toBeCloseTo(8000 / 44100, 5);
    expect(format.bitsPerSample).toBe(16);
    expect(format.lossless).toBe(true);
    expect(common).toMatchObject({ title: tags.title, artist: tags.artist, album: tags.album, albumartist: tags.artist, year: 2024 });
    expect(common.track).toEqual({ no: 7, of: 12 });
    expect(common.genre).toEqual(["Ambient"]);
    expect(common.picture?.[0]?.format).toBe("image/png");
    expect(common.picture?.[0]?.data).toEqual(cover.data);
  });
});

describe("MP3's ID3v2.3 tag", () => {
  it("carries the title, artist, album, number of the total, genre, year and cover, before LAME's 320 kbps frames", async () => {
    const encoder = await createMp3Encoder();
    encoder.configure({ channels: 2, sampleRate: 44100, bitrate: 320 });
    const { floats } = signal(44100, 2, 16, music);
    const file = concat(id3Tag(tags), encoder.encode(floats).slice(), encoder.finalize().slice());
    const { common, format } = await parseBuffer(file, { mimeType: "audio/mpeg" });
    expect(format.tagTypes).toContain("ID3v2.3");
    expect(format.bitrate).toBe(320000);
    expect(common).toMatchObject({ title: tags.title, artist: tags.artist, album: tags.album, albumartist: tags.artist, year: 2024 });
    expect(common.track).toEqual({ no: 7, of: 12 });
    expect(common.genre).toEqual(["Ambient"]);
    expect(common.picture?.[0]?.format).toBe("image/png");
    expect(common.picture?.[0]?.data).toEqual(cover.data);
  });

  it("leaves out what it does not know", async () => {
    const { common } = await parseBuffer(
      id3Tag({ ...tags, album: null, trackNumber: null, trackCount: null, genre: null, year: null, cover: null }),
      {
        mimeType: "audio/mpeg",
      },
    );
    expect(common.title).toBe(tags.title);
    expect(common.album).toBeUndefined();
    expect(common.genre).toBeUndefined();
    expect(common.picture).toBeUndefined();
  });
});

describe("MD5, for FLAC's STREAMINFO", () => {
  it("gives RFC 1321's test values, fed whole or in pieces", () => {
    const hex = (bytes: Uint8Array) => [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    const of = (text: string) => new TextEncoder().encode(text);
    expect(hex(new Md5().digest())).toBe("d41d8cd98f00b204e9800998ecf8427e");
    expect(hex(new Md5().update(of("abc")).digest())).toBe("900150983cd24fb0d6963f7d28e17f72");
    const long = "12345678901234567890".repeat(4);
    expect(hex(new Md5().update(of(long)).digest())).toBe("57edf4a22be3c955ac49da2e2107b67a");
    expect(
      hex(
        new Md5()
          .update(of(long.slice(0, 33)))
          .update(of(long.slice(33)))
          .digest(),
      ),
    ).toBe("57edf4a22be3c955ac49da2e2107b67a");
  });
});
