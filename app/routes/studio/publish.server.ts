import * as v from "valibot";
import { peakCount, waveformPeaks } from "../../../supabase/functions/_shared/waveform";
import { albumTrackLimit } from "~/lib/constants";
import { storageErrorMessage, type BackendError } from "~/lib/backend/errors";
import {
  bytesAre,
  expectedUpload,
  audioFiles,
  imageFiles,
  isAudioType,
  smallArtworkPath,
  sniffLength,
  tooLong,
  judgeAudio,
  judgeImage,
  storagePath,
  titleFromFileName,
  type AudioType,
  type ImageType,
  type UploadBucket,
} from "~/lib/media/media-files";
import type { FieldErrors } from "~/lib/forms/forms";
import { tooManyTracks, type MerchDetails, type UploadedFiles } from "~/lib/schemas/studio";
import { fileImageSize, imageHeadLength, isPictureSizeAllowed, type ImageSize } from "~/lib/media/image-size";
import { storedArtworkSize, type FirstBytes, type StoredBytes } from "~/lib/uploads/storage-request.server";
import { audioHeadLength, audioSeconds } from "~/lib/media/audio-length";
import type { SupabaseClient } from "~/lib/backend/supabase.server";
import { decodeWav } from "~/lib/media/wav";

// Publishing from the upload form, two ways:
// - without JavaScript the files come with the form: every file is judged by its bytes before anything is
//   stored, stored in the artist's own folder, and whatever was stored for a release that then failed is
//   removed again;
// - with JavaScript they are already in Storage (resumable uploads, judged on the way in) and the form
//   names them, with the waveform and length the browser read from each track; they are judged again by
//   their first bytes here, since Storage itself only checks the declared type.
// Either way the release and its tracks are written by one call of publish_release (one transaction: an
// album with all of its tracks, or nothing).

export type UploadKind = "single" | "album" | "merch";

export type Release =
  | { kind: "single"; details: TrackFields & { title: string } }
  | { kind: "album"; details: TrackFields & { albumTitle: string; albumPrice: number | null; trackTitles: string[] } }
  | { kind: "merch"; details: MerchDetails };
type TrackFields = {
  genre: string;
  subgenre: string | null;
  label: string | null;
  price: number;
  allowPayMore: boolean;
  releaseDate: string;
  description: string;
};

/** A file judged by its bytes: what it is, and (audio) how long it plays, when its bytes tell. */
export type CheckedFile<T> = { file: File; type: T; seconds?: number | null };
type CheckedFiles = { artwork: CheckedFile<ImageType> | null; audio: CheckedFile<AudioType>[] };

/**
 * Which files a form must hold: a release's (artwork, and a track for a single or an album), or new files
 * for a published track (either, each optional).
 */
export type FilesFor = { kind: UploadKind; replacing?: boolean };

/**
 * The files of the form, each judged by its bytes: what they are, and the messages by field ('artwork',
 * 'audio') when something is wrong.
 */
export async function checkFiles(
  { kind, replacing = false }: FilesFor,
  artwork: File | null,
  audio: File[],
): Promise<CheckedFiles & { errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const checked: CheckedFiles = { artwork: null, audio: [] };
  if (!artwork) {
    if (!replacing) errors.artwork = "Please upload artwork";
  } else {
    const judged = await judgeImage(artwork);
    if (judged.type) checked.artwork = { file: artwork, type: judged.type };
    else errors.artwork = judged.problem;
  }
  if (kind === "merch") return { ...checked, errors };
  if (audio.length === 0) {
    if (!replacing) errors.audio = "Please upload at least one track";
  } else if (kind === "single" && audio.length > 1) errors.audio = "Only one track can be uploaded for singles";
  else if (audio.length > albumTrackLimit) errors.audio = tooManyTracks;
  else {
    for (const file of audio) {
      const judged = await judgeAudio(file);
      if (!judged.type) {
        errors.audio = audio.length > 1 ? `${file.name}: ${judged.problem}` : judged.problem;
        break;
      }
      checked.audio.push({ file, type: judged.type, seconds: judged.seconds });
    }
  }
  return { ...checked, errors };
}

const notThereYet = "Please wait for all uploads to complete";

