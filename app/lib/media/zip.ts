// A zip archive written as it is read: each file's bytes pass straight through (stored, not compressed:
// audio does not compress), so an album of any size is zipped in a few pieces of memory, never whole. Each
// file's size and CRC-32 were computed once, when it was stored or made (private.made_files), and go in its
// local header, as every reader expects (Java's ZipInputStream refuses a stored entry whose sizes follow
// it); the bytes passed are counted against that size, and a file that differs ends the archive with an
// error rather than a broken entry. A file whose checksum is not known yet (one stored before checksums
// were kept) has it computed as it passes and written after it (a data descriptor). Past 4 GiB of archive
// the offsets need Zip64's records, which are written then (an album of 100 tracks of 50 MB is 5 GB).
// Names are UTF-8 (flag 11), and the archive says it was made on Unix with plain files' permissions, so
// Info-ZIP's unzip reads the names as UTF-8 rather than as an MS-DOS code page.

/**
 * A file to put in the archive: its name inside it, its bytes when its turn comes, and its size and CRC-32
 * when known ahead.
 */
export type ZipEntry = { name: string; open: () => Promise<ReadableStream<Uint8Array>>; size?: number | null; crc?: number | null };

const crcTable = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (the zip one), continued from `crc` over `bytes`. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i += 1) c = crcTable[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

const fourGiB = 0xffffffff;
const utf8Names = 0x0800;
const sizesAfter = 0x0008;
/** Version 4.5 (Zip64) made on Unix (3), and the Unix mode of a plain file readable by all (0644). */
const madeOnUnix = (3 << 8) | 45;
const plainFile = (0o100644 << 16) >>> 0;
const encoder = new TextEncoder();

function record(size: number, write: (view: DataView) => void): Uint8Array {
  const bytes = new Uint8Array(size);
  write(new DataView(bytes.buffer));
  return bytes;
}

/** The DOS date and time a zip stores (local time as written, two-second steps). */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((Math.max(date.getUTCFullYear(), 1980) - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

type Written = { name: Uint8Array; crc: number; size: number; offset: number; flags: number };

/**
 * The archive's bytes, piece by piece, reading each entry only when the one before it is written.
 * `zip64From` is where offsets need Zip64's records: 4 GiB, lowered only by the tests of those records.
 */
export async function* zipPieces(
  entries: ZipEntry[],
  { modified = new Date(), zip64From = fourGiB }: { modified?: Date; zip64From?: number } = {},
): AsyncGenerator<Uint8Array> {
  const stamp = dosDateTime(modified);
  const written: Written[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const known = entry.size != null && entry.crc != null ? { size: entry.size, crc: entry.crc } : null;
    const flags = known ? utf8Names : utf8Names | sizesAfter;
    const header = record(30 + name.length, (view) => {
      view.setUint32(0, 0x04034b50, true);
      view.setUint16(4, 45, true);
      view.setUint16(6, flags, true);
      view.setUint16(8, 0, true);
      view.setUint16(10, stamp.time, true);
      view.setUint16(12, stamp.date, true);
      if (known) {
        view.setUint32(14, known.crc, true);
        view.setUint32(18, known.size, true);
        view.setUint32(22, known.size, true);
      }
      view.setUint16(26, name.length, true);
    });
    header.set(name, 30);
    const start = offset;
    yield header;
    offset += header.length;
    let crc = 0;
    let size = 0;
    const reader = (await entry.open()).getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (!known) crc = crc32(value, crc);
        size += value.length;
        if (known && size > known.size) throw new Error(`${entry.name} is longer than its stored size`);
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
    if (known && size !== known.size) throw new Error(`${entry.name} is shorter than its stored size`);
    if (size >= fourGiB) throw new Error(`${entry.name} is too large for a zip entry without Zip64 sizes`);
    offset += size;
    if (known) crc = known.crc;
    else {
      yield record(16, (view) => {
        view.setUint32(0, 0x08074b50, true);
        view.setUint32(4, crc, true);
        view.setUint32(8, size, true);
        view.setUint32(12, size, true);
      });
      offset += 16;
    }
    written.push({ name, crc, size, offset: start, flags });
  }

  const directoryStart = offset;
  for (const file of written) {
    const far = file.offset >= zip64From;
    const extra = far ? 12 : 0;
    const entry = record(46 + file.name.length + extra, (view) => {
      view.setUint32(0, 0x02014b50, true);
      view.setUint16(4, madeOnUnix, true);
      view.setUint16(6, 45, true);
      view.setUint16(8, file.flags, true);
      view.setUint16(10, 0, true);
      view.setUint16(12, stamp.time, true);
      view.setUint16(14, stamp.date, true);
      view.setUint32(16, file.crc, true);
      view.setUint32(20, file.size, true);
      view.setUint32(24, file.size, true);
      view.setUint16(28, file.name.length, true);
      view.setUint16(30, extra, true);
      view.setUint32(38, plainFile, true);
      view.setUint32(42, far ? fourGiB : file.offset, true);
      if (far) {
        // Zip64 extended information: only the offset, which alone overflows.
        const at = 46 + file.name.length;
        view.setUint16(at, 0x0001, true);
        view.setUint16(at + 2, 8, true);
        view.setBigUint64(at + 4, BigInt(file.offset), true);
      }
    });
    entry.set(file.name, 46);
    yield entry;
    offset += entry.length;
  }
  const directorySize = offset - directoryStart;
  const zip64 = directoryStart >= zip64From || offset >= zip64From || written.length >= 0xffff;
  if (zip64) {
    yield record(56, (view) => {
      view.setUint32(0, 0x06064b50, true);
      view.setBigUint64(4, 44n, true);
      view.setUint16(12, 45, true);
      view.setUint16(14, 45, true);
      view.setBigUint64(24, BigInt(written.length), true);
      view.setBigUint64(32, BigInt(written.length), true);
      view.setBigUint64(40, BigInt(directorySize), true);
      view.setBigUint64(48, BigInt(directoryStart), true);
    });
    yield record(20, (view) => {
      view.setUint32(0, 0x07064b50, true);
      view.setBigUint64(8, BigInt(offset), true);
      view.setUint32(16, 1, true);
    });
  }
  yield record(22, (view) => {
    view.setUint32(0, 0x06054b50, true);
    view.setUint16(8, Math.min(written.length, 0xffff), true);
    view.setUint16(10, Math.min(written.length, 0xffff), true);
    view.setUint32(12, Math.min(directorySize, fourGiB), true);
    view.setUint32(16, zip64 ? fourGiB : directoryStart, true);
  });
}

/** The archive as a stream that reads on only as fast as it is read (each piece when asked for). */
export function zipStream(entries: ZipEntry[], options?: Parameters<typeof zipPieces>[1]): ReadableStream<Uint8Array> {
  const pieces = zipPieces(entries, options);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await pieces.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}
