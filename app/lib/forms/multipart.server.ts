// A `multipart/form-data` body read as it streams in, with the form's limits held part by part: the
// count of fields, the bytes of text, which fields may carry files, how many each and how large. The
// first limit passed ends the reading there, whatever follows, so no body costs more than the form it
// claims to be (the platform's `request.formData()` reads and parses everything before anything can be
// counted).
import { concat } from "../http/bytes";

/** A field that may carry files: how many, and how many bytes each. */
export type FileLimit = { count: number; bytes: number };

export type MultipartLimits = {
  /** The most parts (fields and files together). */
  parts: number;
  /** The most bytes of text, across every field that is not a file. */
  textBytes: number;
  /** The fields that may carry files; a file in any other field is refused. */
  files: Readonly<Record<string, FileLimit>>;
};

/** The body passed one of its limits (answered 413). */
export class MultipartLimitError extends Error {}

/** The body is not a well-formed multipart form (answered 400). */
export class MultipartFormatError extends Error {}

/** The boundary named by a `multipart/form-data` Content-Type, or null. */
export function multipartBoundary(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * The most bytes a body within `limits` can declare: its parts' content, and room for each part's
 * delimiter and headers (a browser's take about 100 bytes; a long file name a few hundred more).
 */
export function multipartByteBound(limits: MultipartLimits): number {
  const files = Object.values(limits.files).reduce((total, { count, bytes }) => total + count * bytes, 0);
  return limits.textBytes + files + limits.parts * 1024;
}

const maxHeaderBytes = 8 * 1024;

const ascii = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));

/** Where `needle` first occurs in `haystack`, or -1: the native scan for its first byte, then the rest compared. */
function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  const last = haystack.length - needle.length;
  for (let at = haystack.indexOf(first); at !== -1 && at <= last; at = haystack.indexOf(first, at + 1)) {
    let matched = 1;
    while (matched < needle.length && haystack[at + matched] === needle[matched]) matched++;
    if (matched === needle.length) return at;
  }
  return -1;
}

type Part = { name: string | null; filename: string | null; type: string; chunks: Uint8Array<ArrayBuffer>[]; size: number; limit: number };

/**
 * The form `reader` reads, chunk by chunk, to its closing boundary (what follows it is left unread);
 * throws a MultipartLimitError or a MultipartFormatError as soon as the bytes read so far show one.
 */
export async function readMultipart(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundary: string,
  limits: MultipartLimits,
): Promise<FormData> {
  // Every delimiter follows a line break; the first may open the body, so the body is read as if one came first.
  const delimiter = ascii(`\r\n--${boundary}`);
  const headersEnd = ascii("\r\n\r\n");
  const decoder = new TextDecoder();
  const form = new FormData();
  const filesIn = new Map<string, number>();
  let parts = 0;
  let textBytes = 0;
  let state = "preamble" as "preamble" | "delimiter" | "headers" | "content" | "done";
  let part: Part | null = null;
  let pending: Uint8Array = ascii("\r\n");

  const open = (headers: string) => {
    if (++parts > limits.parts) throw new MultipartLimitError("too many fields");
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? "";
    const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1] ?? null;
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
    const type = /^content-type:\s*(.*?)\s*$/im.exec(headers)?.[1] ?? "application/octet-stream";
    if (filename === null) return { name, filename, type, chunks: [], size: 0, limit: limits.textBytes - textBytes };
    // Only the form's own file fields (never a name the object inherits, such as `constructor`).
    const allowed = name !== null && Object.hasOwn(limits.files, name) ? limits.files[name] : undefined;
    if (!allowed || name === null) throw new MultipartLimitError("a file where the form takes none");
    const count = (filesIn.get(name) ?? 0) + 1;
    if (count > allowed.count) throw new MultipartLimitError(`too many files in ${name}`);
    filesIn.set(name, count);
    return { name, filename, type, chunks: [], size: 0, limit: allowed.bytes };
  };

  const take = (current: Part, bytes: Uint8Array) => {
    if (bytes.byteLength === 0) return;
    current.size += bytes.byteLength;
    if (current.size > current.limit) throw new MultipartLimitError(current.filename === null ? "too much text" : "a file too large");
    // A copy: the chunk the runtime handed over is not ours to keep.
    current.chunks.push(bytes.slice());
  };

  const close = (current: Part) => {
    if (current.name === null) return;
    if (current.filename === null) {
      textBytes += current.size;
      form.append(current.name, decoder.decode(concat(...current.chunks)));
    } else {
      form.append(current.name, new File(current.chunks, current.filename, { type: current.type }));
    }
  };

  // Takes what `pending` holds as far as it goes; what is left is the start of something unfinished.
  const advance = () => {
    for (;;) {
      if (state === "preamble" || state === "content") {
        const at = indexOf(pending, delimiter);
        if (at === -1) {
          // The last bytes may be the start of a delimiter: they wait for the next chunk.
          const kept = Math.min(pending.length, delimiter.length - 1);
          if (part) take(part, pending.subarray(0, pending.length - kept));
          else if (pending.length > maxHeaderBytes) throw new MultipartFormatError("no boundary");
          pending = pending.subarray(pending.length - kept);
          return;
        }
        if (part) {
          take(part, pending.subarray(0, at));
          close(part);
          part = null;
        }
        pending = pending.subarray(at + delimiter.length);
        state = "delimiter";
      }
      if (state === "delimiter") {
        if (pending.length < 2) return;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = "done";
          return;
        }
        state = "headers";
      }
      if (state === "headers") {
        // The line break after the delimiter, the headers, a blank line.
        const end = indexOf(pending, headersEnd);
        if (end === -1) {
          if (pending.length > maxHeaderBytes) throw new MultipartFormatError("headers too long");
          return;
        }
        if (end > maxHeaderBytes) throw new MultipartFormatError("headers too long");
        part = open(decoder.decode(pending.subarray(0, end)));
        pending = pending.subarray(end + headersEnd.length);
        state = "content";
      }
      if (state === "done") return;
    }
  };

  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    pending = pending.length === 0 ? chunk.value : concat(pending, chunk.value);
    advance();
    if (state === "done") break;
  }
  if (state !== "done") throw new MultipartFormatError("the body ended before its closing boundary");
  return form;
}
