import { describe, expect, it } from "vitest";
import { albumFileNames, downloadFormats, safeFileName, trackFileName } from "~/lib/media/downloads";
import { crc32, zipStream } from "~/lib/media/zip";
import { plainCrc32, readZip } from "../support/zip";

const streamOf = (...pieces: Uint8Array[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });

describe("a zip written as it is read", () => {
  it("computes the zip's CRC-32 in pieces as it is computed whole, with the standard's check value", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7919) % 251);
    expect(crc32(bytes.subarray(50_000), crc32(bytes.subarray(0, 50_000)))).toBe(plainCrc32(bytes));
  });

  it("holds each file whole, under its UTF-8 name, with its checksum, in order", async () => {
    const first = Uint8Array.from({ length: 70_000 }, (_, i) => i % 256);
    const second = new TextEncoder().encode("a second file");
    const archive = new Uint8Array(
      await new Response(
        zipStream([
          {
            name: "Ember Road - Headlights/01 Open Highway.wav",
            open: async () => streamOf(first.subarray(0, 1000), first.subarray(1000)),
          },
          { name: "Ember Road - Headlights/02 Café.wav", open: async () => streamOf(second) },
          { name: "empty.txt", open: async () => streamOf() },
        ]),
      ).arrayBuffer(),
    );
    const files = readZip(archive);
    expect(files.map((file) => [file.name, file.bytes.length, file.crcMatches])).toEqual([
      ["Ember Road - Headlights/01 Open Highway.wav", 70_000, true],
      ["Ember Road - Headlights/02 Café.wav", second.length, true],
      ["empty.txt", 0, true],
    ]);
    expect(files[0]!.bytes).toEqual(first);
  });

  it("writes Zip64's records for offsets past where 32 bits end, which unzippers then read", async () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => i % 256);
    const archive = new Uint8Array(
      await new Response(
        zipStream(
          ["a.wav", "b.wav", "c.wav"].map((name) => ({ name, open: async () => streamOf(bytes) })),
          { zip64From: 6000 },
        ),
      ).arrayBuffer(),
    );
    const view = new DataView(archive.buffer);
    // the end record points to Zip64's, and the files past the limit carry their offsets in Zip64's field
    expect(view.getUint32(archive.length - 22 - 20, true)).toBe(0x07064b50);
    expect(view.getUint32(archive.length - 22 + 16, true)).toBe(0xffffffff);
    expect(readZip(archive).map((file) => [file.name, file.bytes.length, file.crcMatches])).toEqual([
      ["a.wav", 5000, true],
      ["b.wav", 5000, true],
      ["c.wav", 5000, true],
    ]);
  });

  it("opens each file only when the one before it is written, as far as it is read", async () => {
    const opened: string[] = [];
    const entry = (name: string) => ({
      name,
      open: async () => {
        opened.push(name);
        return streamOf(new Uint8Array(10));
      },
    });
    const reader = zipStream([entry("a"), entry("b")]).getReader();
    await reader.read(); // a's header
    expect(opened).toEqual([]);
    await reader.read(); // a's bytes
    expect(opened).toEqual(["a"]);
    await reader.cancel();
    expect(opened).toEqual(["a"]);
  });
});

describe("download names", () => {
  it("makes names every system accepts: no separators or reserved characters, no device names, at most 200 bytes", () => {
    expect(safeFileName('AC/DC: "Back" <in> Black?*|')).toBe("AC DC Back in Black");
    expect(safeFileName("..hidden.. ")).toBe("hidden");
    expect(safeFileName("CON")).toBe("_CON");
    expect(safeFileName("com1.wav")).toBe("_com1.wav");
    expect(safeFileName("\u0000\u001f")).toBe("Untitled");
    const long = safeFileName("é".repeat(300));
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(200);
    expect(long).toBe("é".repeat(100));
  });

  it("names a track's file and an album's zip and files, keeping two tracks of one title apart", () => {
    const file = (title: string, track_number: number | null) => ({
      path: "artist/1700000000000-abc.WAV",
      title,
      artist_name: "Ember Road",
      album_title: "Headlights & Static",
      track_number,
    });
    expect(trackFileName(file("Open Highway", 1))).toBe("Ember Road - Open Highway.wav");
    expect(albumFileNames([file("Intro", 1), file("Outro", null), file("Intro", 1)])).toEqual({
      zip: "Ember Road - Headlights & Static.zip",
      entries: [
        "Ember Road - Headlights & Static/01 Intro.wav",
        "Ember Road - Headlights & Static/02 Outro.wav",
        "Ember Road - Headlights & Static/01 Intro (2).wav",
      ],
    });
  });

  it("states the formats a release downloads in, before anyone buys", () => {
    expect(downloadFormats(["a/1.wav", "a/2.WAV", "a/3.mp3", null])).toBe("MP3, WAV as uploaded, MP3 320 kbps, FLAC");
    expect(downloadFormats(["a/1.mp3"])).toBe("MP3 as uploaded, MP3 320 kbps");
    expect(downloadFormats([null])).toBeNull();
  });
});
