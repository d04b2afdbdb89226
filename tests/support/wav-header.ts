// A PCM WAV's 44-byte header alone, saying what the tests need it to (its data's length may be a lie, or
// 0xFFFFFFFF for "unknown"): the audio-length and media-job bound tests, which read headers, not audio.
// Plain TypeScript, shared by the unit suite (no Node types there).

export function wavHeader({
  sampleRate,
  channels,
  bits,
  dataLength,
}: {
  sampleRate: number;
  channels: number;
  bits: number;
  dataLength: number;
}) {
  const bytes = new Uint8Array(44);
  const view = new DataView(bytes.buffer);
  const text = new TextEncoder();
  bytes.set(text.encode("RIFF"), 0);
  bytes.set(text.encode("WAVEfmt "), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, (sampleRate * channels * bits) / 8, true);
  view.setUint16(32, (channels * bits) / 8, true);
  view.setUint16(34, bits, true);
  bytes.set(text.encode("data"), 36);
  view.setUint32(40, dataLength, true);
  return bytes;
}
