// Shared by the Edge Functions and the app (plain TypeScript, no Deno or Worker APIs).

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id in the product (artists, fans, tracks, comments) is a UUID; anything else names nothing. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && uuidPattern.test(value);
}
