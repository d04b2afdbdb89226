// The Info frame of a made MP3 (app/lib/media/mp3-info.ts), read back field by field from frames made here:
// the integration suite's made streams prove a real decoder (mpg123) trims them to the master's samples.
import { describe, expect, it } from "vitest";
import { crc16, infoFrame, lameEncoderDelay, Mp3Frames } from "../../app/lib/media/mp3-info";

/** `count` MPEG-1 Layer III frames at 128 kbps and 44.1 kHz, joint stereo, each padded as LAME pads (every other). */
function frames(count: number): Uint8Array {
  const parts = Array.from({ length: count }, (_, index) => {
    const padded = index % 2;
    const frame = new Uint8Array(417 + padded).fill(index);
    frame.set([0xff, 0xfb, 0x90 | (padded << 1), 0x40]);
    return frame;
  });
  const all = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  parts.reduce((at, part) => (all.set(part, at), at + part.length), 0);
  return all;
}

describe("an MP3's Info frame", () => {
  it("counts the frames as they pass, in pieces of any size, a header split across two included", () => {
    const bytes = frames(10);
    const counted = new Mp3Frames();
    for (let at = 0; at < bytes.length; at += 3) counted.add(bytes.subarray(at, at + 3));
    expect({ count: counted.count, bytes: counted.bytes, musicCrc: counted.musicCrc }).toEqual({
      count: 10,
      bytes: bytes.length,
      musicCrc: crc16(bytes),
    });
    expect(() => new Mp3Frames().add(new Uint8Array([0xff, 0xfb, 0x90, 0x40, 1, 2]).subarray(1))).toThrow(/no frame at byte 0/);
  });

  it("says the frames, the stream's bytes, LAME's delay and the padding, and checks itself", () => {
    const bytes = frames(10);
    const counted = new Mp3Frames();
    counted.add(bytes);
    const samples = 10 * 1152 - lameEncoderDelay - 700;
    const info = infoFrame(counted, samples);
    const view = new DataView(info.buffer);
    // The stream's own header (128 kbps, 44.1 kHz, joint stereo), no padding; the tag after 32 bytes of side information.
    expect([...info.subarray(0, 4)]).toEqual([0xff, 0xfb, 0x90, 0x40]);
    expect(info.length).toBe(417);
    expect(new TextDecoder().decode(info.subarray(36, 40))).toBe("Info");
    expect(view.getUint32(44)).toBe(10);
    expect(view.getUint32(48)).toBe(417 + bytes.length);
    const lame = 36 + 120;
    expect(new TextDecoder().decode(info.subarray(lame, lame + 9))).toBe("LAME3.100");
    const delayAndPadding = (info[lame + 21]! << 16) | (info[lame + 22]! << 8) | info[lame + 23]!;
    expect({ delay: delayAndPadding >> 12, padding: delayAndPadding & 0xfff }).toEqual({ delay: 576, padding: 700 });
    expect(view.getUint16(lame + 32)).toBe(crc16(bytes));
    expect(view.getUint16(lame + 34)).toBe(crc16(info.subarray(0, lame + 34)));
  });

  it("takes a larger bitrate for its own frame where the stream's is too small to hold the tag", () => {
    // MPEG-2.5 at 8 kHz and 8 kbps, mono: 72-byte frames.
    const counted = new Mp3Frames();
    const frame = new Uint8Array(72);
    frame.set([0xff, 0xe3, 0x18, 0xc0]);
    counted.add(frame);
    const info = infoFrame(counted, 100);
    expect(info.length).toBeGreaterThanOrEqual(4 + 9 + 156);
    expect(info[2]! >> 4).toBeGreaterThan(1);
    expect(new TextDecoder().decode(info.subarray(13, 17))).toBe("Info");
  });
});
