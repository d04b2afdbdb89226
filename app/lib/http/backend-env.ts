import * as v from "valibot";

/**
 * The variables both Workers need to reach the backend: the project URL, the public anon key, and the
 * marketplace's secret (registered in the database by its hash; see docs/deploying.md), which lets the database
 * take plays, the files a row names and a ban's end from our Workers alone. The service-role key never
 * reaches a Worker. Each Worker checks its own variables with these (`appEnv`; the media Worker's `MediaEnvSchema`).
 */
export const backendVariables = {
  SUPABASE_URL: v.pipe(v.string("SUPABASE_URL is not set"), v.url("SUPABASE_URL must be a URL")),
  SUPABASE_ANON_KEY: v.pipe(v.string("SUPABASE_ANON_KEY is not set"), v.minLength(1, "SUPABASE_ANON_KEY is empty")),
  MARKETPLACE_SECRET: v.pipe(
    v.string("MARKETPLACE_SECRET is not set"),
    v.minLength(32, "MARKETPLACE_SECRET must have at least 32 characters"),
  ),
};

export type BackendEnv = v.InferOutput<v.ObjectSchema<typeof backendVariables, undefined>>;

/** The header that carries the marketplace's secret: to the backend from our Workers, and to the operator's routes from its scripts. */
export const marketplaceSecretHeader = "X-Marketplace-Secret";
