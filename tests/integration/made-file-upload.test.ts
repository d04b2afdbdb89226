// A made file stored while it is made (the media Worker's MadeFileUpload): resumable parts of exactly
// 6 MiB but the last, which tells the length, to the one object a signed upload URL names, through the
// local stack's Storage (its /upload/resumable/sign, as hosted Storage's).
import { randomBytes } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { LocalStack } from "@crate/local-supabase";
import { startTestStack } from "@crate/local-supabase/testing";
import { MadeFileUpload, uploadPartSize } from "../../app/lib/media/made-file-upload.server.ts";
import { createArtist, signedInClient } from "./schema-fixtures.ts";

let local: LocalStack;
let artist: { id: string; client: SupabaseClient };

beforeAll(async () => {
  local = await startTestStack({ seed: false });
  artist = await signedInClient(local, createArtist(local.stack.db, "Made File Artist"));
});

afterAll(async () => {
  await local?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function signedUpload(path: string): Promise<string> {
  const { data, error } = await artist.client.storage.from("tracks").createSignedUploadUrl(path, { upsert: true });
  expect(error).toBeNull();
  return data!.signedUrl;
}

describe("a made file's upload", () => {
  it("stores a file written in uneven pieces as 6 MiB parts and a last one with the length, byte for byte", async () => {
    const path = `${artist.id}/renditions/${Date.now()}.320k.mp3`;
    const file = new Uint8Array(randomBytes(2 * uploadPartSize + 12_345));
    const sent: { length: number; uploadLength: string | null }[] = [];
    const fetched = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation((input, init) => {
      if (init?.method === "PATCH") {
        sent.push({ length: (init.body as Uint8Array).length, uploadLength: new Headers(init.headers).get("Upload-Length") });
      }
      return fetched(input, init);
    });
    const upload = await MadeFileUpload.open(local.url, await signedUpload(path), "audio/mpeg");
    for (const [start, end] of [
      [0, 1_000_000],
      [1_000_000, 7_000_003],
      [7_000_003, 7_000_004],
      [7_000_004, file.length],
    ] as const) {
      await upload.write(file.subarray(start, end));
    }
    await upload.finish();

    expect(sent).toEqual([
      { length: uploadPartSize, uploadLength: null },
      { length: uploadPartSize, uploadLength: null },
      { length: 12_345, uploadLength: String(file.length) },
    ]);
    const { data, error } = await artist.client.storage.from("tracks").download(path);
    expect(error).toBeNull();
    expect(data!.type).toBe("audio/mpeg");
    expect(new Uint8Array(await data!.arrayBuffer())).toEqual(file);
  });

  it("refuses an address that is not a signed upload URL, and stores nothing for an address of another object", async () => {
    await expect(MadeFileUpload.open(local.url, `${local.url}/storage/v1/object/tracks/${artist.id}/x.mp3`, "audio/mpeg")).rejects.toThrow(
      "the upload address is not a signed upload URL",
    );
    const signed = new URL(await signedUpload(`${artist.id}/renditions/${Date.now()}-one.mp3`));
    const other = `${artist.id}/renditions/${Date.now()}-other.mp3`;
    signed.pathname = signed.pathname.replace(/[^/]+$/, other.split("/").pop()!);
    await expect(MadeFileUpload.open(local.url, signed.href, "audio/mpeg")).rejects.toThrow(/could not be stored \(HTTP 403/);
    const { rows } = await local.stack.db.query("select 1 from storage.objects where name = $1", [other]);
    expect(rows).toEqual([]);
  });
});