/**
 * The files the form names (with JavaScript), each judged: in the artist's own folder, there (uploaded to
 * the end), by its first bytes what its name says, and a track within the longest a track may be (its
 * length as its bytes tell it, which is what the track then says). A file that is not what it says, or
 * too long, is removed.
 */
export async function checkUploaded(
  supabase: SupabaseClient,
  { kind, replacing = false }: FilesFor,
  artistId: string,
  uploaded: UploadedFiles,
  read: StoredBytes,
): Promise<{ errors: FieldErrors; artwork: StoredArtwork | null; tracks: PublishedTrack[] }> {
  const errors: FieldErrors = {};
  let artworkSize: ImageSize | null = null;
  const measured = new Map<string, number>();
  const firstBytes: FirstBytes = async (bucket, path, length) =>
    (await read(bucket, path, 0, length ?? (bucket === "artwork" ? imageHeadLength : sniffLength)))?.bytes ?? null;
  const judge = async (bucket: UploadBucket, path: string): Promise<string | null> => {
    const expected = expectedUpload(artistId, bucket, path);
    if (!expected) return storageErrorMessage({ status: 403 });
    // A track's head is read once, far enough for its type and its length (audioSeconds reads it first).
    const head = await read(bucket, path, 0, bucket === "artwork" ? imageHeadLength : audioHeadLength);
    const bytes = head?.bytes;
    if (!bytes) return notThereYet;
    if (!bytesAre(bytes, expected)) {
      await removeStored(supabase, [{ bucket, path }]);
      return storageErrorMessage({ status: 415 });
    }
    if (isAudioType(expected)) {
      const seconds = await audioSeconds(expected, head.size, async (start, length) =>
        start === 0 && length <= bytes.length
          ? bytes.subarray(0, length)
          : ((await read(bucket, path, start, length))?.bytes ?? new Uint8Array(0)),
      );
      if (tooLong(seconds)) {
        await removeStored(supabase, [{ bucket, path }]);
        return audioFiles.tooLong;
      }
      if (seconds !== null) measured.set(path, seconds);
    }
    // The artwork's header also tells its size, which its release's link previews name.
    if (path === uploaded.uploadedArtwork) {
      artworkSize = await storedArtworkSize(firstBytes, path, bytes);
      if (artworkSize && !isPictureSizeAllowed(artworkSize)) {
        await removeStored(supabase, [{ bucket, path }]);
        return imageFiles.tooLarge;
      }
    }
    return null;
  };
  const tracks = kind === "merch" ? [] : uploaded.uploadedTracks;
  if (kind !== "merch") {
    if (tracks.length === 0) {
      if (!replacing) errors.audio = "Please upload at least one track";
    } else if (kind === "single" && tracks.length > 1) errors.audio = "Only one track can be uploaded for singles";
  }
  const { uploadedArtwork, uploadedArtworkSmall } = uploaded;
  // The rendition sits beside its original, in the `small/` folder, under the same name.
  const smallMatches = (path: string) => path === smallArtworkPath(uploadedArtwork, path.split(".").at(-1) ?? "");
  const [artworkProblem, smallJudged, ...trackProblems] = await Promise.all([
    uploadedArtwork ? judge("artwork", uploadedArtwork) : replacing ? null : "Please upload artwork",
    !uploadedArtworkSmall
      ? null
      : smallMatches(uploadedArtworkSmall)
        ? judge("artwork", uploadedArtworkSmall)
        : storageErrorMessage({ status: 403 }),
    ...(errors.audio ? [] : tracks.map((track) => judge("tracks", track.path))),
  ]);
  // The rendition is a nicety: one not (yet) readable is left out (cards show the original, and the sweep
  // removes it later); one that is not an image, or not beside its original, is refused.
  const smallMissing = smallJudged === notThereYet;
  const smallProblem = smallMissing ? null : smallJudged;
  if (artworkProblem ?? smallProblem) errors.artwork = artworkProblem ?? smallProblem ?? undefined;
  errors.audio ??= trackProblems.find((problem) => problem !== null) ?? undefined;
  if (!errors.audio) delete errors.audio;
  return {
    errors,
    artwork:
      artworkProblem || !uploadedArtwork
        ? null
        : { path: uploadedArtwork, smallPath: (!smallMissing && uploadedArtworkSmall) || null, size: artworkSize },
    tracks: tracks.map((track) => ({
      path: track.path,
      fileName: null,
      peaks: track.peaks,
      durationSeconds: measured.get(track.path) ?? track.durationSeconds,
    })),
  };
}

