// What the upload form and the Media Manager need once a file is chosen, and never before: the resumable
// upload client, the waveform reader and the artwork rendition. One module, loaded on the first file.
export { readWaveform } from "./audio-waveform";
export { smallRendition } from "./artwork-rendition";
export { startResumableUpload } from "./resumable-upload";
