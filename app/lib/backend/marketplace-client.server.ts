import { createClient } from "@supabase/supabase-js";
import type { Database } from "./database.types";
import { marketplaceSecretHeader, type BackendEnv } from "../http/backend-env";

// The database and Edge Functions as the marketplace vouches for them: every request carries the Worker's
// registered secret, by which the database takes plays, orders, refunds, the files a row names and the
// addresses the Worker names from our Workers alone. Its headers are written here and nowhere else.

/** Who a vouched request is for, beside the marketplace: a user's session, the client's address, a guest's order. */
export type Vouched = {
  /** A page's: the signed-in user's access token, asked at each request (null: the anon key, as a visitor). */
  accessToken?: () => Promise<string | null>;
  /** The visitor's address, which the database believes only with the secret (limits per address). */
  address?: string | null;
  /** A guest's order, named only for the holder of its receipt link, which the Worker signed. */
  guestOrder?: string | null;
  /** The fetch the requests go through (the page Worker's counts its round trips). */
  fetch?: typeof fetch;
};

/** The headers of a vouched request to the backend (for requests no client sends: Storage's own HTTP API). */
export function vouchedHeaders(
  env: BackendEnv,
  { address, guestOrder }: Pick<Vouched, "address" | "guestOrder"> = {},
): Record<string, string> {
  return {
    [marketplaceSecretHeader]: env.MARKETPLACE_SECRET,
    ...(address ? { "X-Forwarded-For": address } : {}),
    ...(guestOrder ? { "X-Guest-Order": guestOrder } : {}),
  };
}

/**
 * A backend client the marketplace vouches for. With no user, the marketplace itself: the page Worker's
 * operator routes and the media Worker's jobs. With one, the page Worker's per-request client for what the
 * database takes only through us (`vouchedClient`). The service-role key never reaches either Worker.
 */
export function marketplaceClient(env: BackendEnv, vouched: Vouched = {}) {
  return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    // A page's (as its user, or a visitor) answers at once with its error message rather than retrying an
    // unreachable backend for seconds, as the page's own client does.
    ...(vouched.accessToken ? { accessToken: vouched.accessToken, db: { retry: false } } : {}),
    global: { headers: vouchedHeaders(env, vouched), ...(vouched.fetch ? { fetch: vouched.fetch } : {}) },
  });
}
export type MarketplaceClient = ReturnType<typeof marketplaceClient>;