/**
 * Stores the files and writes the release, as the artist (storage policies and row-level security
 * decide). Returns the message to show when it could not, having removed what it stored.
 */
export function publish(
  publisher: Publisher,
  artistId: string,
  release: Release,
  artwork: CheckedFile<ImageType>,
  audio: CheckedFile<AudioType>[],
): Promise<PublishOutcome> {
  return withStoredFiles(
    publisher.supabase,
    artistId,
    async (store) => insertRelease(publisher, artistId, release, await store.artwork(artwork), await store.tracks(audio)),
    (outcome) => "published" in outcome,
  );
}

/** Storing the judged files of a form sent without JavaScript, in the artist's own folder. */
export type StoreFiles = {
  artwork: (artwork: CheckedFile<ImageType>) => Promise<StoredArtwork>;
  tracks: (audio: CheckedFile<AudioType>[]) => Promise<PublishedTrack[]>;
};

/**
 * Runs `write`, which stores files with `store` and then writes the rows that name them. What it stored
 * is removed again unless `written` says the rows went through.
 */
export async function withStoredFiles<Outcome extends object>(
  supabase: SupabaseClient,
  artistId: string,
  write: (store: StoreFiles) => Promise<Outcome>,
  written: (outcome: Outcome) => boolean,
): Promise<Outcome | { storage: string }> {
  const stored: StoredObject[] = [];
  const put = async (bucket: UploadBucket, { file, type }: CheckedFile<{ mime: string; extension: string }>) => {
    const path = storagePath(artistId, type.extension);
    const { data, error } = await supabase.storage
      .from(bucket)
      .upload(path, file, { contentType: type.mime, cacheControl: "3600", upsert: false });
    if (error || !data?.path) throw new StorageFailure(error ? storageErrorMessage(error) : "Upload failed - no path returned", error);
    stored.push({ bucket, path });
    return path;
  };
  const store: StoreFiles = {
    // Without JavaScript there is no small rendition: cards show the original.
    artwork: async (artwork) => ({ path: await put("artwork", artwork), smallPath: null, size: await fileImageSize(artwork.file) }),
    tracks: async (audio) => {
      const tracks: PublishedTrack[] = [];
      for (const upload of audio) {
        const path = await put("tracks", upload);
        const decoded = upload.type.mime === "audio/wav" ? decodeWav(new Uint8Array(await upload.file.arrayBuffer())) : null;
        tracks.push({
          path,
          fileName: upload.file.name,
          peaks: decoded ? waveformPeaks(decoded.samples, peakCount) : null,
          durationSeconds: decoded ? decoded.durationSeconds : (upload.seconds ?? null),
        });
      }
      return tracks;
    },
  };
  try {
    const outcome = await write(store);
    // Rows that did not go through leave no files behind.
    if (!written(outcome)) await removeStored(supabase, stored);
    return outcome;
  } catch (failure) {
    await removeStored(supabase, stored);
    if (failure instanceof StorageFailure) {
      console.error("storing an upload failed", failure.cause);
      return { storage: failure.message };
    }
    throw failure;
  }
}

/** What replacing a track's files did: the master it replaced (for the caller to remove), or why it did not. */
export type ReplaceOutcome = { replaced: { audio: boolean; master: string | null } } | { missing: true } | PublishProblem;

/**
 * Names a published track's new files (audio, its release's artwork, or both) with replace_track_files (one
 * transaction), as the artist with this Worker's header: `missing` when the track is not theirs (any more).
 */
export async function replaceTrackFiles(
  { supabase, vouched }: Publisher,
  trackId: string,
  artwork: StoredArtwork | null,
  track: PublishedTrack | null,
): Promise<ReplaceOutcome> {
  const publicUrl = (path: string) => supabase.storage.from("artwork").getPublicUrl(path).data.publicUrl;
  const { data, error } = await vouched.rpc("replace_track_files", {
    track_id: trackId,
    audio: track && { file_url: track.path, peaks: track.peaks, duration_seconds: storedSeconds(track.durationSeconds) },
    artwork: artwork && {
      url: publicUrl(artwork.path),
      small_url: artwork.smallPath ? publicUrl(artwork.smallPath) : null,
      width: artwork.size?.width ?? null,
      height: artwork.size?.height ?? null,
    },
  });
  if (error) return { database: error };
  if (data === null) return { missing: true };
  return { replaced: { audio: track !== null, master: v.parse(ReplacedFilesSchema, data).replaced_master } };
}

