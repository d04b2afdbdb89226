import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "react-router";
import { SomethingWentWrong, errorMessage } from "~/components/error-boundary";
import { badAddressMiddleware } from "~/lib/http/bad-address.server";
import { edgeCacheMiddleware } from "~/lib/cache/edge-cache.server";
import { canonicalUrl } from "~/lib/sharing/meta";
import { useNonce } from "~/lib/http/nonce";
import { read } from "~/lib/backend/backend.server";
import { notificationDays, playlistLimits } from "~/lib/constants";
import { envFrom } from "~/lib/http/env.server";
import { cartCount } from "~/lib/payments/cart.server";
import { paymentsOn } from "~/lib/payments/payments-on.server";
import { PlaylistNamesSchema } from "~/lib/schemas/playlists";
import { sessionMiddleware, shopperFrom, supabaseContext, userContext } from "~/lib/session/session.server";
import type { RootData } from "~/lib/session/use-user";
import { PlayerBar } from "~/components/player/player-bar";
import type { Route } from "./+types/root";
import "./styles/app.css";

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

// A bad address is refused before anything runs (another site's state change already was, by the Worker).
// The cache comes next: a cached anonymous page needs no session work at all.
export const middleware: Route.MiddlewareFunction[] = [badAddressMiddleware, edgeCacheMiddleware, sessionMiddleware];

/**
 * Who is signed in, their playlists (the sidebar and every "Add to playlist" menu list them) and their unread
 * notifications (the header's bell, with where it listens for new ones); the site's origin, for the
 * absolute addresses of canonical links and link previews.
 */
export async function loader({ request, context }: Route.LoaderArgs): Promise<RootData> {
  const user = context.get(userContext);
  const origin = new URL(request.url).origin;
  // The header's cart count, where fans can pay (a visitor's from their cookie, a fan's beside the playlists).
  const cart = paymentsOn(context) ? cartCount(request, shopperFrom(context)) : null;
  if (!user) return { user, playlists: [], origin, cart: await cart, notices: null };
  const supabase = context.get(supabaseContext);
  const [playlists, count, unread] = await Promise.all([
    supabase
      .from("playlists")
      .select("id, name")
      .eq("owner_id", user.id)
      .order("updated_at", { ascending: false })
      .limit(playlistLimits.playlists),
    cart,
    // The bell's count: the user's unread notices of the kept days (the partial index of unread ones).
    supabase
      .from("notifications")
      .select("id", { count: "exact", head: true })
      .eq("user_id", user.id)
      .is("read_at", null)
      .gt("created_at", new Date(Date.now() - notificationDays * 86_400_000).toISOString()),
  ]);
  const named = read(playlists, { what: "user's playlists", schema: PlaylistNamesSchema });
  const env = envFrom(context);
  return {
    user,
    playlists: named.status === "found" ? named.data : [],
    origin,
    cart: count,
    notices: { unread: unread.count ?? 0, backend: { url: env.SUPABASE_URL, anonKey: env.SUPABASE_ANON_KEY } },
  };
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const origin = useRouteLoaderData<RootData>("root")?.origin;
  const { pathname, search } = useLocation();
  const canonical = origin ? canonicalUrl(origin, pathname, search) : null;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#07060b" />
        <Meta />
        {canonical ? (
          <>
            <link rel="canonical" href={canonical} />
            <meta property="og:url" content={canonical} />
          </>
        ) : null}
        <Links />
      </head>
      <body className="min-h-dvh">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Every page, and the player bar that outlives them (its music plays on while the pages change). */
export default function App() {
  return (
    <>
      <Outlet />
      <PlayerBar />
    </>
  );
}

/** Last resort for failures outside any page (the layout itself failed): a bare screen, no shell. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <main id="main" className="px-4">
      <SomethingWentWrong message={errorMessage(error)} />
    </main>
  );
}
