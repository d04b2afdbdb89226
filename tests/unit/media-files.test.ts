import { describe, expect, it } from "vitest";
import * as v from "valibot";
import {
  audioFiles,
  bytesAre,
  expectedUpload,
  imageFiles,
  judgeAudio,
  judgeImage,
  smallArtworkPath,
  sniffAudio,
  sniffImage,
  storagePath,
  titleFromFileName,
} from "~/lib/media/media-files";
import { UploadedFilesSchema } from "~/lib/schemas/studio";

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(
    values.flatMap((value) => (typeof value === "string" ? [...value].map((character) => character.charCodeAt(0)) : [value])),
  );
const padded = (head: Uint8Array, size = 32) => {
  const all = new Uint8Array(Math.max(size, head.length));
  all.set(head);
  return all;
};

describe("what a file is, by its first bytes", () => {
  it("knows the four audio formats", () => {
    expect(sniffAudio(padded(bytes("RIFF", 0, 0, 0, 0, "WAVE")))?.mime).toBe("audio/wav");
    expect(sniffAudio(padded(bytes("OggS")))?.mime).toBe("audio/ogg");
    expect(sniffAudio(padded(bytes("ID3", 4)))?.mime).toBe("audio/mpeg");
    expect(sniffAudio(padded(bytes(0xff, 0xfb, 0x90)))?.mime).toBe("audio/mpeg");
    expect(sniffAudio(padded(bytes(0xff, 0xf1, 0x50)))?.mime).toBe("audio/aac");
  });

  it("refuses what only pretends to be audio", () => {
    for (const head of [
      bytes("<!doctype html>"),
      bytes(0x7f, "ELF"),
      bytes("RIFF", 0, 0, 0, 0, "WEBP"),
      bytes(0xff, 0xe8),
      new Uint8Array(0),
    ]) {
      expect(sniffAudio(padded(head))).toBeNull();
    }
  });

  it("knows JPEG, PNG and WebP, and refuses SVG and HTML", () => {
    expect(sniffImage(padded(bytes(0xff, 0xd8, 0xff, 0xe0)))?.mime).toBe("image/jpeg");
    expect(sniffImage(padded(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a)))?.mime).toBe("image/png");
    expect(sniffImage(padded(bytes("RIFF", 0, 0, 0, 0, "WEBP")))?.mime).toBe("image/webp");
    expect(sniffImage(padded(bytes('<svg xmlns="http://www.w3.org/2000/svg">')))).toBeNull();
    expect(sniffImage(padded(bytes("<html>")))).toBeNull();
  });
});

describe("judging a file", () => {
  it("gives the spec's messages, the size first", async () => {
    const wav = padded(bytes("RIFF", 0, 0, 0, 0, "WAVE"));
    expect(await judgeAudio(new Blob([wav]))).toEqual({ type: { mime: "audio/wav", extension: "wav" }, problem: null, seconds: null });
    expect(await judgeAudio(new Blob([bytes("<html>")]))).toEqual({ type: null, problem: audioFiles.invalidType, seconds: null });
    expect((await judgeAudio(new Blob([new Uint8Array(audioFiles.maxBytes + 1)]))).problem).toBe(
      "File is too large. Maximum size is 50MB.",
    );
    expect(await judgeImage(new Blob([bytes("<html>")]))).toEqual({ type: null, problem: imageFiles.invalidType });
    expect((await judgeImage(new Blob([new Uint8Array(imageFiles.maxBytes + 1)]))).problem).toBe("File is too large. Maximum size is 5MB.");
  });
});

describe("where an upload goes and what it is called", () => {
  it("stores in the user's own folder, timestamped and unique", () => {
    const path = storagePath("a1000000-0000-4000-8000-000000000012", "wav", 1_700_000_000_000);
    expect(path).toMatch(/^a1000000-0000-4000-8000-000000000012\/1700000000000-[0-9a-f]{8}\.wav$/);
    expect(storagePath("u", "wav", 1)).not.toBe(storagePath("u", "wav", 1));
  });

  it("titles a track from its file name", () => {
    expect(titleFromFileName("01_Morning  Light.wav")).toBe("01 Morning Light");
    expect(titleFromFileName(".wav")).toBe("Untitled");
  });
});

describe("uploads the form makes ahead of publishing", () => {
  const user = "3f1c2a40-0000-4000-8000-000000000001";
  const path = `${user}/1763900000000-0a1b2c3d`;

  it("takes only paths of storagePath's making, in the user's own folder, typed by their extension and bucket", () => {
    expect(expectedUpload(user, "tracks", `${path}.wav`)).toEqual({ mime: "audio/wav", extension: "wav" });
    expect(expectedUpload(user, "artwork", `${path}.webp`)).toEqual({ mime: "image/webp", extension: "webp" });
    expect(expectedUpload(user, "artwork", `${user}/small/1763900000000-0a1b2c3d.png`)?.mime).toBe("image/png");
    for (const [bucket, refused] of [
      ["tracks", `${path}.png`],
      ["artwork", `${path}.mp3`],
      ["tracks", `${user}/small/1763900000000-0a1b2c3d.mp3`],
      ["tracks", `3f1c2a40-0000-4000-8000-000000000002/1763900000000-0a1b2c3d.mp3`],
      ["tracks", `${user}/../1763900000000-0a1b2c3d.mp3`],
      ["tracks", `${user}/my song.mp3`],
      ["tracks", `${path}.mp3.html`],
      ["avatars", `${path}.png`],
    ] as const) {
      expect(expectedUpload(user, bucket, refused), refused).toBeNull();
    }
    expect(storagePath(user, "mp3")).toMatch(/\.mp3$/);
    expect(expectedUpload(user, "tracks", storagePath(user, "mp3"))?.extension).toBe("mp3");
  });

  it("puts the small rendition beside its original, in small/, under the same name", () => {
    expect(smallArtworkPath(`${path}.png`, "webp")).toBe(`${user}/small/1763900000000-0a1b2c3d.webp`);
  });

  it("checks stored bytes against what the name promises", () => {
    const wav = padded(bytes("RIFF", 0, 0, 0, 0, "WAVE"));
    expect(bytesAre(wav, { mime: "audio/wav", extension: "wav" })).toBe(true);
    expect(bytesAre(wav, { mime: "audio/mpeg", extension: "mp3" })).toBe(false);
    expect(bytesAre(padded(bytes("<!doctype html>")), { mime: "image/png", extension: "png" })).toBe(false);
  });

  it("reads each track's waveform and length, refusing what the browser could not have read", () => {
    const track = { path: `${path}.wav`, peaks: Array.from({ length: 300 }, () => 0.5), durationSeconds: 61.5 };
    const parsed = v.safeParse(UploadedFilesSchema, { uploadedArtwork: `${path}.png`, uploadedTracks: [JSON.stringify(track)] });
    expect(parsed.success && parsed.output.uploadedTracks).toEqual([track]);
    for (const wrong of [
      "{",
      JSON.stringify({ ...track, peaks: [0.5] }),
      JSON.stringify({ ...track, durationSeconds: 0 }),
      JSON.stringify({ ...track, peaks: track.peaks.map(() => 2) }),
    ]) {
      const refused = v.safeParse(UploadedFilesSchema, { uploadedTracks: [wrong] });
      expect(refused.success).toBe(false);
      expect(refused.issues?.[0]?.message).toBe(audioFiles.undecodable);
    }
  });
});
