// Shared by the Edge Functions and the app (plain TypeScript): every file made from a track's master, the
// stream and each download format, and what it is. The types, the Download form's choices, the labels, the
// queue's messages and the encoders derive from here; private.made_files and take_downloads check the same
// names in SQL, and tests/integration/limits.test.ts fails when the two disagree.

/** The constant bitrates LAME encodes at, in kbps. */
export type Mp3Kbps = 8 | 16 | 24 | 32 | 40 | 48 | 64 | 80 | 96 | 112 | 128 | 160 | 192 | 224 | 256 | 320;
/** An MP3's encoding: its bitrate for a mono and for a stereo master. */
type Mp3Encoding = { codec: "mp3"; kbps: { mono: Mp3Kbps; stereo: Mp3Kbps } };
/** FLAC's: the deepest samples it keeps (a deeper master is rounded to it). */
type FlacEncoding = { codec: "flac"; maxBits: number };

type MadeFormatSpec = {
  /** The stored file's name ends in it, so a new encoding is a new file (`npm run renditions -- --all`). */
  ending: string;
  /** Its Content-Type. */
  type: string;
  /** What a fan is offered it as (the stream is no download). */
  label: string;
  /** A format a fan downloads, tagged with the track's title, artist, album, number, year and cover. */
  download: boolean;
  /** Made only of a lossless (WAV) master; of a lossy one it would only be bigger. */
  losslessOnly: boolean;
  encoding: Mp3Encoding | FlacEncoding;
};

export const madeFormats = {
  // What listeners hear: MP3 at 64 kbps a channel, constant bitrate. Every browser plays it (Chrome,
  // Firefox, Safari on macOS and iOS, without a fallback), a listener on a phone cannot tell it from the
  // master, and it is 1/11 of a 16-bit 44.1 kHz stereo WAV.
  stream: {
    ending: ".128k.mp3",
    type: "audio/mpeg",
    label: "Stream",
    download: false,
    losslessOnly: false,
    encoding: { codec: "mp3", kbps: { mono: 64, stereo: 128 } },
  },
  mp3: {
    ending: ".320k.mp3",
    type: "audio/mpeg",
    label: "MP3",
    download: true,
    losslessOnly: false,
    encoding: { codec: "mp3", kbps: { mono: 320, stereo: 320 } },
  },
  flac: {
    ending: ".flac",
    type: "audio/flac",
    label: "FLAC",
    download: true,
    losslessOnly: true,
    encoding: { codec: "flac", maxBits: 24 },
  },
} as const satisfies Record<string, MadeFormatSpec>;

export type MadeFormat = keyof typeof madeFormats;

/** The made formats a fan downloads. */
export type DownloadMadeFormat = { [Name in MadeFormat]: (typeof madeFormats)[Name]["download"] extends true ? Name : never }[MadeFormat];

export const madeFormatNames = Object.keys(madeFormats) as MadeFormat[];

export const isMadeFormat = (value: unknown): value is MadeFormat => typeof value === "string" && Object.hasOwn(madeFormats, value);

export const downloadMadeFormats = madeFormatNames.filter((name): name is DownloadMadeFormat => madeFormats[name].download);

/**
 * Where the file of a master in `format` is stored: {artist}/{name}.{ext} → {artist}/renditions/{name}{ending}.
 * One file per master and format, so a job run twice (or killed half way and run again) writes the same object.
 */
export function madeFilePath(artistId: string, masterPath: string, format: MadeFormat): string {
  const name = (masterPath.split("/").pop() ?? "").replace(/\.[^.]*$/, "");
  return `${artistId}/renditions/${name}${madeFormats[format].ending}`;
}

/**
 * Where an MP3's frames are kept while it is made: its Info frame, which goes first, can only be written
 * once every frame is known, so the file is then written whole from them (the media Worker's makeMp3).
 */
export const framesPath = (madeFile: string) => `${madeFile}.frames`;

/** Whether a format's files are MP3s, made through their frames first. */
export const isMp3Format = (format: MadeFormat) => madeFormats[format].encoding.codec === "mp3";

/** Every file that may have been made of a master: what goes with it when its track is deleted. */
export const madeFilePaths = (artistId: string, masterPath: string) =>
  madeFormatNames.flatMap((format) => {
    const path = madeFilePath(artistId, masterPath, format);
    return isMp3Format(format) ? [path, framesPath(path)] : [path];
  });
