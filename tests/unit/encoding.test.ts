// What a made file is made from: a WAV read piece by piece as the media queue fetches it, whatever the
// pieces' sizes (and whole, by the same reader, for an upload's waveform), and the encoder's settings for
// each kind of master.
import { describe, expect, it } from "vitest";
import { encoderSettings, UnreadableMaster } from "~/lib/media/encoding";
import { audioFiles } from "~/lib/media/media-files";
import { encodeMaster, type Encoder } from "~/lib/media/media-jobs.server";
import { wavHeader } from "../support/wav-header";
import { decodeWav, WavReader } from "~/lib/media/wav";

/** A WAV of `frames` frames whose every sample is `value(frame, channel)`, in the given encoding. */
function wav({
  channels,
  bits,
  float = false,
  extensible = false,
  frames = 1000,
  sampleRate = 44100,
  extraChunk = 0,
}: {
  channels: number;
  bits: 8 | 16 | 24 | 32;
  float?: boolean;
  extensible?: boolean;
  frames?: number;
  sampleRate?: number;
  extraChunk?: number;
}) {
  const bytesPerSample = bits / 8;
  const fmtSize = extensible ? 40 : 16;
  const dataSize = frames * channels * bytesPerSample;
  const listSize = extraChunk ? 8 + extraChunk : 0;
  const bytes = new Uint8Array(12 + 8 + fmtSize + listSize + 8 + dataSize);
  const view = new DataView(bytes.buffer);
  const text = (at: number, value: string) => [...value].forEach((character, index) => view.setUint8(at + index, character.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, bytes.length - 8, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, fmtSize, true);
  view.setUint16(20, extensible ? 0xfffe : float ? 3 : 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * bytesPerSample, true);
  view.setUint16(32, channels * bytesPerSample, true);
  view.setUint16(34, bits, true);
  if (extensible) view.setUint16(44, float ? 3 : 1, true);
  let at = 20 + fmtSize;
  if (extraChunk) {
    text(at, "LIST");
    view.setUint32(at + 4, extraChunk, true);
    at += 8 + extraChunk;
  }
  text(at, "data");
  view.setUint32(at + 4, dataSize, true);
  at += 8;
  for (let frame = 0; frame < frames; frame++) {
    for (let channel = 0; channel < channels; channel++) {
      const value = channel % 2 === 0 ? 0.5 : -0.25;
      if (float) view.setFloat32(at, value, true);
      else if (bits === 8) view.setUint8(at, 128 + value * 128);
      else if (bits === 16) view.setInt16(at, value * 32768, true);
      else if (bits === 24) {
        const sample = Math.round(value * 8388608);
        view.setUint8(at, sample & 0xff);
        view.setUint8(at + 1, (sample >> 8) & 0xff);
        view.setUint8(at + 2, (sample >> 16) & 0xff);
      } else view.setInt32(at, value * 2147483648, true);
      at += bytesPerSample;
    }
  }
  return bytes;
}

/** Everything the reader gives for the file fed in pieces of `size` bytes, joined per channel. */
function readInPieces(bytes: Uint8Array, size: number) {
  const reader = new WavReader();
  const channels: number[][] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const samples = reader.push(bytes.subarray(at, at + size));
    samples?.forEach((channel, index) => (channels[index] ??= []).push(...channel));
  }
  return { reader, channels };
}

describe("reading a WAV as it arrives", () => {
  it("gives every frame once, whatever the pieces' sizes, a header split across them included", () => {
    const file = wav({ channels: 2, bits: 16, extraChunk: 300 });
    for (const size of [1, 7, 44, 345, 4096, file.length]) {
      const { reader, channels } = readInPieces(file, size);
      expect(reader.format).toEqual({ channels: 2, sampleRate: 44100, bytesPerSample: 2, float: false });
      expect(reader.finished).toBe(true);
      expect(channels.map((channel) => channel.length)).toEqual([1000, 1000]);
      expect(new Set(channels[0])).toEqual(new Set([0.5]));
      expect(new Set(channels[1])).toEqual(new Set([-0.25]));
    }
  });

  it("reads 8, 24 and 32-bit PCM, 32-bit float, and the extensible format's", () => {
    for (const encoding of [
      { channels: 1, bits: 8 },
      { channels: 1, bits: 24 },
      { channels: 1, bits: 32 },
      { channels: 1, bits: 32, float: true },
      { channels: 1, bits: 24, extensible: true },
    ] as const) {
      const { channels } = readInPieces(wav(encoding), 333);
      expect(channels.length, JSON.stringify(encoding)).toBe(1);
      for (const sample of channels[0]!) expect(sample).toBeCloseTo(0.5, 2);
    }
  });

  it("mixes more than two channels down to stereo", () => {
    const { channels } = readInPieces(wav({ channels: 6, bits: 16 }), 1000);
    expect(channels.length).toBe(2);
    expect(channels[0]![0]).toBeCloseTo(0.5, 3);
    expect(channels[1]![0]).toBeCloseTo(-0.25, 3);
  });

  it("says why it cannot read a master: not a WAV, compressed audio inside one, no format before the audio", () => {
    expect(() => new WavReader().push(new TextEncoder().encode("<!doctype html><html></html>"))).toThrow(UnreadableMaster);
    const compressed = wav({ channels: 2, bits: 16 });
    new DataView(compressed.buffer).setUint16(20, 0x55, true);
    expect(() => new WavReader().push(compressed)).toThrow("the WAV file's encoding is not PCM or 32-bit float");
    const noFormat = wav({ channels: 2, bits: 16 });
    noFormat.set(new TextEncoder().encode("junk"), 12);
    expect(() => new WavReader().push(noFormat)).toThrow("the WAV file has no format before its audio");
  });
});

