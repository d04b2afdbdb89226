// A Vite plugin for the Worker's build: the audio decoders of the rendition queue (mpg123 for MP3, Vorbis
// and Opus for Ogg, FAAD2 for AAC) carry their WebAssembly inside their JavaScript and compile it when first used,
// which Workers refuse ("Wasm code generation disallowed by embedder"). At build time the plugin takes
// each one's WebAssembly out into a file (node_modules/.cache/marketplace/wasm/) and rewrites the package's
// loader to use that file as a module compiled with the Worker (the Cloudflare plugin's CompiledWasm),
// dropping the embedded copy from the bundle. Node (the tests) runs the packages as published.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plugin } from "vite";

const root = join(import.meta.dirname, "..", "..");
const require = createRequire(join(root, "package.json"));
const wasmDir = join(root, "node_modules", ".cache", "marketplace", "wasm");

/** A file of a package, beside its entry point (each of these has its entry at its root). */
const packageFile = (name: string, file: string) => join(dirname(require.resolve(name)), file);

type Decoder = { name: string; loader: string; extract(): Promise<Uint8Array>; rewrite(code: string, wasmFile: string): string };

/** The wasm-audio-decoders family: `EmscriptenWASM.wasm` holds the module, compressed; getModule compiles it. */
function audioDecoder(name: string, pkg: string): Decoder {
  const loader = packageFile(pkg, "src/EmscriptenWasm.js");
  return {
    name,
    loader,
    async extract() {
      const { WASMAudioDecoderCommon } = (await import(pathToFileURL(packageFile("@wasm-audio-decoders/common", "index.js")).href)) as {
        WASMAudioDecoderCommon: { new (): unknown; inflateDynEncodeString(source: string): Promise<Uint8Array> };
      };
      new WASMAudioDecoderCommon();
      const { default: EmscriptenWASM } = (await import(pathToFileURL(loader).href)) as {
        default: { new (common: unknown): unknown; wasm?: string };
      };
      // Its constructor defines the `wasm` property it compiles from.
      new EmscriptenWASM(WASMAudioDecoderCommon);
      if (!EmscriptenWASM.wasm) throw new Error(`${pkg}: its WebAssembly was not found`);
      return WASMAudioDecoderCommon.inflateDynEncodeString(EmscriptenWASM.wasm);
    },
    rewrite(code, wasmFile) {
      const embedded =
        /if \(!EmscriptenWASM\.wasm\) Object\.defineProperty\(EmscriptenWASM, "wasm", \{get: \(\) => String\.raw`[^`]*`\}\);/;
      const compiled = "WASMAudioDecoderCommon.getModule(EmscriptenWASM);";
      if (!embedded.test(code) || !code.includes(compiled)) throw new Error(`${pkg}: its WebAssembly loader is not the one expected`);
      return `import compiledModule from ${JSON.stringify(wasmFile)};\n${code
        .replace(embedded, "")
        .replace(compiled, "Promise.resolve(compiledModule);")}`;
    },
  };
}

/** FAAD2, built by Emscripten: its module takes an `instantiateWasm` hook, used with the compiled module. */
const aacDecoder: Decoder = {
  name: "aac",
  loader: packageFile("@audio/decode-aac", "src/aac.wasm.js"),
  async extract() {
    // Emscripten instantiates the bytes it embeds: they are caught on their way in.
    let bytes: Uint8Array | null = null;
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = ((source: BufferSource | WebAssembly.Module, imports?: WebAssembly.Imports) => {
      if (!(source instanceof WebAssembly.Module)) bytes = new Uint8Array(ArrayBuffer.isView(source) ? source.buffer : source).slice();
      return instantiate(source as BufferSource, imports);
    }) as typeof WebAssembly.instantiate;
    try {
      const { default: createAAC } = (await import(pathToFileURL(this.loader).href)) as { default: () => Promise<unknown> };
      await createAAC();
    } finally {
      WebAssembly.instantiate = instantiate;
    }
    if (!bytes) throw new Error("@audio/decode-aac: its WebAssembly was not seen");
    return bytes;
  },
  rewrite(code, wasmFile) {
    const start = "async function createAAC(moduleArg={}){";
    const embedded = /findWasmBinary\(\)\{return binaryDecode\('(?:[^'\\]|\\.)*'\)\}/;
    if (!code.includes(start) || !embedded.test(code)) throw new Error("@audio/decode-aac: its WebAssembly loader is not the one expected");
    const hook =
      "moduleArg={instantiateWasm(imports,receive){WebAssembly.instantiate(compiledModule,imports).then((instance)=>receive(instance,compiledModule));return{}},...moduleArg};";
    return `import compiledModule from ${JSON.stringify(wasmFile)};\n${code
      .replace(start, start + hook)
      .replace(embedded, 'findWasmBinary(){return""}')}`;
  },
};

const decoders = [
  audioDecoder("mpeg", "mpg123-decoder"),
  audioDecoder("vorbis", "@wasm-audio-decoders/ogg-vorbis"),
  audioDecoder("opus", "opus-decoder"),
  aacDecoder,
];

// The Opus decoder's optional speech enhancement (4 MB of WebAssembly, loaded only when asked for, which
// the rendition queue never does) stays out of the Worker: an import of it finds nothing there.
const speechEnhancement = "@wasm-audio-decoders/opus-ml";
const withoutSpeechEnhancement = "\0marketplace:without-opus-ml";

export function compiledDecoders(): Plugin {
  const wasmFiles = new Map<string, string>();
  return {
    name: "marketplace:compiled-decoders",
    enforce: "pre",
    async buildStart() {
      mkdirSync(wasmDir, { recursive: true });
      for (const decoder of decoders) {
        const file = join(wasmDir, `${decoder.name}.wasm`);
        writeFileSync(file, await decoder.extract());
        wasmFiles.set(decoder.loader, file);
      }
    },
    resolveId(source) {
      return source === speechEnhancement && this.environment?.name !== "client" ? withoutSpeechEnhancement : null;
    },
    load(id) {
      return id === withoutSpeechEnhancement ? "export const OpusMLDecoder = undefined, OpusMLDecoderWebWorker = undefined;" : null;
    },
    transform(code, id) {
      const decoder = decoders.find((candidate) => candidate.loader === id.split("?")[0]);
      if (!decoder || this.environment?.name === "client") return null;
      return { code: decoder.rewrite(code, wasmFiles.get(decoder.loader) ?? join(wasmDir, `${decoder.name}.wasm`)), map: null };
    },
  };
}
