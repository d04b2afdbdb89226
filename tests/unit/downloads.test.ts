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

  it("states the formats a release downloads in, before anyone buys, with the MP3 bitrate its masters warrant", () => {
    const master = (format: string | null, mp3_kbps: number | null) => ({ format, mp3_kbps });
    expect(downloadFormats([master("wav", 320), master("wav", 320), master("mp3", 128), master(null, null)])).toBe(
      "MP3, WAV as uploaded, MP3 128-320 kbps, FLAC",
    );
    expect(downloadFormats([master("wav", 320)])).toBe("WAV as uploaded, MP3 320 kbps, FLAC");
    // A lossy master's MP3 is no better than the master: only "MP3 320 kbps" where it is.
    expect(downloadFormats([master("mp3", 128)])).toBe("MP3 as uploaded, MP3 128 kbps");
    // Not measured yet (its stream still being made): no bitrate promised.
    expect(downloadFormats([master("mp3", null)])).toBe("MP3 as uploaded, MP3");
    expect(downloadFormats([master(null, null)])).toBeNull();
  });
});

describe("a zip of files whose sizes and checksums were kept", () => {
  it("names them in each local header, with no data descriptor, and says it was made on Unix", async () => {
    const bytes = new TextEncoder().encode("kept since it was made");
    const archive = new Uint8Array(
      await new Response(
        zipStream([{ name: "a.mp3", size: bytes.length, crc: crc32(bytes), open: async () => streamOf(bytes) }]),
      ).arrayBuffer(),
    );
    const view = new DataView(archive.buffer);
    expect(view.getUint16(6, true) & 0x0008).toBe(0);
    expect([view.getUint32(14, true), view.getUint32(18, true), view.getUint32(22, true)]).toEqual([
      crc32(bytes),
      bytes.length,
      bytes.length,
    ]);
    // No descriptor: the central directory follows the file's bytes at once, made on Unix (3) as -rw-r--r--.
    const directory = 30 + "a.mp3".length + bytes.length;
    expect(view.getUint32(directory, true)).toBe(0x02014b50);
    expect(view.getUint16(directory + 4, true) >> 8).toBe(3);
    expect(view.getUint32(directory + 38, true) >>> 16).toBe(0o100644);
    expect(readZip(archive).map((file) => [file.name, file.crcMatches])).toEqual([["a.mp3", true]]);
  });

  it("ends the archive with an error when a file is not the size it was kept as, rather than a broken entry", async () => {
    const bytes = new Uint8Array(10);
    const short = zipStream([{ name: "a.mp3", size: 11, crc: crc32(bytes), open: async () => streamOf(bytes) }]);
    await expect(new Response(short).arrayBuffer()).rejects.toThrow();
    const long = zipStream([{ name: "a.mp3", size: 9, crc: crc32(bytes), open: async () => streamOf(bytes) }]);
    await expect(new Response(long).arrayBuffer()).rejects.toThrow();
  });
});
