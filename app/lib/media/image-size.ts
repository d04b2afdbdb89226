// An image's size in pixels, read from its header the way the bytes say (never what the browser
// claimed), so link previews and oEmbed can name the artwork's width and height. JPEG, PNG and WebP,
// the types we take; a JPEG turned by its EXIF orientation is measured as it is shown.

export type ImageSize = { width: number; height: number };

/** How much of a stored image the Worker reads first: a JPEG's metadata (EXIF, ICC) seldom runs longer. */
export const imageHeadLength = 64 * 1024;

/**
 * The largest side a picture may have, and the most pixels (the database holds the same bounds): a header
 * claiming more is a forgery or a picture no browser should be asked to decode (10,000² pixels is 400 MB
 * of memory; 25 megapixels, 100 MB, is more than any camera's photo a page shows needs).
 */
export const maxPictureSide = 10_000;
export const maxPicturePixels = 25_000_000;

export const isPictureSizeAllowed = ({ width, height }: ImageSize) =>
  width <= maxPictureSide && height <= maxPictureSide && width * height <= maxPicturePixels;

/** Both sizes from the database's two columns, or none. */
export const imageSizeOf = (width: number | null | undefined, height: number | null | undefined): ImageSize | null =>
  width && height ? { width, height } : null;

const ascii = (bytes: Uint8Array, start: number, text: string) =>
  [...text].every((character, index) => bytes[start + index] === character.charCodeAt(0));

/**
 * The size in `bytes` (a file's first bytes, or all of it): null when the header is not one we can read,
 * `truncated` when it goes on past the bytes given (then read further).
 */
export function imageSize(bytes: Uint8Array): ImageSize | "truncated" | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegSize(bytes, view);
  if (ascii(bytes, 0, "\x89PNG\r\n\x1a\n")) {
    if (bytes.length < 24) return "truncated";
    return ascii(bytes, 12, "IHDR") ? positive(view.getUint32(16), view.getUint32(20)) : null;
  }
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return webpSize(bytes, view);
  return null;
}

const positive = (width: number, height: number): ImageSize | null => (width > 0 && height > 0 ? { width, height } : null);

function webpSize(bytes: Uint8Array, view: DataView): ImageSize | "truncated" | null {
  if (bytes.length < 30) return "truncated";
  // Lossy: a key frame's start code, then 14-bit width and height.
  if (ascii(bytes, 12, "VP8 ") && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
    return positive(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
  }
  // Lossless: a signature byte, then width - 1 and height - 1 in 14 bits each.
  if (ascii(bytes, 12, "VP8L") && bytes[20] === 0x2f) {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  // Extended (alpha, animation, metadata): the canvas, width - 1 and height - 1 in 24 bits each.
  if (ascii(bytes, 12, "VP8X")) {
    const uint24 = (at: number) => view.getUint16(at, true) + (view.getUint8(at + 2) << 16);
    return { width: uint24(24) + 1, height: uint24(27) + 1 };
  }
  return null;
}

// Start-of-frame markers (baseline, progressive, lossless…); C4, C8 and CC share the range but are not.
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(bytes: Uint8Array, view: DataView): ImageSize | "truncated" | null {
  let offset = 2;
  let turned = false;
  for (;;) {
    if (offset + 4 > bytes.length) return "truncated";
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    // Fill bytes, and markers that stand alone without a length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2;
      continue;
    }
    // The image's data (or its end) before any frame header: not an image we can measure.
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = view.getUint16(offset + 2);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (offset + 9 > bytes.length) return "truncated";
      const size = positive(view.getUint16(offset + 7), view.getUint16(offset + 5));
      return size && turned ? { width: size.height, height: size.width } : size;
    }
    if (marker === 0xe1 && offset + 2 + length <= bytes.length) {
      turned ||= exifTurnsQuarter(bytes.subarray(offset + 4, offset + 2 + length));
    }
    offset += 2 + length;
  }
}

/**
 * Whether an APP1 segment is EXIF whose orientation (tag 0x0112 in the first directory) turns the picture
 * a quarter (values 5 to 8): browsers show it turned, so its width is the stored height.
 */
function exifTurnsQuarter(segment: Uint8Array): boolean {
  if (!ascii(segment, 0, "Exif\0\0") || segment.length < 14) return false;
  const tiff = new DataView(segment.buffer, segment.byteOffset + 6, segment.byteLength - 6);
  const little = ascii(segment, 6, "II");
  if (!little && !ascii(segment, 6, "MM")) return false;
  const directory = tiff.getUint32(4, little);
  if (directory + 2 > tiff.byteLength) return false;
  const entries = tiff.getUint16(directory, little);
  for (let index = 0; index < entries; index += 1) {
    const entry = directory + 2 + index * 12;
    if (entry + 12 > tiff.byteLength) return false;
    if (tiff.getUint16(entry, little) === 0x0112) {
      const orientation = tiff.getUint16(entry + 8, little);
      return orientation >= 5 && orientation <= 8;
    }
  }
  return false;
}

/**
 * The size of a stored image from its first bytes (`head`, at most `imageHeadLength` of them), reading
 * the whole file (`readAll`) only for a JPEG whose metadata runs past them. Null when it cannot be told.
 */
export async function storedImageSize(head: Uint8Array, readAll: () => Promise<Uint8Array | null>): Promise<ImageSize | null> {
  const size = imageSize(head);
  if (size !== "truncated") return size;
  // Shorter than asked for: that was the whole file.
  if (head.length < imageHeadLength) return null;
  const whole = await readAll();
  return whole ? wholeImageSize(whole) : null;
}

/** The size of a whole image file (one sent with a form), or null when its header cannot tell it. */
export async function fileImageSize(file: Blob): Promise<ImageSize | null> {
  return wholeImageSize(new Uint8Array(await file.arrayBuffer()));
}

function wholeImageSize(bytes: Uint8Array): ImageSize | null {
  const size = imageSize(bytes);
  return size === "truncated" ? null : size;
}
