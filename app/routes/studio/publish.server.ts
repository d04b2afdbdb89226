import { peakCount, waveformPeaks } from "../../../supabase/functions/_shared/waveform";
import { databaseErrorMessage, storageErrorMessage } from "~/lib/errors";
import { judgeAudio, judgeImage, storagePath, titleFromFileName, type AudioType, type ImageType } from "~/lib/media-files";
import type { FieldErrors } from "~/lib/forms";
import type { SupabaseClient } from "~/lib/supabase.server";
import { decodeWav } from "~/lib/wav";

// Publishing from the upload form when the files came with the form (no JavaScript): every file is
// judged by its bytes before anything is stored, stored in the artist's own folder, and the release's
// rows are written in one insert (one transaction: all of an album's tracks, or none). Whatever was
// stored for a release that then failed is removed again.

export type UploadKind = "single" | "album" | "merch";

export type Release =
  | { kind: "single"; details: TrackFields & { title: string } }
  | { kind: "album"; details: TrackFields & { albumTitle: string; trackTitles: string[] } }
  | { kind: "merch"; details: { title: string; price: number; allowPayMore: boolean; description: string } };
type TrackFields = {
  genre: string;
  subgenre: string | null;
  label: string | null;
  price: number;
  allowPayMore: boolean;
  releaseDate: string;
  description: string;
};

export type CheckedFile<T> = { file: File; type: T };
export type CheckedFiles = { artwork: CheckedFile<ImageType> | null; audio: CheckedFile<AudioType>[] };

/**
 * The files of the form, each judged by its bytes: what they are, and the messages by field ('artwork',
 * 'audio') when something is wrong.
 */
export async function checkFiles(kind: UploadKind, artwork: File | null, audio: File[]): Promise<CheckedFiles & { errors: FieldErrors }> {
  const errors: FieldErrors = {};
  const checked: CheckedFiles = { artwork: null, audio: [] };
  if (!artwork) errors.artwork = "Please upload artwork";
  else {
    const judged = await judgeImage(artwork);
    if (judged.type) checked.artwork = { file: artwork, type: judged.type };
    else errors.artwork = judged.problem;
  }
  if (kind === "merch") return { ...checked, errors };
  if (audio.length === 0) errors.audio = "Please upload at least one track";
  else if (kind === "single" && audio.length > 1) errors.audio = "Only one track can be uploaded for singles";
  else {
    for (const file of audio) {
      const judged = await judgeAudio(file);
      if (!judged.type) {
        errors.audio = audio.length > 1 ? `${file.name}: ${judged.problem}` : judged.problem;
        break;
      }
      checked.audio.push({ file, type: judged.type });
    }
  }
  return { ...checked, errors };
}

/**
 * Stores the files and writes the release, as the artist (storage policies and row-level security
 * decide). Returns the message to show when it could not, having removed what it stored.
 */
export async function publish(
  supabase: SupabaseClient,
  artistId: string,
  release: Release,
  artwork: CheckedFile<ImageType>,
  audio: CheckedFile<AudioType>[],
): Promise<string | null> {
  const stored: { bucket: "tracks" | "artwork"; path: string }[] = [];
  const store = async (bucket: "tracks" | "artwork", { file, type }: CheckedFile<{ mime: string; extension: string }>) => {
    const path = storagePath(artistId, type.extension);
    const { data, error } = await supabase.storage
      .from(bucket)
      .upload(path, file, { contentType: type.mime, cacheControl: "3600", upsert: false });
    if (error || !data?.path) throw new StorageFailure(error ? storageErrorMessage(error) : "Upload failed - no path returned", error);
    stored.push({ bucket, path });
    return path;
  };
  try {
    const artworkPath = await store("artwork", artwork);
    const artworkUrl = supabase.storage.from("artwork").getPublicUrl(artworkPath).data.publicUrl;
    if (release.kind === "merch") {
      const { title, price, allowPayMore, description } = release.details;
      const { error } = await supabase
        .from("merch")
        .insert({ artist_id: artistId, title, price, allow_pay_more: allowPayMore, description, image_url: artworkUrl });
      if (error) throw new DatabaseFailure(error);
      return null;
    }
    const tracks = [];
    for (const [index, upload] of audio.entries()) {
      const path = await store("tracks", upload);
      const decoded = upload.type.mime === "audio/wav" ? decodeWav(new Uint8Array(await upload.file.arrayBuffer())) : null;
      tracks.push({
        file_url: path,
        peaks: decoded ? waveformPeaks(decoded.samples, peakCount) : null,
        duration_seconds: decoded ? Math.round(decoded.durationSeconds * 100) / 100 : null,
        title:
          release.kind === "single" ? release.details.title : (release.details.trackTitles[index] ?? titleFromFileName(upload.file.name)),
        track_number: release.kind === "album" ? index + 1 : null,
      });
    }
    const { genre, subgenre, label, price, allowPayMore, releaseDate, description } = release.details;
    // One insert of every row: PostgREST runs it as one statement in one transaction.
    const { error } = await supabase.from("tracks").insert(
      tracks.map((track) => ({
        ...track,
        artist_id: artistId,
        type: release.kind,
        album_title: release.kind === "album" ? release.details.albumTitle : null,
        genre,
        subgenre,
        label,
        price,
        allow_pay_more: allowPayMore,
        release_date: releaseDate,
        description,
        artwork_url: artworkUrl,
      })),
    );
    if (error) throw new DatabaseFailure(error);
    return null;
  } catch (failure) {
    await removeStored(supabase, stored);
    if (failure instanceof StorageFailure) {
      console.error("storing an upload failed", failure.cause);
      return failure.message;
    }
    if (failure instanceof DatabaseFailure) {
      console.error("publishing a release failed", failure.error);
      return databaseErrorMessage(failure.error);
    }
    throw failure;
  }
}

async function removeStored(supabase: SupabaseClient, stored: { bucket: "tracks" | "artwork"; path: string }[]) {
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

class DatabaseFailure extends Error {
  error: { code?: string; message?: string };
  constructor(error: { code?: string; message?: string }) {
    super(error.message);
    this.error = error;
  }
}
