import type { RouterContextProvider } from "react-router";
import { envFrom } from "./env.server";
import { supabaseContext } from "./session.server";

/**
 * Requests to Storage's HTTP API (`/storage/v1…`) as the signed-in user, for what storage-js cannot send:
 * resumable uploads passed on, and Range reads of a file's first bytes. The session is read once (from
 * the cookie, refreshed if close to expiring); null when there is none.
 */
export async function storageRequester(context: Readonly<RouterContextProvider>) {
  const env = envFrom(context);
  const { data } = await context.get(supabaseContext).auth.getSession();
  if (!data.session) return null;
  const authorization = `Bearer ${data.session.access_token}`;
  return (path: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit | null } = {}) =>
    fetch(`${env.SUPABASE_URL}/storage/v1${path}`, {
      method: init.method ?? "GET",
      body: init.body ?? null,
      headers: { ...init.headers, Authorization: authorization, apikey: env.SUPABASE_ANON_KEY },
    });
}

export type StorageRequester = NonNullable<Awaited<ReturnType<typeof storageRequester>>>;
