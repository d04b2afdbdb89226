// What a player says when a track cannot play or load: the site's player and the embedded one alike
// (spec). The track page's fallback, when no reason is known, is `unknownAudioError` in errors.ts.
export const playerErrorMessages = {
  playback: "Error playing audio file. Please try again later.",
  load: "Unable to load audio file. Please try again later.",
} as const;
