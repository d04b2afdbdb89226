import { data, redirect, type RouterContextProvider } from "react-router";
import { loginPath } from "./redirects";
import type { SessionUser } from "./session-user";
import { userContext } from "./session.server";

/** The signed-in user, or a redirect to login that brings them back here (or to `returnTo`) afterwards. */
export function requireUser(request: Request, context: Readonly<RouterContextProvider>, returnTo?: string): SessionUser {
  const user = context.get(userContext);
  if (!user) throw redirect(loginPath(request, returnTo));
  return user;
}

/** A signed-in artist, or 403. The database's row-level security is what actually protects their data. */
export function requireArtist(request: Request, context: Readonly<RouterContextProvider>): SessionUser {
  const user = requireUser(request, context);
  if (user.role !== "artist") throw data("This page is for artist accounts.", { status: 403 });
  return user;
}

export function requireFan(request: Request, context: Readonly<RouterContextProvider>): SessionUser {
  const user = requireUser(request, context);
  if (user.role !== "fan") throw data("This page is for fan accounts.", { status: 403 });
  return user;
}

/**
 * A signed-in administrator (app_metadata, which only the service role can set), or 403 with the spec's
 * message. Row-level security checks `is_admin()` again on every read and write.
 */
export function requireAdmin(request: Request, context: Readonly<RouterContextProvider>): SessionUser {
  const user = requireUser(request, context);
  if (!user.isAdmin) throw data("You do not have permission to access this page", { status: 403 });
  return user;
}

/** Sign-in and sign-up pages send people who are already signed in on to their dashboard. */
export function redirectSignedIn(context: Readonly<RouterContextProvider>, to: (user: SessionUser) => string) {
  const user = context.get(userContext);
  if (user) throw redirect(to(user));
}
