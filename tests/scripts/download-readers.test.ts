// The files fans download, as the tools they open them with read them: an album's zip in Info-ZIP's unzip
// (testing every entry's CRC-32, and reading names as UTF-8 because the archive says it was made on
// Unix), bsdtar, Python's zipfile and Java's ZipInputStream (which reads front to back and refuses stored
// entries whose sizes follow them). A made FLAC meets the reference `flac -t` in the media queue's own
// test (tests/integration/rendition-queue.test.ts). CI installs the tools (.ci/run).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crc32, zipStream } from "../../app/lib/media/zip.ts";

const folder = mkdtempSync(join(tmpdir(), "download-readers-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const names = ["Winter Études/01 Honey & Smoke.mp3", 'Winter Études/02 "Quoted" (Live) ☀.mp3', "Winter Études/03 Empty.mp3"];
const contents = [Uint8Array.from({ length: 200_000 }, (_, i) => (i * 31) % 256), new TextEncoder().encode("second"), new Uint8Array(0)];

async function albumZip(): Promise<string> {
  const entries = names.map((name, index) => ({
    name,
    size: contents[index]!.length,
    crc: crc32(contents[index]!),
    open: async () => new Blob([contents[index]!]).stream(),
  }));
  const path = join(folder, "album.zip");
  writeFileSync(path, new Uint8Array(await new Response(zipStream(entries)).arrayBuffer()));
  return path;
}

const run = (command: string, ...args: string[]) =>
  execFileSync(command, args, { encoding: "utf8", env: { ...process.env, LC_ALL: "C.UTF-8" } });

describe("an album's zip, opened by the tools fans use", () => {
  it("passes Info-ZIP's test of every entry, with its names in UTF-8, made on Unix", async () => {
    const zip = await albumZip();
    expect(run("unzip", "-t", zip)).toContain("No errors detected");
    const listed = run("unzip", "-Z", zip);
    expect(listed).toContain("Winter Études/01 Honey & Smoke.mp3");
    expect(listed).toMatch(/-rw-r--r--\s+4\.5 unx/);
  });

  it("lists and extracts under bsdtar and Python's zipfile, and streams through Java's ZipInputStream", async () => {
    const zip = await albumZip();
    expect(run("bsdtar", "-tf", zip).trim().split("\n")).toEqual(names);
    const python = run(
      "python3",
      "-c",
      "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.testzip()); print('\\n'.join(z.namelist()))",
      zip,
    );
    expect(python.trim().split("\n")).toEqual(["None", ...names]);
    const java = run("java", join(import.meta.dirname, "../support/download-readers/ZipStreamRead.java"), zip);
    expect(java.trim().split("\n")).toEqual(names.map((name, index) => `${name}\t${contents[index]!.length}`));
  });
});
