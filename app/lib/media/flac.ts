// A FLAC encoder for the downloads made from a lossless master (the media queue feeds it a WAV's samples
// as they are read, and stores its frames as they are made). No npm FLAC encoder suits a Worker: each compiles its WebAssembly at run
// time, which Workers refuse. This one is the format's own simple path: fixed blocks of 4,096 frames, each
// channel coded as a constant, verbatim, or by the best of the five fixed predictors with its residual
// Rice-coded in partitions, and the stereo pair as left/right, left/side, side/right or mid/side, whichever
// is smallest. Within a few per cent of `flac -5` on music, and exact: decoding gives back every sample.
// Format: https://www.rfc-editor.org/rfc/rfc9639
import { concat } from "../http/bytes";
import { Md5 } from "./md5";
import { vorbisComments, type CoverArt, type DownloadTags } from "./tags";

const blockSize = 4096;
/** At most 2^8 partitions of a block's residual. */
const maxPartitionOrder = 8;

/** Bits written most significant first, into a buffer sized for the frame being written. */
class BitWriter {
  bytes: Uint8Array;
  length = 0;
  private pending = 0;
  private pendingBits = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }

  /** `count` (at most 32) low bits of `value`. */
  write(value: number, count: number): void {
    if (count > 24) {
      this.write(Math.floor(value / 0x10000) & ((1 << (count - 16)) - 1), count - 16);
      this.write(value & 0xffff, 16);
      return;
    }
    if (count === 0) return;
    this.pending = (this.pending << count) | (value & ((1 << count) - 1));
    this.pendingBits += count;
    while (this.pendingBits >= 8) {
      this.pendingBits -= 8;
      this.bytes[this.length++] = (this.pending >>> this.pendingBits) & 0xff;
    }
    this.pending &= (1 << this.pendingBits) - 1;
  }

  /** `zeros` zero bits, then a one: Rice coding's quotient. */
  unary(zeros: number): void {
    for (; zeros >= 24; zeros -= 24) this.write(0, 24);
    this.write(1, zeros + 1);
  }

  /** Zero bits up to the next byte. */
  align(): void {
    if (this.pendingBits > 0) this.write(0, 8 - this.pendingBits);
  }
}

const crc8Table = Uint8Array.from({ length: 256 }, (_, byte) => {
  let crc = byte;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x80 ? ((crc << 1) ^ 0x07) & 0xff : (crc << 1) & 0xff;
  return crc;
});
const crc16Table = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});
const crc8 = (bytes: Uint8Array) => bytes.reduce((crc, byte) => crc8Table[crc ^ byte]!, 0);
const crc16 = (bytes: Uint8Array) => bytes.reduce((crc, byte) => ((crc << 8) & 0xffff) ^ crc16Table[(crc >> 8) ^ byte]!, 0);

const sampleRateCodes = new Map([
  [88200, 1],
  [176400, 2],
  [192000, 3],
  [8000, 4],
  [16000, 5],
  [22050, 6],
  [24000, 7],
  [32000, 8],
  [44100, 9],
  [48000, 10],
  [96000, 11],
]);
/**
 * How a frame header names the sample rate: a common rate by its code, any other in the header's own
 * field (Hz, tens of Hz or kHz), so a decoder that reads frames alone still knows it.
 */
function frameSampleRate(rate: number): { code: number; value: number; bits: number } {
  const common = sampleRateCodes.get(rate);
  if (common) return { code: common, value: 0, bits: 0 };
  if (rate < 65536) return { code: 13, value: rate, bits: 16 };
  if (rate % 10 === 0 && rate / 10 < 65536) return { code: 14, value: rate / 10, bits: 16 };
  if (rate % 1000 === 0 && rate / 1000 < 256) return { code: 12, value: rate / 1000, bits: 8 };
  return { code: 0, value: 0, bits: 0 };
}

const sampleSizeCodes = new Map([
  [8, 1],
  [12, 2],
  [16, 4],
  [20, 5],
  [24, 6],
  [32, 7],
]);

