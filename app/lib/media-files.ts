// What a file is, judged by its first bytes (magic numbers), never by its name or the type the browser
// claims; and the limits and messages of spec section 5 (Uploads). Shared by the upload form and the
// Worker, which checks again before anything is stored.

export const audioFiles = {
  maxBytes: 50 * 1024 * 1024,
  accept: "audio/mpeg,audio/wav,audio/aac,audio/ogg,.mp3,.wav,.aac,.ogg",
  formats: "MP3, WAV, AAC or OGG, at most 50 MB each",
  invalidType: "Invalid file type. Please upload MP3, WAV, AAC, or OGG files only.",
  tooLarge: "File is too large. Maximum size is 50MB.",
  undecodable: "This audio file could not be read. Please export it again as MP3, WAV, AAC or OGG.",
} as const;

export const imageFiles = {
  maxBytes: 5 * 1024 * 1024,
  accept: "image/jpeg,image/png,image/webp",
  formats: "JPG, PNG or WebP, at most 5 MB",
  invalidType: "Invalid file type. Please upload JPG, PNG, or WebP images only.",
  tooLarge: "File is too large. Maximum size is 5MB.",
} as const;

/**
 * What a form carrying one image may send for it (`readForm`'s `fileBytes`): twice the limit, so a picture
 * somewhat too large still gets the spec's own message next to its field rather than a refused form.
 */
export const oneImageFormBytes = 2 * imageFiles.maxBytes;

/** An upload whose connection dropped for good: Retry resumes it. */
export const connectionLost = "The connection was lost. Retry goes on from where the upload stopped.";

export type AudioType = { mime: "audio/mpeg" | "audio/wav" | "audio/aac" | "audio/ogg"; extension: "mp3" | "wav" | "aac" | "ogg" };
export type ImageType = { mime: "image/jpeg" | "image/png" | "image/webp"; extension: "jpg" | "png" | "webp" };

const audioTypes: AudioType[] = [
  { mime: "audio/mpeg", extension: "mp3" },
  { mime: "audio/wav", extension: "wav" },
  { mime: "audio/aac", extension: "aac" },
  { mime: "audio/ogg", extension: "ogg" },
];
const imageTypes: ImageType[] = [
  { mime: "image/jpeg", extension: "jpg" },
  { mime: "image/png", extension: "png" },
  { mime: "image/webp", extension: "webp" },
];

export type UploadBucket = "tracks" | "artwork";

/**
 * What an upload to `bucket` at `path` must be, when the path is one `storagePath` makes in the user's
 * own folder (the small artwork rendition sits in its `small/` folder); else null.
 */
export function expectedUpload(userId: string, bucket: string, path: string): AudioType | ImageType | null {
  const match = /^([^/]+)\/(?:small\/)?\d{13}-[0-9a-f]{8}\.([a-z0-9]+)$/.exec(path);
  if (!match || match[1] !== userId) return null;
  if (bucket === "tracks" && !path.includes("/small/")) return audioTypes.find((type) => type.extension === match[2]) ?? null;
  if (bucket === "artwork") return imageTypes.find((type) => type.extension === match[2]) ?? null;
  return null;
}

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

/** A file as judged: what it is, or the message to show beside its picker. */
export type Judged<T> = { type: T; problem: null } | { type: null; problem: string };

const headOf = async (file: Blob) => new Uint8Array(await file.slice(0, sniffLength).arrayBuffer());

function judge<T>(size: number, type: T | null, limits: typeof audioFiles | typeof imageFiles): Judged<T> {
  // The size first: it is what people can fix fastest.
  if (size > limits.maxBytes) return { type: null, problem: limits.tooLarge };
  return type ? { type, problem: null } : { type: null, problem: limits.invalidType };
}

export async function judgeAudio(file: Blob): Promise<Judged<AudioType>> {
  return judge(file.size, sniffAudio(await headOf(file)), audioFiles);
}

export async function judgeImage(file: Blob): Promise<Judged<ImageType>> {
  return judge(file.size, sniffImage(await headOf(file)), imageFiles);
}

/** Where an upload is stored: `{user id}/{timestamp}-{random}.{ext}` in the user's own folder. */
export function storagePath(userId: string, extension: string, now = Date.now()): string {
  return `${userId}/${now}-${crypto.randomUUID().slice(0, 8)}.${extension}`;
}

/** Where the small (200 px) rendition of an artwork file goes: beside it, in the folder `small/`. */
export function smallArtworkPath(artworkPath: string, extension: string): string {
  return artworkPath.replace(/\/([^/]+)\.[a-z0-9]+$/, `/small/$1.${extension}`);
}

/** Whether `bytes` (a file's first bytes) are what `expected` says the file is. */
export function bytesAre(bytes: Uint8Array, expected: AudioType | ImageType): boolean {
  const found = expected.mime.startsWith("audio/") ? sniffAudio(bytes) : sniffImage(bytes);
  return found?.mime === expected.mime;
}

/** A track title from a file's name: the name without its extension, separators as spaces. */
export function titleFromFileName(name: string): string {
  return (
    name
      .replace(/\.[^.]+$/, "")
      .replace(/[_]+/g, " ")
      .replace(/\s+/g, " ")
      .trim() || "Untitled"
  );
}
