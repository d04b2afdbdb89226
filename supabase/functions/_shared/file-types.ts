// What a file is, judged by its first bytes (magic numbers), never by its name or the type declared for
// it. Shared by the app (the upload form and the Worker's checks) and the Edge Functions (the daily sweep).

export type AudioType = { mime: "audio/mpeg" | "audio/wav" | "audio/aac" | "audio/ogg"; extension: "mp3" | "wav" | "aac" | "ogg" };
export type ImageType = { mime: "image/jpeg" | "image/png" | "image/webp"; extension: "jpg" | "png" | "webp" };

export const audioTypes: AudioType[] = [
  { mime: "audio/mpeg", extension: "mp3" },
  { mime: "audio/wav", extension: "wav" },
  { mime: "audio/aac", extension: "aac" },
  { mime: "audio/ogg", extension: "ogg" },
];
export const imageTypes: ImageType[] = [
  { mime: "image/jpeg", extension: "jpg" },
  { mime: "image/png", extension: "png" },
  { mime: "image/webp", extension: "webp" },
];

/** How many leading bytes the checks below need. */
export const sniffLength = 16;

const ascii = (bytes: Uint8Array, start: number, text: string) =>
  [...text].every((character, index) => bytes[start + index] === character.charCodeAt(0));

/** MP3 (an ID3 tag or an MPEG audio frame), WAV (RIFF…WAVE), AAC (an ADTS frame) or Ogg; else null. */
export function sniffAudio(bytes: Uint8Array): AudioType | null {
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return { mime: "audio/wav", extension: "wav" };
  if (ascii(bytes, 0, "OggS")) return { mime: "audio/ogg", extension: "ogg" };
  if (ascii(bytes, 0, "ID3")) return { mime: "audio/mpeg", extension: "mp3" };
  const [first = 0, second = 0] = bytes;
  if (first === 0xff && (second & 0xf6) === 0xf0) return { mime: "audio/aac", extension: "aac" };
  // MPEG frame sync (11 bits), a real version and layer III/II/I.
  if (first === 0xff && (second & 0xe0) === 0xe0 && (second & 0x18) !== 0x08 && (second & 0x06) !== 0) {
    return { mime: "audio/mpeg", extension: "mp3" };
  }
  return null;
}

/** JPEG, PNG or WebP; else null (SVG and everything else are refused). */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: "image/jpeg", extension: "jpg" };
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((byte, index) => bytes[index] === byte)) {
    return { mime: "image/png", extension: "png" };
  }
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return { mime: "image/webp", extension: "webp" };
  return null;
}

/**
 * Whether `bytes` (a file's first bytes) are of the type `mime` says: an audio or image type we take, or
 * FLAC (the download files the marketplace makes of lossless masters; uploads never take it).
 */
export function bytesMatch(bytes: Uint8Array, mime: string): boolean {
  if (mime === "audio/flac") return ascii(bytes, 0, "fLaC");
  const found = mime.startsWith("audio/") ? sniffAudio(bytes) : sniffImage(bytes);
  return found?.mime === mime;
}
