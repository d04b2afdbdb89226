import { data } from "react-router";
import { isFromAnotherSite } from "~/lib/http/cross-site.server";
import { supabaseContext, userContext } from "~/lib/session/session.server";
import type { Route } from "./+types/realtime-token";

/**
 * Resource route: the signed-in user's access token, for the browser's Realtime connection (the live
 * Recent Activity feed). The session itself stays in its HttpOnly cookie; this hands out only the
 * short-lived access token (an hour at most, refreshed here from the cookie when it is close to expiring),
 * never cached, and only to pages of this site. The page asks again before it expires.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  if (isFromAnotherSite(request)) throw data("Cross-site requests are not accepted.", { status: 403 });
  if (!context.get(userContext)) throw data("Unauthorized - please log in again", { status: 401 });
  const { data: session } = await context.get(supabaseContext).auth.getSession();
  if (!session.session) throw data("Unauthorized - please log in again", { status: 401 });
  return Response.json(
    { accessToken: session.session.access_token, expiresAt: session.session.expires_at ?? 0 },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}
