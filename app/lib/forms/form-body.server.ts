// Reading a posted form within its limits: the one way every action reads its body.
import { data } from "react-router";
import { uncached } from "../http/http-cache";
import { discardBody, discardRest, readBounded } from "../http/request-body";
import {
  MultipartFormatError,
  MultipartLimitError,
  multipartBoundary,
  multipartByteBound,
  readMultipart,
  type FileLimit,
} from "./multipart.server";

/**
 * The most a form may send: fields (the longest lists, 50 shows or 50 codes with 20 tiers, stay well under
 * it) and bytes of text. A form that carries files (multipart) may add its files, never more text.
 */
const formLimits = { fields: 500, textBytes: 256 * 1024 } as const;

const formTooLarge = "This form is too large to send. Please shorten it and try again.";

/**
 * The posted form. A body that is not one (none at all, JSON, plain text, multipart without its boundary)
 * is a bad request, answered 400 by the route's error screen, never a crash. A body past the form's limits
 * is refused (413) as soon as the bytes read show it, so one request cannot keep the Worker busy: a
 * url-encoded body is counted before it is parsed, a multipart one part by part as it streams in
 * (multipart.server.ts). `files`: the fields that may carry files, with how many and how large each
 * (a picture field's 5 MB with room for the spec's message; the upload form's audio files and artwork);
 * any other file is refused, and no form carries more text than any other.
 */
export async function readForm(request: Request, { files = {} }: { files?: Readonly<Record<string, FileLimit>> } = {}): Promise<FormData> {
  const contentType = request.headers.get("Content-Type") ?? "";
  if (contentType.toLowerCase().startsWith("multipart/form-data")) return readMultipartForm(request, contentType, files);
  const body = await boundedBody(request, formLimits.textBytes);
  let formData: FormData;
  try {
    formData = await body.formData();
  } catch {
    throw unreadable();
  }
  let fields = 0;
  let textLength = 0;
  for (const value of formData.values()) {
    if (typeof value === "string") textLength += value.length;
    if (++fields > formLimits.fields || textLength > formLimits.textBytes) throw tooLarge();
  }
  return formData;
}

async function readMultipartForm(request: Request, contentType: string, files: Readonly<Record<string, FileLimit>>): Promise<FormData> {
  const boundary = multipartBoundary(contentType);
  if (!boundary || !request.body) {
    await discardBody(request);
    throw unreadable();
  }
  const limits = {
    parts: formLimits.fields + Object.values(files).reduce((total, { count }) => total + count, 0),
    textBytes: formLimits.textBytes,
    files,
  };
  if (Number(request.headers.get("Content-Length") ?? 0) > multipartByteBound(limits)) {
    await discardBody(request);
    throw tooLarge();
  }
  const reader = request.body.getReader();
  try {
    return await readMultipart(reader, boundary, limits);
  } catch (failure) {
    if (failure instanceof MultipartLimitError) throw tooLarge();
    if (failure instanceof MultipartFormatError) throw unreadable();
    throw failure;
  } finally {
    // What follows the form (or its rest, after a refusal) is read and dropped, so the answer arrives.
    await discardRest(reader);
  }
}

const unreadable = () => data("This form could not be read. Please reload the page and try again.", { status: 400, headers: uncached });

const tooLarge = () => data(formTooLarge, { status: 413, headers: uncached });

/** The request with its body read up to `maxBytes`: a declared or actual length past it is refused. */
async function boundedBody(request: Request, maxBytes: number): Promise<Request> {
  const bytes = await readBounded(request, maxBytes);
  if (!bytes) throw tooLarge();
  return new Request(request.url, { method: request.method, headers: request.headers, body: bytes });
}

/** The files chosen in a form's file field (a field left empty sends one nameless, empty file: not one). */
export function chosenFiles(formData: FormData, name: string): File[] {
  return formData.getAll(name).filter((value): value is File => value instanceof File && value.size > 0);
}
