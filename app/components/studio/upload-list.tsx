import { href } from "react-router";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { inputClasses } from "~/components/ui/field";
import type { Waveform } from "~/lib/uploads/audio-waveform";
import {
  audioFiles,
  connectionLost,
  judgeAudio,
  judgeImage,
  smallArtworkPath,
  storagePath,
  titleFromFileName,
  type UploadBucket,
} from "~/lib/media/media-files";
import { moveItem } from "~/lib/ui/ordering";
import type { RunningUpload } from "~/lib/uploads/resumable-upload";

/** The upload client, the waveform reader and the rendition: loaded with the first file chosen. */
const uploadClient = () => import("~/lib/uploads/upload-client.client");

// The upload form's files with JavaScript: each starts uploading the moment it is chosen or dropped, with
// its own bar, and shows its message until it is retried or removed. Tracks are numbered by position,
// can be renamed, moved (by dragging, or with Move up / Move down from the keyboard) and removed, which
// also removes what was already stored. The form then names the stored files instead of sending them.

type UploadItem = {
  key: string;
  file: File;
  title: string;
  path: string | null;
  sent: number;
  state: "uploading" | "retrying" | "complete" | "failed";
  /** What happened to the connection, e.g. 'Resumed at 60%'. */
  note: string | null;
  message: string | null;
  /** Audio only: what the browser read of it ('reading' until then). */
  waveform: Waveform | "reading" | null;
  /** Artwork for a release only: where its small rendition is stored ('making' until then; null if none). */
  small: string | "making" | null;
  upload: RunningUpload | null;
};

const percent = (part: number, whole: number) => `${whole > 0 ? Math.floor((part / whole) * 100) : 0}%`;

/** Removes a file stored ahead of publishing that the artist took out of the form again. */
function discardStored(bucket: UploadBucket, path: string) {
  const body = new FormData();
  body.set("bucket", bucket);
  body.set("path", path);
  return fetch(href("/uploads/discard"), { method: "POST", body }).catch(() => undefined);
}

