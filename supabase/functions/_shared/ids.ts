// Shared by the Edge Functions and the app (plain TypeScript and valibot, no Deno or Worker APIs): the one
// check of an id, whether it arrives in an address, a form, a cookie or a function's JSON body.
import * as v from "valibot";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every id in the product (artists, fans, tracks, comments, news, listeners) is a UUID; anything else names nothing. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && uuidPattern.test(value);
}

/** An id field of a form or a JSON body, with the message to show when it names nothing. */
export const idSchema = (message = "Invalid id") =>
  v.pipe(
    v.string(),
    v.check((value: string) => isUuid(value), message),
  );
