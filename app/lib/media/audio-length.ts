// How long an uploaded audio file plays, read from its bytes without decoding it: a WAV's header, an MP3's
// first frame (its Xing/Info or VBRI frame count, or its constant bitrate over the file's size), an AAC
// file's first ADTS frames (their mean length over the file's size), an Ogg file's last page (its granule
// position). Uploads longer than `audioFiles.maxSeconds` are refused with this, before they are published;
// the media Worker also stops at that length whatever the bytes claimed (media-jobs.server.ts).
import type { AudioType } from "../../../supabase/functions/_shared/file-types";

/** Reads `length` bytes of the file from `start` (fewer at its end). */
export type ReadBytes = (start: number, length: number) => Promise<Uint8Array>;

/** How much of a file's head and tail is read to find its length (a caller holding the head already may serve it). */
export const audioHeadLength = 64 * 1024;
const tailLength = 64 * 1024;

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

/** Seconds of audio in the file (of `size` bytes), or null when its bytes do not tell. */
export async function audioSeconds(type: AudioType, size: number, read: ReadBytes): Promise<number | null> {
  const head = await read(0, audioHeadLength);
  if (type.mime === "audio/wav") return wavSeconds(head, size);
  if (type.mime === "audio/mpeg") {
    // An ID3v2 tag (a cover, say) comes first: the audio starts after it.
    const tagEnd = id3Length(head);
    const first = tagEnd > 0 ? await read(tagEnd, audioHeadLength) : head;
    return mp3Seconds(first, size - tagEnd);
  }
  if (type.mime === "audio/aac") return adtsSeconds(head, size);
  if (type.mime === "audio/ogg") return oggSeconds(head, await read(Math.max(size - tailLength, 0), tailLength));
  return null;
}

function wavSeconds(bytes: Uint8Array, size: number): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let byteRate = 0;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = ascii(bytes, at, 4);
    const length = view.getUint32(at + 4, true);
    if (id === "fmt " && at + 20 <= bytes.length) byteRate = view.getUint32(at + 16, true);
    if (id === "data") {
      if (!byteRate) return null;
      // A header written before the length was known says 0 or 0xFFFFFFFF: the data runs to the end.
      const data = length === 0 || length === 0xffffffff ? size - at - 8 : Math.min(length, size - at - 8);
      return data / byteRate;
    }
    at += 8 + length + (length % 2);
  }
  return null;
}

function id3Length(bytes: Uint8Array): number {
  if (bytes.length < 10 || ascii(bytes, 0, 3) !== "ID3") return 0;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
}

const mpeg1Layer3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const mpeg2Layer3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const mpegRates = [44100, 48000, 32000];

type Mp3Frame = { length: number; kbps: number; sampleRate: number; samples: number; sideInfo: number };

/** The MPEG audio (layer III) frame whose header starts at `at`, or null. */
function mp3Frame(bytes: Uint8Array, at: number): Mp3Frame | null {
  if (at + 4 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xe0) !== 0xe0) return null;
  const version = (bytes[at + 1]! >> 3) & 3; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
  const layer = (bytes[at + 1]! >> 1) & 3; // 1: layer III
  const bitrateIndex = bytes[at + 2]! >> 4;
  const rateIndex = (bytes[at + 2]! >> 2) & 3;
  if (version === 1 || layer !== 1 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const mpeg1 = version === 3;
  const kbps = (mpeg1 ? mpeg1Layer3 : mpeg2Layer3)[bitrateIndex]!;
  const sampleRate = mpegRates[rateIndex]! / (mpeg1 ? 1 : version === 2 ? 2 : 4);
  const samples = mpeg1 ? 1152 : 576;
  const padding = (bytes[at + 2]! >> 1) & 1;
  const mono = bytes[at + 3]! >> 6 === 3;
  return {
    length: Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + padding,
    kbps,
    sampleRate,
    samples,
    sideInfo: mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17,
  };
}

function mp3Seconds(bytes: Uint8Array, size: number): number | null {
  // The first frame whose successor is where its length says (a lone 0xFF of a cover is no frame).
  let at = 0;
  let frame: Mp3Frame | null = null;
  for (; at + 4 <= bytes.length; at += 1) {
    frame = mp3Frame(bytes, at);
    if (frame && (at + frame.length + 4 > bytes.length || mp3Frame(bytes, at + frame.length))) break;
    frame = null;
  }
  if (!frame) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const xing = at + 4 + frame.sideInfo;
  if (xing + 12 <= bytes.length && ["Xing", "Info"].includes(ascii(bytes, xing, 4)) && view.getUint32(xing + 4) & 1) {
    return (view.getUint32(xing + 8) * frame.samples) / frame.sampleRate;
  }
  const vbri = at + 36;
  if (vbri + 18 <= bytes.length && ascii(bytes, vbri, 4) === "VBRI") {
    return (view.getUint32(vbri + 14) * frame.samples) / frame.sampleRate;
  }
  return ((size - at) * 8) / (frame.kbps * 1000);
}

const adtsRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

function adtsSeconds(bytes: Uint8Array, size: number): number | null {
  let at = 0;
  let frames = 0;
  let sampleRate = 0;
  while (at + 7 <= bytes.length && bytes[at] === 0xff && (bytes[at + 1]! & 0xf6) === 0xf0) {
    sampleRate = adtsRates[(bytes[at + 2]! >> 2) & 0xf] ?? 0;
    const length = ((bytes[at + 3]! & 3) << 11) | (bytes[at + 4]! << 3) | (bytes[at + 5]! >> 5);
    if (!sampleRate || length < 7 || at + length > bytes.length) break;
    frames += (bytes[at + 6]! & 3) + 1;
    at += length;
  }
  if (frames === 0 || !sampleRate) return null;
  // 1,024 samples a raw block, the head's mean frame length over the whole file.
  return ((size / at) * frames * 1024) / sampleRate;
}

function oggSeconds(head: Uint8Array, tail: Uint8Array): number | null {
  // The identification header names the rate: Vorbis its own, Opus always 48 kHz for granules.
  const text = ascii(head, 0, Math.min(head.length, 200));
  const vorbis = text.indexOf("\u0001vorbis");
  const opus = text.includes("OpusHead");
  const headView = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const sampleRate = opus ? 48000 : vorbis >= 0 && vorbis + 16 <= head.length ? headView.getUint32(vorbis + 12, true) : 0;
  const preSkip = opus ? headView.getUint16(text.indexOf("OpusHead") + 10, true) : 0;
  if (!sampleRate) return null;
  // The last page's granule position: the samples before its end.
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  for (let at = tail.length - 27; at >= 0; at -= 1) {
    if (tail[at] === 0x4f && ascii(tail, at, 4) === "OggS") {
      const granule = Number(view.getBigUint64(at + 6, true));
      if (granule > 0 && granule < Number.MAX_SAFE_INTEGER) return Math.max(granule - preSkip, 0) / sampleRate;
    }
  }
  return null;
}
