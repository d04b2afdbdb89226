import { href } from "react-router";
import type { DetailedError } from "tus-js-client";
import { storageErrorMessage } from "../backend/errors";
import { connectionLost, type UploadBucket } from "../media/media-files";

// The upload form's resumable uploads, in the browser: tus-js-client (loaded on the first file chosen,
// never with the page) against the Worker's route, which passes them on to Storage. The session cookie
// goes with each request; no token is ever handed to the page.

const endpoint = href("/uploads/resumable/:uploadId?");
/** Supabase's resumable uploads take 6 MB chunks; a dropped connection costs at most one. */
const chunkSize = 6 * 1024 * 1024;

type UploadEvents = {
  progress(sent: number, total: number): void;
  /** The connection dropped; tus-js-client is trying again by itself. */
  retrying(): void;
  /** After a drop, the upload goes on from `offset`: what the server already has. */
  resumed(offset: number): void;
  done(): void;
  /** Refused, or the connection stayed down: the message stays beside the file until retried or removed. */
  failed(message: string): void;
};

export type RunningUpload = { retry(): void; cancel(): Promise<void> };

export async function startResumableUpload(
  file: Blob,
  target: { bucket: UploadBucket; path: string; contentType: string },
  events: UploadEvents,
): Promise<RunningUpload> {
  const { Upload } = await import("tus-js-client");
  let interrupted = false;
  const upload = new Upload(file, {
    endpoint,
    chunkSize,
    retryDelays: [0, 1000, 3000, 5000],
    storeFingerprintForResuming: false,
    metadata: { bucketName: target.bucket, objectName: target.path, contentType: target.contentType, cacheControl: "3600" },
    onProgress: (sent, total) => events.progress(sent, total),
    onShouldRetry(error: DetailedError) {
      // A refusal (4xx) stays refused; a dropped connection or a server fault is worth another try.
      const status = error.originalResponse?.getStatus() ?? 0;
      const retry = status === 0 || status >= 500 || status === 409 || status === 423;
      if (retry) {
        interrupted = true;
        events.retrying();
      }
      return retry;
    },
    onBeforeRequest(request) {
      if (!interrupted || request.getMethod() !== "PATCH") return;
      interrupted = false;
      events.resumed(Number(request.getHeader("Upload-Offset")));
    },
    onSuccess: () => events.done(),
    onError(error) {
      interrupted = true;
      const response = "originalResponse" in error ? error.originalResponse : null;
      events.failed(response ? response.getBody() || storageErrorMessage({ status: response.getStatus() }) : connectionLost);
    },
  });
  upload.start();
  return { retry: () => upload.start(), cancel: () => upload.abort(true) };
}