describe("a whole WAV's waveform and length (an upload without JavaScript)", () => {
  it("reads its first channel and its length, by the same reader, the extensible format included", () => {
    for (const encoding of [
      { channels: 2, bits: 16 },
      { channels: 1, bits: 24, extensible: true },
    ] as const) {
      const decoded = decodeWav(wav({ ...encoding, frames: 22050 }));
      expect(decoded?.durationSeconds, JSON.stringify(encoding)).toBe(0.5);
      expect(decoded?.samples.length).toBe(22050);
      expect(decoded?.samples[100]).toBeCloseTo(0.5, 2);
    }
  });

  it("is null for what is not a WAV it reads", () => {
    expect(decodeWav(new TextEncoder().encode("<!doctype html><html></html>"))).toBeNull();
    const compressed = wav({ channels: 2, bits: 16 });
    new DataView(compressed.buffer).setUint16(20, 0x55, true);
    expect(decodeWav(compressed)).toBeNull();
  });
});

describe("the encoder's settings", () => {
  it("keep mono at 64 kbps and stereo at 128 kbps, at the master's rate where MP3 has it, else 44.1 or 48 kHz", () => {
    expect(encoderSettings("stream", 1, 22050)).toEqual({ channels: 1, sampleRate: 22050, bitrate: 64, outputSampleRate: 22050 });
    expect(encoderSettings("stream", 2, 48000)).toEqual({ channels: 2, sampleRate: 48000, bitrate: 128, outputSampleRate: 48000 });
    expect(encoderSettings("stream", 6, 44100)).toMatchObject({ channels: 2, bitrate: 128 });
    expect(encoderSettings("stream", 2, 96000).outputSampleRate).toBe(48000);
    expect(encoderSettings("stream", 2, 88200).outputSampleRate).toBe(44100);
  });

  it("makes a download's MP3 at 320 kbps or what the master warrants, never upsampled, within what MP3 allows at its rate", () => {
    expect(encoderSettings("mp3", 2, 44100)).toMatchObject({ bitrate: 320, outputSampleRate: 44100 });
    expect(encoderSettings("mp3", 2, 44100, 128)).toMatchObject({ bitrate: 128, outputSampleRate: 44100 });
    // An 8 kHz master stays at 8 kHz, where MP3 (MPEG-2.5) carries at most 64 kbps.
    expect(encoderSettings("mp3", 1, 8000)).toMatchObject({ channels: 1, bitrate: 64, outputSampleRate: 8000 });
    expect(encoderSettings("mp3", 1, 8000, 8)).toMatchObject({ bitrate: 8, outputSampleRate: 8000 });
    expect(encoderSettings("mp3", 2, 22050)).toMatchObject({ bitrate: 160, outputSampleRate: 22050 });
    expect(encoderSettings("mp3", 2, 32000).outputSampleRate).toBe(32000);
    // Between MP3's rates: the one below; above 48 kHz: 44.1 or 48 kHz.
    expect(encoderSettings("mp3", 2, 37800).outputSampleRate).toBe(32000);
    expect(encoderSettings("mp3", 2, 96000).outputSampleRate).toBe(48000);
    // An MPEG-1 rate takes no less than 32 kbps.
    expect(encoderSettings("mp3", 2, 44100, 8)).toMatchObject({ bitrate: 32 });
  });
});

describe("a media job's bound", () => {
  it("decodes no more than the longest a track may be, whatever the master's header claimed, and fails past it", async () => {
    // An 8 kHz, 8-bit mono WAV whose header leaves its length open, running a second past the hour.
    const header = wavHeader({ sampleRate: 8000, channels: 1, bits: 8, dataLength: 0xffffffff });
    const piece = new Uint8Array(1024 * 1024).fill(128);
    let read = 0;
    async function* pieces() {
      yield header;
      for (; read < (audioFiles.maxSeconds + 2) * 8000; read += piece.length) yield piece;
    }
    let frames = 0;
    const counting: Encoder = {
      async open() {
        return { head: [], write: (samples) => ((frames += samples.channels[0]!.length), []), finish: () => [] };
      },
    };
    const sink = { write: async () => {}, finish: async () => {} };
    await expect(encodeMaster(pieces(), counting, sink)).rejects.toThrow(audioFiles.tooLong);
    expect(frames).toBeLessThanOrEqual((audioFiles.maxSeconds + 1) * 8000);
  });
});
