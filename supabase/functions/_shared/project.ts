// What every Edge Function starts from: the project's address and keys as the runtime gives them, the
// clients made of them, and the one shape of a refusal or failure (`{ code }` with its status), which the
// app turns into the spec's messages. Deno only (npm run typecheck checks it with `deno check`).
import { createClient } from "@supabase/supabase-js";

export const supabaseUrl = Deno.env.get("SUPABASE_URL")!;
export const anonKey = Deno.env.get("SUPABASE_ANON_KEY")!;
export const serviceRoleKey = Deno.env.get("SUPABASE_SERVICE_ROLE_KEY")!;
const noSession = { persistSession: false, autoRefreshToken: false };

export const failure = (status: number, code: string) => Response.json({ code }, { status });

/** The service role: only for what the database, asked as the caller first, allowed. */
export const service = createClient(supabaseUrl, serviceRoleKey, { auth: noSession });

/** The database with the anon key and these headers: a caller's token, or the marketplace's secret as it came. */
export function clientWith(headers: Record<string, string> = {}) {
  return createClient(supabaseUrl, anonKey, { auth: noSession, global: { headers } });
}

/** The database as the caller: their JWT forwarded, or the anon key for a visitor. */
export function callerClient(req: Request) {
  return clientWith({ Authorization: req.headers.get("Authorization") ?? `Bearer ${anonKey}` });
}
