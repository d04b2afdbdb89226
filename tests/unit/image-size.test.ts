import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { imageHeadLength, imageSize, imageSizeOf, isPictureSizeAllowed, storedImageSize } from "~/lib/media/image-size";
import { imageFiles, judgeImage } from "~/lib/media/media-files";

const hex = (text: string) => Uint8Array.from(text.replace(/\s+/g, "").match(/../g) ?? [], (pair) => parseInt(pair, 16));
const latin1 = (text: string) => Uint8Array.from(text, (character) => character.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => {
  const all = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  parts.reduce((offset, part) => (all.set(part, offset), offset + part.length), 0);
  return all;
};

/** A 1×1 PNG (the upload tests' own). */
const tinyPng = latin1(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="));

/** A WebP file of one chunk (its header is all the size needs), as RIFF wraps it. */
function webp(fourcc: string, payload: Uint8Array): Uint8Array {
  const file = concat(latin1("RIFF...."), latin1("WEBP"), latin1(fourcc), new Uint8Array(4), payload);
  const view = new DataView(file.buffer);
  view.setUint32(4, 12 + payload.length, true);
  view.setUint32(16, payload.length, true);
  return file;
}

/** A real JPEG of `width`×`height`, from jpeg-js. */
function realJpeg(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4).fill(0x80);
  return Uint8Array.from(jpeg.encode({ data, width, height }, 80).data);
}

/** `file` (a JPEG) with `segments` (APPn markers and their data) put right after its start marker. */
function withSegments(file: Uint8Array, ...segments: [marker: number, data: Uint8Array][]): Uint8Array {
  const parts = segments.map(([marker, data]) => {
    const head = Uint8Array.of(0xff, marker, 0, 0);
    new DataView(head.buffer).setUint16(2, data.length + 2);
    return concat(head, data);
  });
  return concat(file.subarray(0, 2), ...parts, file.subarray(2));
}

/** An EXIF segment whose first directory holds only the orientation. */
function exifOrientation(orientation: number, byteOrder: "II" | "MM"): Uint8Array {
  const little = byteOrder === "II";
  const tiff = new Uint8Array(8 + 2 + 12 + 4);
  tiff.set(latin1(byteOrder));
  const view = new DataView(tiff.buffer);
  view.setUint16(2, 42, little);
  view.setUint32(4, 8, little);
  view.setUint16(8, 1, little);
  view.setUint16(10, 0x0112, little);
  view.setUint16(12, 3, little);
  view.setUint32(14, 1, little);
  view.setUint16(18, orientation, little);
  return concat(latin1("Exif\0\0"), tiff);
}

describe("an image's size, from its header", () => {
  it("reads a PNG's header", () => {
    expect(imageSize(tinyPng)).toEqual({ width: 1, height: 1 });
    const png = Uint8Array.from(tinyPng);
    new DataView(png.buffer).setUint32(16, 640);
    new DataView(png.buffer).setUint32(20, 480);
    expect(imageSize(png)).toEqual({ width: 640, height: 480 });
    expect(imageSize(png.subarray(0, 20))).toBe("truncated");
  });

  // Chromium's canvas.toBlob("image/webp") wrote these: an extended file (300×150), and the lossy (300×150)
  // and lossless (77×33) image chunks it held, each wrapped as a simple file.
  it("reads the three kinds of WebP", () => {
    const extended = webp("VP8X", hex("30000000 2b0100 950000"));
    expect(imageSize(extended)).toEqual({ width: 300, height: 150 });
    expect(imageSize(webp("VP8 ", hex("7010009d012a2c0196003e51")))).toEqual({ width: 300, height: 150 });
    expect(imageSize(webp("VP8L", hex("2f4c00081017100281a4fdd1")))).toEqual({ width: 77, height: 33 });
    expect(imageSize(extended.subarray(0, 24))).toBe("truncated");
    expect(imageSize(webp("VP8 ", hex("701000000000000000000000")))).toBeNull();
  });

  it("reads a JPEG's frame header, past its metadata", () => {
    const file = realJpeg(40, 30);
    expect(imageSize(file)).toEqual({ width: 40, height: 30 });
    const withComment = withSegments(file, [0xfe, latin1("made for a test")], [0xe0, new Uint8Array(100)]);
    expect(imageSize(withComment)).toEqual({ width: 40, height: 30 });
  });

  it("measures a JPEG as its EXIF orientation shows it", () => {
    const file = realJpeg(40, 30);
    expect(imageSize(withSegments(file, [0xe1, exifOrientation(6, "II")]))).toEqual({ width: 30, height: 40 });
    expect(imageSize(withSegments(file, [0xe1, exifOrientation(8, "MM")]))).toEqual({ width: 30, height: 40 });
    expect(imageSize(withSegments(file, [0xe1, exifOrientation(3, "MM")]))).toEqual({ width: 40, height: 30 });
  });

  it("refuses what is not an image it can measure", () => {
    expect(imageSize(latin1("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(imageSize(hex("ffd8 ffda 0004 0000"))).toBeNull();
    expect(imageSize(hex("ffd8 ffe0"))).toBe("truncated");
    const zero = withSegments(realJpeg(8, 8));
    const frame = zero.findIndex((byte, index) => byte === 0xff && zero[index + 1] === 0xc0);
    zero.set([0, 0], frame + 5);
    expect(imageSize(zero)).toBeNull();
  });
});

describe("a stored image's size", () => {
  const bigMetadata = new Uint8Array(60_000);
  const file = withSegments(realJpeg(40, 30), [0xe2, bigMetadata], [0xe2, bigMetadata]);

  it("reads the whole file only when a JPEG's metadata runs past the first bytes", async () => {
    let readAll = 0;
    const whole = async () => {
      readAll += 1;
      return file;
    };
    expect(await storedImageSize(file.subarray(0, imageHeadLength), whole)).toEqual({ width: 40, height: 30 });
    expect(readAll).toBe(1);
    expect(await storedImageSize(tinyPng, whole)).toEqual({ width: 1, height: 1 });
    expect(readAll).toBe(1);
  });

  it("gives no size for a file cut short, or gone", async () => {
    expect(await storedImageSize(file.subarray(0, 1000), async () => file)).toBeNull();
    expect(await storedImageSize(file.subarray(0, imageHeadLength), async () => null)).toBeNull();
    expect(await storedImageSize(file.subarray(0, imageHeadLength), async () => file.subarray(0, imageHeadLength + 10))).toBeNull();
  });

  it("pairs the database's two columns", () => {
    expect(imageSizeOf(1200, 800)).toEqual({ width: 1200, height: 800 });
    expect(imageSizeOf(null, 800)).toBeNull();
    expect(imageSizeOf(undefined, undefined)).toBeNull();
  });
});

describe("a picture's bounds", () => {
  it("refuses a header-only PNG claiming 10,000 × 10,000 (400 MB to decode), as it refuses more than 10,000 a side", async () => {
    const header = (width: number, height: number) => {
      const bytes = new Uint8Array(33);
      bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
      new DataView(bytes.buffer).setUint32(16, width);
      new DataView(bytes.buffer).setUint32(20, height);
      return bytes;
    };
    expect(isPictureSizeAllowed({ width: 10_000, height: 10_000 })).toBe(false);
    expect(isPictureSizeAllowed({ width: 10_000, height: 2_500 })).toBe(true);
    expect(isPictureSizeAllowed({ width: 10_001, height: 10 })).toBe(false);
    expect((await judgeImage(new Blob([header(10_000, 10_000)]))).problem).toBe(imageFiles.tooLarge);
    expect((await judgeImage(new Blob([header(400, 400)]))).problem).toBeNull();
  });
});
