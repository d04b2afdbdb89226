// What a player says when a track cannot play: the site's player and the embedded one alike (spec).
export const playerErrorMessages = {
  playback: "Error playing audio file. Please try again later.",
  load: "Unable to load audio file. Please try again later.",
  fallback: "Error loading audio file",
} as const;
