// MD5 (RFC 1321), fed piece by piece: FLAC's STREAMINFO carries the MD5 of its audio, which the made FLAC
// learns by reading its master once before it is made (Web Crypto digests only whole buffers, and the
// samples are never held whole). Not for security: FLAC's own check of its decoded audio.

const shifts = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const constants = Uint32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) >>> 0);

export class Md5 {
  private readonly state = Uint32Array.of(0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476);
  private readonly block = new Uint8Array(64);
  private readonly words = new Uint32Array(16);
  private filled = 0;
  private length = 0;

  update(bytes: Uint8Array): this {
    this.length += bytes.length;
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(64 - this.filled, bytes.length - at);
      this.block.set(bytes.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === 64) {
        this.compress();
        this.filled = 0;
      }
    }
    return this;
  }

  /** The 16 bytes of the digest (the object is spent). */
  digest(): Uint8Array {
    const bits = this.length * 8;
    const padding = new Uint8Array((this.filled < 56 ? 56 : 120) - this.filled + 8);
    padding[0] = 0x80;
    const view = new DataView(padding.buffer);
    view.setUint32(padding.length - 8, bits >>> 0, true);
    view.setUint32(padding.length - 4, Math.floor(bits / 2 ** 32), true);
    this.update(padding);
    const out = new Uint8Array(16);
    const outView = new DataView(out.buffer);
    this.state.forEach((word, index) => outView.setUint32(index * 4, word, true));
    return out;
  }

  private compress(): void {
    const { words, block, state } = this;
    for (let i = 0; i < 16; i += 1) {
      words[i] = block[i * 4]! | (block[i * 4 + 1]! << 8) | (block[i * 4 + 2]! << 16) | (block[i * 4 + 3]! << 24);
    }
    let [a, b, c, d] = [state[0]!, state[1]!, state[2]!, state[3]!];
    for (let i = 0; i < 64; i += 1) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) % 16;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) % 16;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) % 16;
      }
      const rotated = (a + f + constants[i]! + words[g]!) >>> 0;
      const shift = shifts[(i >> 4) * 4 + (i % 4)]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((rotated << shift) | (rotated >>> (32 - shift)))) >>> 0;
    }
    state[0] = (state[0]! + a) >>> 0;
    state[1] = (state[1]! + b) >>> 0;
    state[2] = (state[2]! + c) >>> 0;
    state[3] = (state[3]! + d) >>> 0;
  }
}
