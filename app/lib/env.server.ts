import type { RouterContextProvider } from "react-router";
import { cloudflareContext } from "./context.server";
import * as v from "valibot";

/**
 * The Worker's variables, checked once per isolate. Only the project URL and the public anon key: the
 * service-role key never reaches the Worker.
 */
const EnvSchema = v.object({
  SUPABASE_URL: v.pipe(v.string("SUPABASE_URL is not set"), v.url("SUPABASE_URL must be a URL")),
  SUPABASE_ANON_KEY: v.pipe(v.string("SUPABASE_ANON_KEY is not set"), v.minLength(1, "SUPABASE_ANON_KEY is empty")),
});

export type AppEnv = v.InferOutput<typeof EnvSchema>;

let checked: AppEnv | undefined;

export function appEnv(env: unknown): AppEnv {
  checked ??= v.parse(EnvSchema, env);
  return checked;
}

/** The checked variables for this request's Worker. */
export function envFrom(context: Readonly<RouterContextProvider>): AppEnv {
  return appEnv(context.get(cloudflareContext).env);
}
