// The streaming multipart reader: the same form the platform's parser reads, whatever the chunking, and
// each limit refused as soon as the bytes read show it, without reading the rest.
import { describe, expect, it } from "vitest";
import {
  MultipartFormatError,
  MultipartLimitError,
  multipartBoundary,
  readMultipart,
  type MultipartLimits,
} from "~/lib/forms/multipart.server";

const limits: MultipartLimits = {
  parts: 10,
  textBytes: 1000,
  files: { picture: { count: 1, bytes: 5000 }, audio: { count: 2, bytes: 5000 } },
};

/** A form as a browser encodes it: its bytes and boundary. */
async function encoded(form: FormData) {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await request.arrayBuffer()), boundary: multipartBoundary(request.headers.get("Content-Type")!)! };
}

/** A reader of `bytes` in chunks of `size`, counting how many bytes were handed out. */
function chunked(bytes: Uint8Array, size: number) {
  const handed = { bytes: 0 };
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      const chunk = bytes.slice(offset, offset + size);
      offset += chunk.length;
      handed.bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { reader: stream.getReader(), handed };
}

function sample() {
  const form = new FormData();
  form.append("title", "Kitchen Song ✓");
  form.append("genre", "");
  form.append("tags", "a");
  form.append("tags", "b\r\n--not a boundary");
  form.append("picture", new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 45, 45])], "cover é.png", { type: "image/png" }));
  form.append("audio", new File([], "", { type: "application/octet-stream" }));
  return form;
}

it("reads a browser's empty file input as an empty file", async () => {
  const boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--${boundary}--\r\n`;
  const read = await readMultipart(chunked(new TextEncoder().encode(body), 5).reader, boundary, limits);
  const file = read.get("audio") as File;
  expect(file).toBeInstanceOf(File);
  expect(file.size).toBe(0);
});

describe("readMultipart", () => {
  it.each([1, 2, 7, 64, 100_000])("reads what the platform's parser reads, in chunks of %i bytes", async (size) => {
    const { bytes, boundary } = await encoded(sample());
    const read = await readMultipart(chunked(bytes, size).reader, boundary, limits);
    const expected = await new Request("http://localhost/", { method: "POST", body: sample() }).formData();
    expect([...read.keys()]).toEqual([...expected.keys()]);
    expect(read.getAll("tags")).toEqual(["a", "b\r\n--not a boundary"]);
    expect(read.get("title")).toBe("Kitchen Song ✓");
    expect(read.get("genre")).toBe("");
    const picture = read.get("picture") as File;
    expect(picture.name).toBe("cover é.png");
    expect(picture.type).toBe("image/png");
    expect(new Uint8Array(await picture.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 45, 45]));
    // An empty file input: browsers name it `filename=""` (a file), this encoder leaves it out (text); read alike.
    expect(read.get("audio")).toEqual(expected.get("audio"));
  });

  it.each<[string, () => FormData]>([
    [
      "too many fields",
      () => {
        const form = new FormData();
        for (let n = 0; n < 10_000; n++) form.append("f", "x");
        return form;
      },
    ],
    [
      "too much text",
      () => {
        const form = new FormData();
        for (let n = 0; n < 5; n++) form.append("bio", "x".repeat(300));
        form.append("bio", "x".repeat(200_000));
        return form;
      },
    ],
    [
      "a file where the form takes none",
      () => {
        const form = new FormData();
        form.append("avatar", new File([new Uint8Array(200_000)], "a.png"));
        return form;
      },
    ],
    [
      "a file in a field named like an object's own property",
      () => {
        const form = new FormData();
        form.append("constructor", new File([new Uint8Array(200_000)], "a.png"));
        return form;
      },
    ],
    [
      "more files than the field takes",
      () => {
        const form = new FormData();
        for (let n = 0; n < 3; n++) form.append("audio", new File([new Uint8Array(100_000)], `${n}.wav`));
        return form;
      },
    ],
    [
      "a file past its bytes",
      () => {
        const form = new FormData();
        form.append("picture", new File([new Uint8Array(500_000)], "big.png"));
        return form;
      },
    ],
  ])("refuses %s as soon as it shows, without reading the rest", async (_, make) => {
    const { bytes, boundary } = await encoded(make());
    const { reader, handed } = chunked(bytes, 1024);
    await expect(readMultipart(reader, boundary, limits)).rejects.toBeInstanceOf(MultipartLimitError);
    expect(handed.bytes).toBeLessThan(Math.min(bytes.length, 12 * 1024));
  });

  it("refuses a body that is not a well-formed form", async () => {
    const { bytes, boundary } = await encoded(sample());
    const cut = bytes.slice(0, bytes.length - 10);
    await expect(readMultipart(chunked(cut, 64).reader, boundary, limits)).rejects.toBeInstanceOf(MultipartFormatError);
    const noise = new TextEncoder().encode("x".repeat(20_000));
    await expect(readMultipart(chunked(noise, 64).reader, boundary, limits)).rejects.toBeInstanceOf(MultipartFormatError);
    const endless = new TextEncoder().encode(`--${boundary}\r\n${"X-Header: y\r\n".repeat(1000)}`);
    await expect(readMultipart(chunked(endless, 64).reader, boundary, limits)).rejects.toBeInstanceOf(MultipartFormatError);
  });

  it("reads the boundary from the Content-Type, quoted or not", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe("a b");
    expect(multipartBoundary("multipart/form-data")).toBeNull();
  });
});
