// Small real files for the upload tests: they pass the checks by their bytes, as an artist's would.
import { encodeWav } from "@crate/local-supabase/media";

/** A 1×1 PNG. */
export const tinyPng = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64"),
);

/** A mono WAV of a tone that swells, so its waveform is not flat. */
export function toneWav(seconds: number, sampleRate = 8000): Uint8Array<ArrayBuffer> {
  const frames = Math.round(seconds * sampleRate);
  return encodeWav(
    Float32Array.from({ length: frames }, (_, frame) => Math.sin(frame / 4) * (frame / frames)),
    sampleRate,
  );
}
