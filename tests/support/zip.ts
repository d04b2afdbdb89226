// Reads a zip back as an unzipper does, from its central directory (Zip64 records included), so tests
// check what an archive holds: each file's name, bytes, and that its stored CRC-32 is its bytes' (by a
// CRC of its own, bit by bit, apart from the one the app writes with). Shared by the unit and route suites.

/** CRC-32 (IEEE 802.3, as zip stores it), the slow and plain way. */
export function plainCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export type ZipFile = { name: string; bytes: Uint8Array; crcMatches: boolean };

export function readZip(archive: Uint8Array): ZipFile[] {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let end = archive.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end -= 1;
  if (end < 0) throw new Error("no end of central directory");
  let count = view.getUint16(end + 10, true);
  let directory = view.getUint32(end + 16, true);
  if (directory === 0xffffffff) {
    const zip64End = Number(view.getBigUint64(end - 20 + 8, true));
    count = Number(view.getBigUint64(zip64End + 32, true));
    directory = Number(view.getBigUint64(zip64End + 48, true));
  }
  const files: ZipFile[] = [];
  let at = directory;
  for (let i = 0; i < count; i += 1) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error(`no central directory entry at ${at}`);
    const crc = view.getUint32(at + 16, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let offset = view.getUint32(at + 42, true);
    if (offset === 0xffffffff) offset = Number(view.getBigUint64(at + 46 + nameLength + 4, true));
    const name = new TextDecoder().decode(archive.subarray(at + 46, at + 46 + nameLength));
    if (view.getUint32(offset, true) !== 0x04034b50) throw new Error(`no local header for ${name}`);
    const start = offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    const bytes = archive.subarray(start, start + size);
    files.push({ name, bytes, crcMatches: plainCrc32(bytes) === crc });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
