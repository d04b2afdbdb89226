import { describe, expect, it } from "vitest";
import { audioFiles, imageFiles, judgeAudio, judgeImage, sniffAudio, sniffImage, storagePath, titleFromFileName } from "~/lib/media-files";

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
    expect(await judgeAudio(new Blob([wav]))).toEqual({ type: { mime: "audio/wav", extension: "wav" }, problem: null });
    expect(await judgeAudio(new Blob([bytes("<html>")]))).toEqual({ type: null, problem: audioFiles.invalidType });
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
