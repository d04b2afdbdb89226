// The demo media generators: valid WAV and JPEG files, waveform peaks, and the same output for the
// same seed (so a reseed gives every track the same sound and cover).
import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { renderArtwork } from "../media/artwork.ts";
import { composeTrack, encodeWav, sampleRate } from "../media/audio.ts";
import { waveformPeaks } from "../../functions/_shared/waveform.ts";

const genres = ["Rock", "Pop", "Hip Hop", "Electronic", "Jazz", "Classical", "R&B", "Folk", "Metal", "Country", "Blues", "Indie"];

const ascii = (bytes: Uint8Array, from: number, length: number) => String.fromCharCode(...bytes.subarray(from, from + length));

describe("composeTrack", () => {
  it.each(genres)("composes 20-40 s of %s within [-1, 1], neither silent nor clipped", (genre) => {
    const { samples, seconds } = composeTrack(`track ${genre}`, genre);
    expect(samples.length / sampleRate).toBeCloseTo(seconds, 1);
    expect(seconds).toBeGreaterThanOrEqual(20);
    expect(seconds).toBeLessThanOrEqual(40);
    let peak = 0;
    let energy = 0;
    for (const sample of samples) {
      peak = Math.max(peak, Math.abs(sample));
      energy += sample * sample;
    }
    expect(peak).toBeLessThanOrEqual(0.9 + 1e-6);
    expect(Math.sqrt(energy / samples.length)).toBeGreaterThan(0.05);
  });

  it("fades in from and out to silence", () => {
    const { samples } = composeTrack("fades", "Rock");
    expect(samples[0]).toBe(0);
    expect(Math.abs(samples[samples.length - 1])).toBeLessThan(1e-3);
  });

  it("is the same for the same seed and different for another", () => {
    const a = composeTrack("track-1", "Jazz").samples;
    expect(composeTrack("track-1", "Jazz").samples).toEqual(a);
    expect(composeTrack("track-2", "Jazz").samples).not.toEqual(a);
  });

  it("falls back to pop for a genre it does not know", () => {
    expect(composeTrack("x", "Polka").genre).toBe("Pop");
  });
});

describe("encodeWav", () => {
  it("writes a 16-bit mono PCM RIFF header and clamps samples", () => {
    const wav = encodeWav(new Float32Array([0, 0.5, -1, 2]));
    const view = new DataView(wav.buffer);
    expect(ascii(wav, 0, 4)).toBe("RIFF");
    expect(view.getUint32(4, true)).toBe(wav.length - 8);
    expect(ascii(wav, 8, 8)).toBe("WAVEfmt ");
    expect(view.getUint16(20, true)).toBe(1); // PCM
    expect(view.getUint16(22, true)).toBe(1); // mono
    expect(view.getUint32(24, true)).toBe(sampleRate);
    expect(view.getUint32(28, true)).toBe(sampleRate * 2);
    expect(view.getUint16(34, true)).toBe(16);
    expect(ascii(wav, 36, 4)).toBe("data");
    expect(view.getUint32(40, true)).toBe(8);
    expect([0, 1, 2, 3].map((i) => view.getInt16(44 + i * 2, true))).toEqual([0, 16384, -32767, 32767]);
  });

  it("interleaves several channels, frame by frame", () => {
    const wav = encodeWav([new Float32Array([0.5, 0]), new Float32Array([-0.5, 1])], 44100);
    const view = new DataView(wav.buffer);
    expect(view.getUint16(22, true)).toBe(2);
    expect(view.getUint32(28, true)).toBe(44100 * 4);
    expect(view.getUint16(32, true)).toBe(4);
    expect(view.getUint32(40, true)).toBe(8);
    expect([0, 1, 2, 3].map((i) => view.getInt16(44 + i * 2, true))).toEqual([16384, -16383, 0, 32767]);
  });
});

describe("waveformPeaks", () => {
  it("gives the loudest sample per slice, scaled to the loudest slice, to 3 decimals", () => {
    const samples = new Float32Array([0.1, -0.2, 0.4, 0.3, -0.8, 0.05]);
    expect(waveformPeaks(samples, 3)).toEqual([0.25, 0.5, 1]);
  });

  it("covers a whole track with values in [0, 1]", () => {
    const peaks = waveformPeaks(composeTrack("peaks", "Folk").samples, 300);
    expect(peaks).toHaveLength(300);
    expect(Math.max(...peaks)).toBe(1);
    expect(peaks.every((peak) => peak >= 0 && peak <= 1 && Math.round(peak * 1000) === peak * 1000)).toBe(true);
  });

  it("is all zeros for silence", () => {
    expect(waveformPeaks(new Float32Array(10), 5)).toEqual([0, 0, 0, 0, 0]);
  });
});

describe("renderArtwork", () => {
  it.each(genres)("draws a valid %s JPEG of the asked size", (genre) => {
    const bytes = renderArtwork(`cover ${genre}`, genre, 64);
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const image = jpeg.decode(bytes, { useTArray: true });
    expect([image.width, image.height]).toEqual([64, 64]);
  });

  it("is the same for the same seed and different for another", () => {
    const a = renderArtwork("release-1", "Indie", 32);
    expect(renderArtwork("release-1", "Indie", 32)).toEqual(a);
    expect(renderArtwork("release-2", "Indie", 32)).not.toEqual(a);
  });

  it("keeps to a dark-UI-friendly range: not blank, not glaring", () => {
    const { data } = jpeg.decode(renderArtwork("brightness", "Electronic", 64), { useTArray: true });
    const rgb = data.filter((_, i) => i % 4 !== 3);
    const mean = rgb.reduce((sum, v) => sum + v, 0) / rgb.length;
    expect(mean).toBeGreaterThan(20);
    expect(mean).toBeLessThan(200);
    expect(new Set(rgb).size).toBeGreaterThan(50);
  });
});
