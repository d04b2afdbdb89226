// Shared by the Edge Functions and the app (plain TypeScript and valibot, no Deno or Worker APIs): an id
// field as a schema, checked by the one check of an id (uuid.ts).
import * as v from "valibot";
import { isUuid } from "./uuid.ts";

/** An id field of a form or a JSON body, with the message to show when it names nothing. */
export const idSchema = (message = "Invalid id") =>
  v.pipe(
    v.string(),
    v.check((value: string) => isUuid(value), message),
  );
