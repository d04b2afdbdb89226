// A made file (a stream, a download format) written to Storage while it is made, never held whole: the
// media Worker has 128 MB, and an hour of audio (the longest a track may be) makes a 144 MB MP3 at 320 kbps. It goes
// as a resumable (TUS) upload to the object its signed upload URL names, with that URL's token in
// `x-signature` (Supabase Storage's /upload/resumable/sign), in parts of 6 MiB, the part size hosted
// Storage requires of every part but the last; its length is told with the last part (creation-defer-length).
// A failure throws: the job is retried, and a new upload writes the object afresh.

/** Hosted Storage's TUS part size: every part but the last is exactly this long. */
export const uploadPartSize = 6 * 1024 * 1024;

const tus = { "Tus-Resumable": "1.0.0" };
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

export class MadeFileUpload {
  private readonly pending: Uint8Array[] = [];
  private pendingLength = 0;
  private offset = 0;

  private readonly location: string;
  private readonly signature: string;

  private constructor(location: string, signature: string) {
    this.location = location;
    this.signature = signature;
  }

  /**
   * Opens the upload of the object `signedUploadUrl` names (`…/object/upload/sign/{bucket}/{name}?token=`,
   * as createSignedUploadUrl signs it) through `storageUrl`'s TUS endpoint.
   */
  static async open(storageUrl: string, signedUploadUrl: string, type: string): Promise<MadeFileUpload> {
    const signed = new URL(signedUploadUrl);
    const signature = signed.searchParams.get("token");
    const object = /\/object\/upload\/sign\/([^/]+)\/(.+)$/.exec(signed.pathname);
    if (!signature || !object) throw new Error("the upload address is not a signed upload URL");
    const [bucketName, objectName] = [decodeURIComponent(object[1]!), decodeURIComponent(object[2]!)];
    const metadata = { bucketName, objectName, contentType: type, cacheControl: "3600" };
    const created = await fetch(`${storageUrl}/storage/v1/upload/resumable/sign`, {
      method: "POST",
      headers: {
        ...tus,
        "x-signature": signature,
        "x-upsert": "true",
        "Upload-Defer-Length": "1",
        "Upload-Metadata": Object.entries(metadata)
          .map(([key, value]) => `${key} ${base64(value)}`)
          .join(","),
      },
    });
    await created.body?.cancel();
    const location = created.headers.get("location");
    if (created.status !== 201 || !location)
      throw new Error(`the file could not be stored (HTTP ${created.status} on creating its upload)`);
    return new MadeFileUpload(new URL(location, storageUrl).href, signature);
  }

  /** Takes the next bytes of the file; sends a part whenever 6 MiB are waiting. */
  async write(bytes: Uint8Array): Promise<void> {
    this.pending.push(bytes);
    this.pendingLength += bytes.length;
    while (this.pendingLength >= uploadPartSize) await this.send(this.take(uploadPartSize), false);
  }

  /** Sends what is left with the file's length: the object is stored. */
  async finish(): Promise<void> {
    await this.send(this.take(this.pendingLength), true);
  }

  /** The first `length` bytes waiting, as one part. */
  private take(length: number): Uint8Array<ArrayBuffer> {
    const part = new Uint8Array(length);
    let filled = 0;
    while (filled < length) {
      const next = this.pending[0]!;
      const used = Math.min(next.length, length - filled);
      part.set(next.subarray(0, used), filled);
      filled += used;
      if (used === next.length) this.pending.shift();
      else this.pending[0] = next.subarray(used);
    }
    this.pendingLength -= length;
    return part;
  }

  private async send(part: Uint8Array<ArrayBuffer>, last: boolean): Promise<void> {
    const sent = await fetch(this.location, {
      method: "PATCH",
      headers: {
        ...tus,
        "x-signature": this.signature,
        "Content-Type": "application/offset+octet-stream",
        "Upload-Offset": String(this.offset),
        ...(last ? { "Upload-Length": String(this.offset + part.length) } : {}),
      },
      body: part,
    });
    await sent.body?.cancel();
    if (sent.status !== 204) throw new Error(`the file could not be stored (HTTP ${sent.status} at byte ${this.offset})`);
    this.offset += part.length;
  }
}