/** A channel's coding: its subframe's bits, and how to write them. */
type Coding = { bits: number; write: (out: BitWriter) => void };

/** Signed residuals folded to unsigned: 0, -1, 1, -2, … → 0, 1, 2, 3, … */
const fold = (residual: number) => (residual >= 0 ? residual * 2 : -residual * 2 - 1);

function residualOf(samples: Int32Array, order: number): Int32Array {
  const residual = new Int32Array(samples.length - order);
  for (let i = order; i < samples.length; i++) {
    const x = samples[i]!;
    let r: number;
    if (order === 0) r = x;
    else if (order === 1) r = x - samples[i - 1]!;
    else if (order === 2) r = x - 2 * samples[i - 1]! + samples[i - 2]!;
    else if (order === 3) r = x - 3 * samples[i - 1]! + 3 * samples[i - 2]! - samples[i - 3]!;
    else r = x - 4 * samples[i - 1]! + 6 * samples[i - 2]! - 4 * samples[i - 3]! + samples[i - 4]!;
    residual[i - order] = r;
  }
  return residual;
}

/** The cheapest Rice parameter for values summing to `sum` over `count`, and its bits (estimated for choosing, exact enough). */
function riceParameter(sum: number, count: number): { parameter: number; bits: number } {
  if (count === 0) return { parameter: 0, bits: 0 };
  let best = { parameter: 0, bits: Infinity };
  const mean = sum / count;
  const guess = mean < 1 ? 0 : Math.floor(Math.log2(mean));
  for (let parameter = Math.max(guess - 1, 0); parameter <= Math.min(guess + 1, 30); parameter++) {
    const bits = count * (parameter + 1) + Math.floor(sum / 2 ** parameter);
    if (bits < best.bits) best = { parameter, bits };
  }
  return best;
}

/** The fixed predictor `order`'s subframe, its residual partitioned as cheaply as the estimate finds. */
function fixedCoding(samples: Int32Array, order: number, sampleBits: number): Coding {
  const residual = residualOf(samples, order);
  const folded = Uint32Array.from(residual, fold);
  const size = samples.length;
  // Running sums, so each partitioning's sums are read off them rather than summed again.
  const running = new Float64Array(folded.length + 1);
  for (let i = 0; i < folded.length; i++) running[i + 1] = running[i]! + folded[i]!;
  let best: { order: number; parameters: number[]; bits: number } | null = null;
  for (let partitionOrder = 0; partitionOrder <= maxPartitionOrder; partitionOrder++) {
    const partitions = 1 << partitionOrder;
    if (size % partitions !== 0 || size >> partitionOrder <= order) break;
    const parameters: number[] = [];
    let bits = 0;
    for (let partition = 0, at = 0; partition < partitions; partition++) {
      const count = (size >> partitionOrder) - (partition === 0 ? order : 0);
      const sum = running[at + count]! - running[at]!;
      at += count;
      const chosen = riceParameter(sum, count);
      parameters.push(chosen.parameter);
      bits += chosen.bits;
    }
    const wide = parameters.some((parameter) => parameter > 14);
    bits += partitions * (wide ? 5 : 4);
    if (!best || bits < best.bits) best = { order: partitionOrder, parameters, bits };
  }
  const { order: partitionOrder, parameters } = best!;
  const wide = parameters.some((parameter) => parameter > 14);
  // The exact size: header, warm-up samples, the coding method and partition order, each partition.
  let bits = 8 + order * sampleBits + 2 + 4 + parameters.length * (wide ? 5 : 4);
  for (let partition = 0, at = 0; partition < parameters.length; partition++) {
    const count = (size >> partitionOrder) - (partition === 0 ? order : 0);
    const parameter = parameters[partition]!;
    for (let i = at; i < at + count; i++) bits += (folded[i]! >>> parameter) + 1 + parameter;
    at += count;
  }
  return {
    bits,
    write(out) {
      out.write(0, 1);
      out.write(0b001000 | order, 6);
      out.write(0, 1);
      for (let i = 0; i < order; i++) out.write(samples[i]!, sampleBits);
      out.write(wide ? 1 : 0, 2);
      out.write(partitionOrder, 4);
      for (let partition = 0, at = 0; partition < parameters.length; partition++) {
        const count = (size >> partitionOrder) - (partition === 0 ? order : 0);
        const parameter = parameters[partition]!;
        out.write(parameter, wide ? 5 : 4);
        for (let i = at; i < at + count; i++) {
          const value = folded[i]!;
          out.unary(value >>> parameter);
          out.write(value, parameter);
        }
        at += count;
      }
    },
  };
}

