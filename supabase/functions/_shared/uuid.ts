// Shared by the Edge Functions and the app, with no imports: the one check of an id, whether it arrives
// in an address, a form, a cookie or a function's JSON body. Apart from the id schema (ids.ts), so that
// code which only checks an id (the site's layout, through its links) does not bring valibot with it.

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id in the product (artists, fans, tracks, comments, news, listeners) is a UUID; anything else names nothing. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && uuidPattern.test(value);
}
