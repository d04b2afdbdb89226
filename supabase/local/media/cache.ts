import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { join } from "node:path";

// The demo media, kept between runs: composing 46 tracks and drawing 60 pictures takes some five
// seconds, and every fresh stack (each browser suite, each bench, a first `npm start`) would do it
// again. What is made is kept under a hash of what makes it (these generators' own source and the JPEG
// encoder's version), so a change to any of them makes it afresh; each file is named by the hash of
// its inputs. Kept in the user's cache folder ($XDG_CACHE_HOME, else ~/.cache), so a fresh clone of the
// project (as CI makes) finds what an earlier one made; removing it only costs those seconds once.

const here = import.meta.dirname;
const require = createRequire(import.meta.url);
const makers = [
  join(here, "audio.ts"),
  join(here, "artwork.ts"),
  join(here, "random.ts"),
  join(here, "..", "..", "functions", "_shared", "waveform.ts"),
];

const version = createHash("sha256");
for (const file of makers) version.update(readFileSync(file));
version.update((require("jpeg-js/package.json") as { version: string }).version);
const madeBy = version.digest("hex").slice(0, 16);

const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "crate-demo-media");
const cacheDir = join(cacheRoot, madeBy);

/** What `make` makes of `inputs`, from the cache when it was made before by the same code. */
export function cachedMedia(inputs: string, make: () => Uint8Array): Uint8Array {
  const file = join(cacheDir, createHash("sha256").update(inputs).digest("hex"));
  try {
    return new Uint8Array(readFileSync(file));
  } catch {
    // Not made yet (or removed meanwhile by a run of other code): made now.
  }
  const made = make();
  try {
    if (!existsSync(cacheDir)) {
      // What older code made is of no use any more.
      if (existsSync(cacheRoot)) for (const old of readdirSync(cacheRoot)) rmSync(join(cacheRoot, old), { recursive: true, force: true });
      mkdirSync(cacheDir, { recursive: true });
    }
    // Written aside, then renamed: two stacks starting together never read half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, made);
    renameSync(partial, file);
  } catch (error) {
    // The cache only saves time: a folder that cannot be written leaves the media made all the same.
    console.warn("the demo media cache could not be written", error);
  }
  return made;
}