/** A channel's cheapest subframe: constant (silence), a fixed predictor, or the samples verbatim. */
function channelCoding(samples: Int32Array, sampleBits: number): Coding {
  if (samples.every((sample) => sample === samples[0])) {
    return {
      bits: 8 + sampleBits,
      write(out) {
        out.write(0, 8);
        out.write(samples[0]!, sampleBits);
      },
    };
  }
  // The predictor whose residual is smallest in magnitude (each order's residual is the difference of the
  // one below it); only it is partitioned and costed exactly.
  const sums = [0, 0, 0, 0, 0];
  if (samples.length > 4) {
    let e1 = samples[3]! - samples[2]!;
    let e2 = e1 - (samples[2]! - samples[1]!);
    let e3 = e2 - (samples[2]! - 2 * samples[1]! + samples[0]!);
    for (let i = 4; i < samples.length; i++) {
      const e0 = samples[i]!;
      const n1 = e0 - samples[i - 1]!;
      const n2 = n1 - e1;
      const n3 = n2 - e2;
      const n4 = n3 - e3;
      sums[0]! += Math.abs(e0);
      sums[1]! += Math.abs(n1);
      sums[2]! += Math.abs(n2);
      sums[3]! += Math.abs(n3);
      sums[4]! += Math.abs(n4);
      [e1, e2, e3] = [n1, n2, n3];
    }
  }
  const bestOrder = samples.length > 4 ? sums.indexOf(Math.min(...sums)) : 0;
  const fixed = fixedCoding(samples, bestOrder, sampleBits);
  const verbatimBits = 8 + samples.length * sampleBits;
  if (fixed.bits < verbatimBits) return fixed;
  return {
    bits: verbatimBits,
    write(out) {
      out.write(0b00000010, 8);
      for (const sample of samples) out.write(sample, sampleBits);
    },
  };
}

/** A frame number in FLAC's UTF-8-like coding: a lead byte, then six bits in each byte that follows. */
function frameNumberBytes(number: number): number[] {
  if (number < 0x80) return [number];
  const following = number < 0x800 ? 1 : number < 0x10000 ? 2 : number < 0x200000 ? 3 : number < 0x4000000 ? 4 : 5;
  const bytes: number[] = [];
  for (let i = 0; i < following; i++) {
    bytes.unshift(0x80 | (number & 0x3f));
    number = Math.floor(number / 64);
  }
  return [((0xff00 >> (following + 1)) & 0xff) | number, ...bytes];
}

/**
 * A FLAC file made as its samples are read, a Float32Array a channel in [-1, 1): `start` gives its metadata,
 * each `push` the frames its samples complete, `finish` the last; nothing is held but one block. STREAMINFO
 * comes first, before any frame, so it names the sample count the master declares (its WAV header) and
 * leaves the frame sizes unknown (0, as RFC 9639 allows); a master that ends short of its count is made up
 * to it with silence, so the count holds.
 */
export class FlacEncoder {
  private readonly buffered: Int32Array[];
  private bufferedLength = 0;
  private frameCount = 0;
  private totalSamples = 0;
  private readonly digest = new Md5();
  private readonly md5: Uint8Array | null;
  private readonly makesFrames: boolean;

