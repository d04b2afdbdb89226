// wavesurfer.js, for the track page's player: browser-only, so the server build carries none of it.
export { default as WaveSurfer } from "wavesurfer.js";
