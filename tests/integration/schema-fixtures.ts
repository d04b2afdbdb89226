import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import type { Db, LocalStack } from "@crate/local-supabase";
import { signJwt, createUser, type TestUser } from "@crate/local-supabase/testing";

// Users and rows for the schema and RLS tests, written as the superuser, the way an operator or the
// seed would: auth.users rows whose sign-up metadata makes the database create the profiles.

export const createArtist = (db: Db, name = "Test Artist") =>
  createUser(db, { role: "artist", artist_name: name, paypal_email: "pay@example.test", genres: ["Rock"] });

export const createFan = (db: Db, username = "testfan") => createUser(db, { role: "fan", username, favorite_genres: ["Jazz"] });

export const createAdmin = (db: Db) => createUser(db, {}, { provider: "email", providers: ["email"], role: "admin" });

export async function createTrack(
  db: Db,
  artistId: string,
  fields: { title?: string; genre?: string; release_date?: string } = {},
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.tracks (artist_id, title, genre, price, description, release_date, file_url)
     values ($1::uuid, $2, $3, 1.99, 'A track', coalesce($4::date, current_date - 1), $1::text || '/audio.mp3') returning id`,
    [artistId, fields.title ?? "Song", fields.genre ?? "Rock", fields.release_date ?? null],
  );
  return rows[0].id;
}

export const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** supabase-js as the holder of `token` (the anon key for a visitor), keeping no session. */
export function clientWith(local: LocalStack, token: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(local.url, local.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { ...headers, Authorization: `Bearer ${token}` } },
  });
}

/**
 * A created user and their client (sending `headers` too, e.g. the Worker's secret). Their token has no
 * session id: nothing here asks Auth about the session.
 */
export async function signedInClient(
  local: LocalStack,
  user: Promise<TestUser>,
  headers: Record<string, string> = {},
): Promise<{ id: string; client: SupabaseClient }> {
  const {
    id,
    claims: { session_id: _session, ...claims },
  } = await user;
  return { id, client: clientWith(local, signJwt(claims, local.stack.config.jwtSecret), headers) };
}