  /**
   * `bitsPerSample`: 8, 16 or 24 (a master of 32 bits is written at 24). One or two channels.
   * `declaredSamples`: how many sample frames the master says it holds, 0 when unknown.
   * `md5`: the audio's MD5 for STREAMINFO, as a first reading of the master found it (`audioMd5`), which
   * `flac -t` checks; `makesFrames: false` is that first reading, which only digests the samples.
   */
  constructor(
    private readonly channels: number,
    private readonly sampleRate: number,
    private readonly bitsPerSample: number,
    private readonly declaredSamples: number,
    { md5 = null, makesFrames = true }: { md5?: Uint8Array | null; makesFrames?: boolean } = {},
  ) {
    this.buffered = Array.from({ length: channels }, () => new Int32Array(blockSize));
    this.md5 = md5;
    this.makesFrames = makesFrames;
  }

  /** The MD5 of the audio pushed so far, as FLAC defines it (its samples interleaved, little-endian, each in whole bytes). */
  audioMd5(): Uint8Array {
    return this.digest.digest();
  }

  /** The file's start: "fLaC", STREAMINFO, then the tags and the cover (if any). */
  start(tags: DownloadTags | null): Uint8Array {
    const blocks: [number, Uint8Array][] = [[0, this.streamInfo()]];
    if (tags) blocks.push([4, commentBlock(vorbisComments(tags))]);
    if (tags?.cover) blocks.push([6, pictureBlock(tags.cover)]);
    const parts: Uint8Array[] = [new TextEncoder().encode("fLaC")];
    blocks.forEach(([type, body], index) => {
      const header = new Uint8Array(4);
      header[0] = (index === blocks.length - 1 ? 0x80 : 0) | type;
      header[1] = body.length >> 16;
      header[2] = (body.length >> 8) & 0xff;
      header[3] = body.length & 0xff;
      parts.push(header, body);
    });
    return concat(...parts);
  }

  /** The frames these samples complete. */
  push(channels: Float32Array[]): Uint8Array[] {
    const scale = 2 ** (this.bitsPerSample - 1);
    const length = channels[0]!.length;
    const frames: Uint8Array[] = [];
    for (let start = 0; start < length;) {
      const take = Math.min(blockSize - this.bufferedLength, length - start);
      for (let channel = 0; channel < this.channels; channel++) {
        const from = channels[channel]!;
        const to = this.buffered[channel]!;
        for (let i = 0; i < take; i++) {
          const value = Math.round(from[start + i]! * scale);
          to[this.bufferedLength + i] = value >= scale ? scale - 1 : value < -scale ? -scale : value;
        }
      }
      this.bufferedLength += take;
      start += take;
      if (this.bufferedLength === blockSize) frames.push(this.flush());
    }
    return frames;
  }

  /** The last frames: what is buffered, and the silence that makes up a master that ended short. */
  finish(): Uint8Array[] {
    const frames: Uint8Array[] = [];
    const silence = new Float32Array(blockSize);
    for (let missing = this.declaredSamples - this.totalSamples - this.bufferedLength; missing > 0; missing -= blockSize) {
      frames.push(...this.push(Array.from({ length: this.channels }, () => silence.subarray(0, Math.min(missing, blockSize)))));
    }
    if (this.bufferedLength > 0) frames.push(this.flush());
    return frames;
  }

