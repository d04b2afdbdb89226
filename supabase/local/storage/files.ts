import { randomUUID } from "node:crypto";
import { mkdir, open, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { type Stack } from "../context.ts";

// Where the bytes live

type StoredFile = { size: number; stream(start: number, end: number): ReadableStream; close(): Promise<void> };

type FileStore = {
  write(bucket: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<void>;
  open(bucket: string, name: string): Promise<StoredFile | null>;
  remove(bucket: string, name: string): Promise<void>;
};

const stores = new WeakMap<Stack, FileStore>();

export function filesOf(stack: Stack): FileStore {
  let store = stores.get(stack);
  if (!store) {
    store = stack.dataDir ? diskStore(join(stack.dataDir, "storage")) : memoryStore();
    stores.set(stack, store);
  }
  return store;
}

function diskStore(root: string): FileStore {
  const pathOf = (bucket: string, name: string) => join(root, bucket, name);
  return {
    async write(bucket, name, bytes) {
      const path = pathOf(bucket, name);
      await mkdir(dirname(path), { recursive: true });
      // Written aside and renamed, so a reader never sees half a file.
      const partial = `${path}.${randomUUID()}.partial`;
      await writeFile(partial, bytes);
      await rename(partial, path);
    },
    async open(bucket, name) {
      const handle = await open(pathOf(bucket, name)).catch(() => null);
      if (!handle) return null;
      const { size } = await handle.stat();
      return {
        size,
        // Streamed from disk: a range of a large track never sits in memory whole.
        stream: (start, end) => Readable.toWeb(handle.createReadStream({ start, end })) as ReadableStream,
        close: () => handle.close(),
      };
    },
    async remove(bucket, name) {
      await rm(pathOf(bucket, name), { force: true });
    },
  };
}

function memoryStore(): FileStore {
  const files = new Map<string, Uint8Array<ArrayBuffer>>();
  const keyOf = (bucket: string, name: string) => `${bucket}/${name}`;
  return {
    async write(bucket, name, bytes) {
      files.set(keyOf(bucket, name), bytes);
    },
    async open(bucket, name) {
      const bytes = files.get(keyOf(bucket, name));
      if (!bytes) return null;
      return {
        size: bytes.length,
        stream: (start, end) => new Blob([bytes.subarray(start, end + 1)]).stream(),
        close: async () => {},
      };
    },
    async remove(bucket, name) {
      files.delete(keyOf(bucket, name));
    },
  };
}