const ReplacedFilesSchema = v.object({ replaced_master: v.nullable(v.string()) });

/** A track's length as the database keeps it: to the hundredth of a second. */
const storedSeconds = (seconds: number | null) => (seconds === null ? null : Math.round(seconds * 100) / 100);

/** The release's artwork as stored: the original, its small rendition, and the original's size when known. */
export type StoredArtwork = { path: string; smallPath: string | null; size: ImageSize | null };

export type PublishedTrack = { path: string; fileName: string | null; peaks: number[] | null; durationSeconds: number | null };

/**
 * Who publishes: the artist's client (storing the files), and the same artist's client the marketplace
 * vouches for (`vouchedClient`), without which the database lets no row name a stored file: every file
 * named here has had its bytes checked.
 */
export type Publisher = { supabase: SupabaseClient; vouched: SupabaseClient };

/** Why a release was not published: Storage's message, or the database's refusal (for `refusedWrite`). */
export type PublishProblem = { storage: string } | { database: BackendError };

/** What publishing did: the ids of the tracks it published (none for merch), or why it did not. */
export type PublishOutcome = { published: string[] } | PublishProblem;

/**
 * Writes the release and its tracks with publish_release (one transaction), so an album is published whole
 * or not at all; merch is one row. Returns the new tracks' ids, or the database's refusal.
 */
export async function insertRelease(
  { supabase, vouched }: Publisher,
  artistId: string,
  release: Release,
  artwork: StoredArtwork,
  tracks: PublishedTrack[],
): Promise<PublishOutcome> {
  const publicUrl = (path: string) => supabase.storage.from("artwork").getPublicUrl(path).data.publicUrl;
  const artworkUrl = publicUrl(artwork.path);
  const artworkSmallUrl = artwork.smallPath ? publicUrl(artwork.smallPath) : null;
  if (release.kind === "merch") {
    const { title, price, allowPayMore, description, stock, shipsFrom, shippingHome, shippingElsewhere } = release.details;
    const { error } = await vouched.from("merch").insert({
      artist_id: artistId,
      title,
      price,
      allow_pay_more: allowPayMore,
      description,
      stock,
      ships_from: shipsFrom,
      shipping_home: shippingHome,
      shipping_elsewhere: shippingElsewhere,
      image_url: artworkUrl,
      image_small_url: artworkSmallUrl,
    });
    return error ? { database: error } : { published: [] };
  }
  const { genre, subgenre, label, price, allowPayMore, releaseDate, description } = release.details;
  const { data, error } = await vouched.rpc("publish_release", {
    kind: release.kind,
    title: release.kind === "single" ? release.details.title : release.details.albumTitle,
    price: (release.kind === "album" && release.details.albumPrice) || undefined,
    tracks: tracks.map((track, index) => ({
      file_url: track.path,
      peaks: track.peaks,
      duration_seconds: storedSeconds(track.durationSeconds),
      title:
        release.kind === "single"
          ? release.details.title
          : (release.details.trackTitles[index] ?? (track.fileName ? titleFromFileName(track.fileName) : `Track ${index + 1}`)),
      track_number: release.kind === "album" ? index + 1 : null,
      genre,
      subgenre,
      label,
      price,
      allow_pay_more: allowPayMore,
      release_date: releaseDate,
      description,
      artwork_url: artworkUrl,
      artwork_small_url: artworkSmallUrl,
      artwork_width: artwork.size?.width ?? null,
      artwork_height: artwork.size?.height ?? null,
    })),
  });
  return error ? { database: error } : { published: data };
}

type StoredObject = { bucket: UploadBucket; path: string };

async function removeStored(supabase: SupabaseClient, stored: StoredObject[]) {
  for (const bucket of ["tracks", "artwork"] as const) {
    const paths = stored.filter((object) => object.bucket === bucket).map((object) => object.path);
    if (paths.length === 0) continue;
    const { error } = await supabase.storage.from(bucket).remove(paths);
    if (error) console.error("removing the files of a failed release failed", paths, error);
  }
}

class StorageFailure extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
  }
}