  private flush(): Uint8Array {
    const size = this.bufferedLength;
    const blocks = this.buffered.map((samples) => samples.slice(0, size));
    this.bufferedLength = 0;
    const bits = this.bitsPerSample;
    this.digestBlock(blocks, size);
    if (!this.makesFrames) {
      this.frameCount += 1;
      this.totalSamples += size;
      return new Uint8Array(0);
    }
    let assignment = this.channels - 1;
    let codings: Coding[];
    if (this.channels === 2) {
      const [left, right] = blocks as [Int32Array, Int32Array];
      const side = left.map((value, i) => value - right[i]!);
      const mid = left.map((value, i) => (value + right[i]!) >> 1);
      const l = channelCoding(left, bits);
      const r = channelCoding(right, bits);
      const s = channelCoding(side, bits + 1);
      const m = channelCoding(mid, bits);
      const choices: [number, Coding[]][] = [
        [1, [l, r]],
        [8, [l, s]],
        [9, [s, r]],
        [10, [m, s]],
      ];
      [assignment, codings] = choices.reduce((best, choice) =>
        choice[1][0]!.bits + choice[1][1]!.bits < best[1][0]!.bits + best[1][1]!.bits ? choice : best,
      );
    } else {
      codings = blocks.map((samples) => channelCoding(samples, bits));
    }
    const subframeBits = codings.reduce((sum, coding) => sum + coding.bits, 0);
    const out = new BitWriter(Math.ceil(subframeBits / 8) + 32);
    const rate = frameSampleRate(this.sampleRate);
    const blockCode = size === blockSize ? 12 : 7;
    out.write(0xfff8, 16);
    out.write(blockCode, 4);
    out.write(rate.code, 4);
    out.write(assignment, 4);
    out.write(sampleSizeCodes.get(bits) ?? 0, 3);
    out.write(0, 1);
    for (const byte of frameNumberBytes(this.frameCount)) out.write(byte, 8);
    if (blockCode === 7) out.write(size - 1, 16);
    out.write(rate.value, rate.bits);
    out.write(crc8(out.bytes.subarray(0, out.length)), 8);
    for (const coding of codings) coding.write(out);
    out.align();
    out.write(crc16(out.bytes.subarray(0, out.length)), 16);
    this.frameCount += 1;
    this.totalSamples += size;
    return out.bytes.slice(0, out.length);
  }

  private digestBlock(blocks: Int32Array[], size: number): void {
    const width = Math.ceil(this.bitsPerSample / 8);
    const bytes = new Uint8Array(size * this.channels * width);
    let at = 0;
    for (let i = 0; i < size; i++) {
      for (const block of blocks) {
        const value = block[i]!;
        for (let byte = 0; byte < width; byte++) bytes[at++] = (value >> (8 * byte)) & 0xff;
      }
    }
    this.digest.update(bytes);
  }

  private streamInfo(): Uint8Array {
    const out = new BitWriter(34);
    out.write(blockSize, 16);
    out.write(blockSize, 16);
    // The smallest and largest frame: unknown (0) until they are made, and they come after.
    out.write(0, 24);
    out.write(0, 24);
    out.write(this.sampleRate, 20);
    out.write(this.channels - 1, 3);
    out.write(this.bitsPerSample - 1, 5);
    // 36 bits of total samples: the top four, then the rest.
    out.write(Math.floor(this.declaredSamples / 2 ** 32), 4);
    out.write(this.declaredSamples >>> 0, 32);
    // The audio's MD5, where a first reading found it (zero, which the format allows, where not).
    const info = new Uint8Array(34);
    info.set(out.bytes.subarray(0, 18));
    if (this.md5) info.set(this.md5, 18);
    return info;
  }
}

function commentBlock(comments: [string, string][]): Uint8Array {
  const encoder = new TextEncoder();
  const vendor = encoder.encode("Crate");
  const fields = comments.map(([name, value]) => encoder.encode(`${name}=${value}`));
  const body = new Uint8Array(4 + vendor.length + 4 + fields.reduce((sum, field) => sum + 4 + field.length, 0));
  const view = new DataView(body.buffer);
  let at = 0;
  const put = (bytes: Uint8Array) => {
    view.setUint32(at, bytes.length, true);
    body.set(bytes, at + 4);
    at += 4 + bytes.length;
  };
  put(vendor);
  view.setUint32(at, fields.length, true);
  at += 4;
  fields.forEach(put);
  return body;
}

/** A PICTURE block: the front cover. */
function pictureBlock({ type, data, width, height }: CoverArt): Uint8Array {
  const mime = new TextEncoder().encode(type);
  const body = new Uint8Array(32 + mime.length + data.length);
  const view = new DataView(body.buffer);
  view.setUint32(0, 3);
  view.setUint32(4, mime.length);
  body.set(mime, 8);
  let at = 8 + mime.length;
  view.setUint32(at, 0); // no description
  view.setUint32(at + 4, width);
  view.setUint32(at + 8, height);
  view.setUint32(at + 12, 24); // colour depth
  view.setUint32(at + 16, 0); // not indexed
  view.setUint32(at + 20, data.length);
  at += 24;
  body.set(data, at);
  return body;
}
