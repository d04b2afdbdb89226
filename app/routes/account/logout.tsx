import { serializeCookieHeader } from "@supabase/ssr";
import { redirect } from "react-router";
import { supabaseContext } from "~/lib/session/session.server";
import { rememberCookieName, sessionCookieOptions } from "~/lib/backend/supabase.server";
import type { Route } from "./+types/logout";

/** Sign-out is a POST (a form in the header menu); this device only, then home. */
export async function action({ request, context }: Route.ActionArgs) {
  await context.get(supabaseContext).auth.signOut({ scope: "local" });
  throw redirect("/", {
    headers: { "Set-Cookie": serializeCookieHeader(rememberCookieName, "", { ...sessionCookieOptions(request, false), maxAge: 0 }) },
  });
}

export function loader() {
  throw redirect("/");
}