/** The list of one picker's files and what can be done with them. */
export function useUploads(
  bucket: UploadBucket,
  userId: string,
  { onStored, withSmall = false }: { onStored?: (path: string) => void; withSmall?: boolean } = {},
) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const latest = useRef(items);
  useEffect(() => {
    latest.current = items;
  }, [items]);

  const update = (key: string, change: Partial<UploadItem> | ((item: UploadItem) => Partial<UploadItem>)) =>
    setItems((current) =>
      current.map((item) => (item.key === key ? { ...item, ...(typeof change === "function" ? change(item) : change) } : item)),
    );

  // Complete once stored and, for a track, once the browser has read its waveform; for a release's
  // artwork, once its small rendition is stored too (or could not be).
  const settle = (key: string) =>
    update(key, (item) =>
      item.state === "uploading" && item.sent === item.file.size && item.waveform !== "reading" && item.small !== "making"
        ? { state: "complete" }
        : {},
    );

  async function add(file: File) {
    const key = crypto.randomUUID();
    const judged = bucket === "tracks" ? await judgeAudio(file) : await judgeImage(file);
    const base = { key, file, title: titleFromFileName(file.name), sent: 0, note: null, upload: null, small: null };
    if (!judged.type) {
      setItems((current) => [...current, { ...base, path: null, state: "failed", message: judged.problem, waveform: null }]);
      return;
    }
    const path = storagePath(userId, judged.type.extension);
    const waveform = bucket === "tracks" ? "reading" : null;
    const small = withSmall ? "making" : null;
    setItems((current) => [...current, { ...base, path, state: "uploading", message: null, waveform, small }]);
    const client = await uploadClient().catch(() => null);
    const upload = await client
      ?.startResumableUpload(
        file,
        { bucket, path, contentType: judged.type.mime },
        {
          progress: (sent) => update(key, { sent }),
          retrying: () => update(key, { state: "retrying", note: "Connection lost, trying again…" }),
          resumed: (offset) => update(key, { state: "uploading", note: `Resumed at ${percent(offset, file.size)}, not from the start` }),
          done: () => {
            update(key, { sent: file.size });
            settle(key);
            onStored?.(path);
          },
          failed: (message) => update(key, { state: "failed", message }),
        },
      )
      .catch(() => null);
    if (!client || !upload) {
      // The upload client itself could not be loaded (the connection dropped): the file can be chosen again.
      update(key, { state: "failed", message: connectionLost });
      return;
    }
    update(key, { upload });
    if (withSmall) await storeSmallRendition(key, file, path);
    if (bucket !== "tracks") return;
    const read = await client.readWaveform(file);
    if (read) {
      update(key, { waveform: read });
      settle(key);
    } else {
      await upload.cancel();
      await discardStored(bucket, path);
      update(key, { state: "failed", waveform: null, message: audioFiles.undecodable, upload: null });
    }
  }

  // A rendition that cannot be made or stored is no failure: cards then show the original.
  async function storeSmallRendition(key: string, file: File, path: string) {
    const { smallRendition, startResumableUpload } = await uploadClient();
    const rendition = await smallRendition(file);
    const smallPath = rendition ? smallArtworkPath(path, rendition.type.extension) : null;
    const stored =
      rendition && smallPath
        ? await new Promise<boolean>((resolve) => {
            void startResumableUpload(
              rendition.blob,
              { bucket, path: smallPath, contentType: rendition.type.mime },
              { progress: () => {}, retrying: () => {}, resumed: () => {}, done: () => resolve(true), failed: () => resolve(false) },
            ).catch(() => resolve(false));
          })
        : false;
    update(key, { small: stored ? smallPath : null });
    settle(key);
  }

  function remove(key: string) {
    const item = latest.current.find((candidate) => candidate.key === key);
    setItems((current) => current.filter((candidate) => candidate.key !== key));
    if (!item?.path) return;
    if (item.state === "complete" || item.sent === item.file.size) void discardStored(bucket, item.path);
    else void item.upload?.cancel();
    if (item.small && item.small !== "making") void discardStored(bucket, item.small);
  }

  function retry(key: string) {
    latest.current.find((item) => item.key === key)?.upload?.retry();
    update(key, { state: "uploading", message: null });
  }

  function move(key: string, to: number) {
    setItems((current) =>
      moveItem(
        current,
        current.findIndex((item) => item.key === key),
        to,
      ),
    );
  }

  return {
    items,
    add: (files: File[]) => files.forEach((file) => void add(file)),
    remove,
    retry,
    move,
    rename: (key: string, title: string) => update(key, { title }),
    /** Removes every file (a new artwork replaces the old one). */
    clear: () => latest.current.forEach((item) => remove(item.key)),
    busy: items.some((item) => item.state === "uploading" || item.state === "retrying"),
    failed: items.some((item) => item.state === "failed"),
  };
}

export type Uploads = ReturnType<typeof useUploads>;

/**
 * A form that names these uploads waits for them: `hold` (its submit handler) stops it while one is still
 * uploading or has failed, and `message` says why, until the files are done.
 */
export function useHeldForUploads(lists: Uploads[]) {
  const [held, setHeld] = useState(false);
  const notReady = lists.some((list) => list.busy)
    ? "Please wait for all uploads to complete"
    : lists.some((list) => list.failed)
      ? "Please retry or remove the files that could not be uploaded"
      : null;
  return {
    message: held ? notReady : null,
    hold(event: React.FormEvent) {
      setHeld(notReady !== null);
      if (notReady) event.preventDefault();
    },
  };
}

