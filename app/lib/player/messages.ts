// What a player says when a track cannot play or load: the site's player and the embedded one alike
// (spec). The track page's own box, when its audio is unavailable, words itself (track/waveform-player.tsx).
export const playerErrorMessages = {
  playback: "Error playing audio file. Please try again later.",
  load: "Unable to load audio file. Please try again later.",
} as const;
