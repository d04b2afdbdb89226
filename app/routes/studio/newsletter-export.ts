import * as v from "valibot";
import { readOrThrow } from "~/lib/backend/backend.server";
import { csvResponse, csvTime, csvTimeHeader } from "~/lib/media/csv.server";
import { requireArtist } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/newsletter-export";

const SignupsSchema = v.array(v.object({ email: v.string(), signed_up_at: v.string(), subscribed: v.boolean(), confirmed: v.boolean() }));

/**
 * The artist's newsletter signups as CSV (email, signed up, subscribed: yes, no, or pending until the
 * address confirms), newest first: their own alone, as the database judges.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requireArtist(request, context);
  const signups = readOrThrow(await context.get(supabaseContext).rpc("newsletter_export"), {
    what: "newsletter signups",
    schema: SignupsSchema,
  });
  return csvResponse(
    ["email", csvTimeHeader("signed up"), "subscribed"],
    signups.map((signup) => [signup.email, csvTime(signup.signed_up_at), !signup.confirmed ? "pending" : signup.subscribed ? "yes" : "no"]),
    "Crate newsletter signups.csv",
  );
}