/** One file's row: number, name (or title), bar, state, and what can be done with it. */
export function UploadList({ uploads, kind, renamable = false }: { uploads: Uploads; kind: "track" | "artwork"; renamable?: boolean }) {
  const dragged = useRef<string | null>(null);
  const { items } = uploads;
  const numbered = kind === "track";
  if (items.length === 0) return null;
  return (
    <ol className="mt-3 grid gap-2" aria-label={numbered ? "Track uploads" : "Image upload"}>
      {items.map((item, index) => {
        const name = numbered ? `track ${index + 1} (${item.file.name})` : item.file.name;
        return (
          <li
            key={item.key}
            draggable={numbered}
            onDragStart={() => (dragged.current = item.key)}
            onDragOver={(event) => {
              if (dragged.current) event.preventDefault();
            }}
            onDrop={(event) => {
              if (!dragged.current) return;
              event.preventDefault();
              uploads.move(dragged.current, index);
              dragged.current = null;
            }}
            className="rounded-xl border border-stage-700 bg-stage-900 p-3"
          >
            <div className="flex flex-wrap items-center gap-3">
              {numbered ? (
                <span className="w-6 text-right font-semibold text-ink-muted tabular-nums" aria-hidden="true">
                  {index + 1}.
                </span>
              ) : null}
              <span className="min-w-0 flex-1 truncate text-sm text-ink">{item.file.name}</span>
              {numbered && items.length > 1 ? (
                <>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Move up ${name}`}
                    disabled={index === 0}
                    onClick={() => uploads.move(item.key, index - 1)}
                  >
                    Move up
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Move down ${name}`}
                    disabled={index === items.length - 1}
                    onClick={() => uploads.move(item.key, index + 1)}
                  >
                    Move down
                  </Button>
                </>
              ) : null}
              {item.state === "failed" && item.upload ? (
                <Button size="sm" variant="secondary" aria-label={`Retry ${name}`} onClick={() => uploads.retry(item.key)}>
                  Retry
                </Button>
              ) : null}
              <Button size="sm" variant="ghost" aria-label={`Remove ${name}`} onClick={() => uploads.remove(item.key)}>
                Remove
              </Button>
            </div>
            {renamable ? (
              <div className="mt-2">
                <label htmlFor={`${item.key}-title`} className="sr-only">
                  Title of track {index + 1}
                </label>
                <input
                  id={`${item.key}-title`}
                  name="trackTitles"
                  value={item.title}
                  onChange={(event) => uploads.rename(item.key, event.target.value)}
                  className={inputClasses}
                />
              </div>
            ) : null}
            {item.path ? (
              <div
                role="progressbar"
                aria-label={`Upload of ${name}`}
                aria-valuemin={0}
                aria-valuemax={item.file.size}
                aria-valuenow={item.sent}
                aria-valuetext={percent(item.sent, item.file.size)}
                className="mt-2 h-2 w-full overflow-hidden rounded-full bg-stage-700"
              >
                {/* Drawn in the theme (a native bar takes the browser's own colours). */}
                <div className="h-full rounded-full bg-accent" style={{ width: percent(item.sent, item.file.size) }} />
              </div>
            ) : null}
            <p className="mt-1 text-sm text-ink-muted" aria-live="polite">
              {item.state === "complete" ? (
                <span className="inline-flex items-center gap-1 text-accent">
                  <Icon name="check" className="size-4" /> Complete
                </span>
              ) : item.state === "failed" ? null : (
                `${item.state === "retrying" ? "Waiting for the connection" : "Uploading"} ${percent(item.sent, item.file.size)}${item.note ? ` · ${item.note}` : ""}`
              )}
            </p>
            {item.message ? (
              <p role="alert" className="mt-1 text-sm text-danger">
                {item.message}
              </p>
            ) : null}
            {item.state === "complete" && typeof item.small === "string" && item.small !== "making" ? (
              <input type="hidden" name="uploadedArtworkSmall" value={item.small} />
            ) : null}
            {item.state === "complete" && item.path ? (
              <input
                type="hidden"
                name={kind === "track" ? "uploadedTracks" : "uploadedArtwork"}
                value={
                  kind === "track" && item.waveform && item.waveform !== "reading"
                    ? JSON.stringify({ path: item.path, ...item.waveform })
                    : item.path
                }
              />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
