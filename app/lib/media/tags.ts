// What a downloaded file says about itself, so a music library files it without being told: title,
// artist, album (a single's release title too), track number of the release's tracks, genre, year and the cover. MP3 carries them in an ID3v2.3 tag (the version every
// player and operating system reads; text in UTF-16, which 2.3 requires for anything beyond Latin-1),
// FLAC in Vorbis comments and a PICTURE block (flac.ts writes those).
import { concat } from "../http/bytes";

export type CoverArt = { type: string; data: Uint8Array; width: number; height: number };

export type DownloadTags = {
  title: string;
  artist: string;
  album: string | null;
  trackNumber: number | null;
  trackCount: number | null;
  genre: string | null;
  year: number | null;
  cover: CoverArt | null;
};

/** The tags as Vorbis comments (FLAC's): the field names players read. */
export function vorbisComments(tags: DownloadTags): [string, string][] {
  const comments: [string, string][] = [
    ["TITLE", tags.title],
    ["ARTIST", tags.artist],
  ];
  if (tags.album) comments.push(["ALBUM", tags.album], ["ALBUMARTIST", tags.artist]);
  if (tags.trackNumber) comments.push(["TRACKNUMBER", String(tags.trackNumber)]);
  if (tags.trackCount) comments.push(["TRACKTOTAL", String(tags.trackCount)]);
  if (tags.genre) comments.push(["GENRE", tags.genre]);
  if (tags.year) comments.push(["DATE", String(tags.year)]);
  return comments;
}

/** Text in UTF-16 with its byte-order mark (ID3v2.3's encoding 1). */
function utf16(text: string, terminated: boolean): Uint8Array {
  const bytes = new Uint8Array(2 + text.length * 2 + (terminated ? 2 : 0));
  bytes[0] = 0xff;
  bytes[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 + i * 2] = unit & 0xff;
    bytes[3 + i * 2] = unit >> 8;
  }
  return bytes;
}

/** A frame: its id, its size, no flags, then its body. */
function frame(id: string, ...parts: Uint8Array[]): Uint8Array {
  const body = concat(...parts);
  const header = new Uint8Array(10);
  for (let i = 0; i < 4; i++) header[i] = id.charCodeAt(i);
  new DataView(header.buffer).setUint32(4, body.length);
  return concat(header, body);
}

const textFrame = (id: string, text: string) => frame(id, Uint8Array.of(1), utf16(text, false));

/** The ID3v2.3 tag that opens an MP3 download. */
export function id3Tag(tags: DownloadTags): Uint8Array {
  const frames = [textFrame("TIT2", tags.title), textFrame("TPE1", tags.artist)];
  if (tags.album) frames.push(textFrame("TALB", tags.album), textFrame("TPE2", tags.artist));
  if (tags.trackNumber)
    frames.push(textFrame("TRCK", tags.trackCount ? `${tags.trackNumber}/${tags.trackCount}` : String(tags.trackNumber)));
  if (tags.genre) frames.push(textFrame("TCON", tags.genre));
  if (tags.year) frames.push(textFrame("TYER", String(tags.year)));
  if (tags.cover) {
    const mime = new TextEncoder().encode(`${tags.cover.type}\0`);
    // Encoding, MIME type, picture type 3 (the front cover), an empty description, the image.
    frames.push(frame("APIC", Uint8Array.of(1), mime, Uint8Array.of(3), utf16("", true), tags.cover.data));
  }
  const body = concat(...frames);
  const size = body.length;
  // "ID3", version 2.3, no flags, then the size in four bytes of seven bits each ("synchsafe").
  const header = Uint8Array.of(0x49, 0x44, 0x33, 3, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f);
  return concat(header, body);
}
