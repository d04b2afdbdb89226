// The limits and messages of spec section 5 (Uploads), and files judged by their first bytes (magic
// numbers, supabase/functions/_shared/file-types.ts), never by their names or the type the browser claims.
// Shared by the upload form and the Worker, which checks again before anything is stored.
import {
  audioTypes,
  bytesMatch,
  imageTypes,
  sniffAudio,
  sniffImage,
  sniffLength,
  type AudioType,
  type ImageType,
} from "../../../supabase/functions/_shared/file-types";
import type { FileLimit } from "../forms/multipart.server";
import { audioSeconds } from "./audio-length";
import { fileImageSize, isPictureSizeAllowed } from "./image-size";

export const audioFiles = {
  maxBytes: 50 * 1024 * 1024,
  /**
   * The longest a track plays: an hour. What the media Worker makes of a master costs CPU by its length
   * (about 3.5 s of CPU a minute for an MP3 at 320 kbps), so its length bounds each job.
   */
  maxSeconds: 60 * 60,
  tooLong: "This track is longer than 60 minutes, the longest a track may be.",
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
 * What a form may send in a file field (`readForm`'s `files`): `count` files of up to their limit and
 * 10 MB more each, so a file somewhat too large still gets the spec's own message next to its field (with
 * what was typed kept) rather than a refused form; past that the form is refused as it streams in.
 */
export const filesOf = (count: number, limits: typeof audioFiles | typeof imageFiles): FileLimit => ({
  count,
  bytes: limits.maxBytes + 10 * 1024 * 1024,
});

/** A form's one picture field. */
export const onePicture = filesOf(1, imageFiles);

/** An upload whose connection dropped for good: Retry resumes it. */
export const connectionLost = "The connection was lost. Retry goes on from where the upload stopped.";

export { sniffAudio, sniffImage, sniffLength, type AudioType, type ImageType };

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

/** A file as judged: what it is, or the message to show beside its picker. */
type Judged<T> = { type: T; problem: null } | { type: null; problem: string };

const headOf = async (file: Blob) => new Uint8Array(await file.slice(0, sniffLength).arrayBuffer());

function judge<T>(size: number, type: T | null, limits: typeof audioFiles | typeof imageFiles): Judged<T> {
  // The size first: it is what people can fix fastest.
  if (size > limits.maxBytes) return { type: null, problem: limits.tooLarge };
  return type ? { type, problem: null } : { type: null, problem: limits.invalidType };
}

/** A file sent with a form: its type by its bytes, its size, and its length (`audioSeconds`) within the limit. */
export async function judgeAudio(file: Blob): Promise<Judged<AudioType> & { seconds: number | null }> {
  const judged = judge(file.size, sniffAudio(await headOf(file)), audioFiles);
  if (!judged.type) return { ...judged, seconds: null };
  const seconds = await audioSeconds(
    judged.type,
    file.size,
    async (start, length) => new Uint8Array(await file.slice(start, start + length).arrayBuffer()),
  );
  return tooLong(seconds) ? { type: null, problem: audioFiles.tooLong, seconds } : { ...judged, seconds };
}

/** Whether a track of this length (null: unknown) is past the limit. */
export const tooLong = (seconds: number | null) => seconds !== null && seconds > audioFiles.maxSeconds;

/** An image sent with a form: its type by its bytes, its size in bytes, and its pixels within `maxPictureSide`. */
export async function judgeImage(file: Blob): Promise<Judged<ImageType>> {
  const judged = judge(file.size, sniffImage(await headOf(file)), imageFiles);
  if (!judged.type) return judged;
  const size = await fileImageSize(file);
  return size && !isPictureSizeAllowed(size) ? { type: null, problem: imageFiles.tooLarge } : judged;
}

/** Where an upload is stored: `{user id}/{timestamp}-{random}.{ext}` in the user's own folder. */
export function storagePath(userId: string, extension: string, now = Date.now()): string {
  return `${userId}/${now}-${crypto.randomUUID().slice(0, 8)}.${extension}`;
}

/** Where the small (200 px) rendition of an artwork file goes: beside it, in the folder `small/`. */
export function smallArtworkPath(artworkPath: string, extension: string): string {
  return artworkPath.replace(/\/([^/]+)\.[a-z0-9]+$/, `/small/$1.${extension}`);
}

/** Whether an upload's type is audio's (a track) rather than an image's. */
export const isAudioType = (type: AudioType | ImageType): type is AudioType => audioTypes.some((audio) => audio.mime === type.mime);

/** Whether `bytes` (a file's first bytes) are what `expected` says the file is. */
export function bytesAre(bytes: Uint8Array, expected: AudioType | ImageType): boolean {
  return bytesMatch(bytes, expected.mime);
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
