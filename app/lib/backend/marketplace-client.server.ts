import { createClient } from "@supabase/supabase-js";
import type { Database } from "./database.types";
import type { BackendEnv } from "../http/backend-env";

/**
 * The database and Edge Functions as the marketplace itself: no user, its registered secret. The page
 * Worker's operator routes and the media Worker's jobs use it; the service-role key never reaches either.
 */
export function marketplaceClient(env: BackendEnv) {
  return createClient<Database>(env.SUPABASE_URL, env.SUPABASE_ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { "X-Marketplace-Secret": env.MARKETPLACE_SECRET } },
  });
}
export type MarketplaceClient = ReturnType<typeof marketplaceClient>;
