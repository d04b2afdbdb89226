// A WAV file's samples, for its waveform and length when the server has to work them out itself (an
// upload without JavaScript; with it, the browser decodes every format). PCM (8, 16, 24, 32 bit) and
// 32-bit float; anything else is not decoded here.

type DecodedAudio = { samples: Float32Array; durationSeconds: number };

export function decodeWav(bytes: Uint8Array): DecodedAudio | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || text(0) !== "RIFF" || text(8) !== "WAVE") return null;
  let format: { encoding: number; channels: number; sampleRate: number; bits: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = text(at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt " && size >= 16) {
      format = {
        encoding: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === "data" && format) {
      return samplesOf(view, body, Math.min(size, bytes.length - body), format);
    }
    at = body + size + (size % 2);
  }
  return null;
}

function samplesOf(
  view: DataView,
  start: number,
  length: number,
  { encoding, channels, sampleRate, bits }: { encoding: number; channels: number; sampleRate: number; bits: number },
): DecodedAudio | null {
  const bytesPerSample = bits / 8;
  const float = encoding === 3 && bits === 32;
  if ((encoding !== 1 && !float) || ![1, 2, 3, 4].includes(bytesPerSample) || channels < 1 || sampleRate < 1) return null;
  const frame = bytesPerSample * channels;
  const frames = Math.floor(length / frame);
  const samples = new Float32Array(frames);
  // The first channel is enough for a waveform.
  for (let index = 0; index < frames; index++) {
    const at = start + index * frame;
    samples[index] = float ? view.getFloat32(at, true) : pcm(view, at, bytesPerSample);
  }
  return { samples, durationSeconds: frames / sampleRate };
}

function pcm(view: DataView, at: number, bytesPerSample: number): number {
  if (bytesPerSample === 1) return (view.getUint8(at) - 128) / 128;
  if (bytesPerSample === 2) return view.getInt16(at, true) / 32768;
  if (bytesPerSample === 3) return ((view.getUint8(at + 2) << 24) | (view.getUint8(at + 1) << 16) | (view.getUint8(at) << 8)) / 2147483648;
  return view.getInt32(at, true) / 2147483648;
}
