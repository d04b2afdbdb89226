// A master's samples, read as its bytes arrive, for each upload format the spec accepts: WAV by our own
// reader, MP3 by mpg123, Ogg by libvorbis or libopus (whichever its first page names) and AAC (ADTS) by
// FAAD2, all WebAssembly from npm. In the
// Worker their WebAssembly is compiled with it (scripts/lib/compiled-decoders.ts); in Node, as published.
import { decoder as aacDecoder } from "@audio/decode-aac";
import { OggVorbisDecoder } from "@wasm-audio-decoders/ogg-vorbis";
import { OggOpusDecoder } from "ogg-opus-decoder";
import { MPEGDecoder } from "mpg123-decoder";
import type { AudioType } from "../../../supabase/functions/_shared/file-types";
import { UnreadableMaster } from "./encoding";
import { WavReader } from "./wav";

/**
 * Samples of one piece: a Float32Array a channel (one or two), at `sampleRate`; a WAV's `bits` a sample,
 * and the sample frames its header says the whole file holds (`frames`).
 */
export type Samples = { channels: Float32Array[]; sampleRate: number; bits?: number; frames?: number };

export type MasterReader = {
  /** The upload format, as the artist knows it (WAV, MP3, OGG, AAC). */
  readonly format: string;
  /** The samples the piece completes (none while a header or a frame is still incomplete). */
  read(piece: Uint8Array): Promise<Samples | null>;
  /** What the decoder still holds once the last piece has passed. */
  end(): Promise<Samples | null>;
  /** True once the audio is read to its end (a WAV's data chunk), so later bytes need not be fetched. */
  readonly finished: boolean;
  close(): void;
};

type Decoded = { channelData: Float32Array[]; sampleRate: number; samplesDecoded?: number };

/** One or two channels (a surround master's first two), or null when nothing was decoded. */
function samplesOf({ channelData, sampleRate }: Decoded): Samples | null {
  const channels = channelData.slice(0, 2);
  if (channels.length === 0 || !channels[0]?.length || !sampleRate) return null;
  return { channels, sampleRate };
}

/** Whether an Ogg file's first page (its first bytes) opens an Opus stream rather than a Vorbis one. */
const isOpus = (firstBytes: Uint8Array) => new TextDecoder("latin1").decode(firstBytes.subarray(0, 80)).includes("OpusHead");

/** The reader of a master of this type; `firstBytes` tell an Ogg file's codec. */
export async function masterReader(type: AudioType, firstBytes: Uint8Array): Promise<MasterReader> {
  if (type.mime === "audio/wav") {
    const wav = new WavReader();
    return {
      format: "WAV",
      read: async (piece) => {
        const channels = wav.push(piece);
        if (!channels || !wav.format) return null;
        return { channels, sampleRate: wav.format.sampleRate, bits: wav.format.bytesPerSample * 8, frames: wav.declaredFrames };
      },
      end: async () => null,
      get finished() {
        return wav.finished;
      },
      close: () => {},
    };
  }
  if (type.mime === "audio/mpeg") {
    const mpeg = new MPEGDecoder();
    await mpeg.ready;
    return {
      format: "MP3",
      read: async (piece) => samplesOf(mpeg.decode(piece)),
      end: async () => null,
      finished: false,
      close: () => mpeg.free(),
    };
  }
  if (type.mime === "audio/ogg" && isOpus(firstBytes)) {
    const opus = new OggOpusDecoder();
    await opus.ready;
    return {
      format: "OGG (Opus)",
      read: async (piece) => samplesOf(await opus.decode(piece)),
      end: async () => samplesOf(await opus.flush()),
      finished: false,
      close: () => opus.free(),
    };
  }
  if (type.mime === "audio/ogg") {
    const vorbis = new OggVorbisDecoder();
    await vorbis.ready;
    return {
      format: "OGG",
      read: async (piece) => samplesOf(await vorbis.decode(piece)),
      end: async () => samplesOf(await vorbis.flush()),
      finished: false,
      close: () => vorbis.free(),
    };
  }
  if (type.mime === "audio/aac") {
    const aac = await aacDecoder();
    return {
      format: "AAC",
      read: async (piece) => samplesOf(aac.decode(piece)),
      end: async () => samplesOf(aac.flush()),
      finished: false,
      close: () => aac.free(),
    };
  }
  throw new UnreadableMaster("the master's format is not one we take");
}
