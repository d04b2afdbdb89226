import { randomUUID } from "node:crypto";
import { type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { type AuthFailure, fail } from "./io.ts";

// Users

const defaultAppMetadata = { provider: "email", providers: ["email"] };

export async function createUser(
  tx: Db,
  stack: Stack,
  fields: { email: string; password: string; userMetadata: Record<string, unknown>; confirmed: boolean },
  failureMessage: string,
): Promise<string> {
  const id = randomUUID();
  // GoTrue copies the email identity's data into the user's metadata
  const identity = { sub: id, email: fields.email, email_verified: fields.confirmed, phone_verified: false };
  try {
    await tx.query(
      `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                               raw_app_meta_data, raw_user_meta_data, created_at, updated_at, is_anonymous)
       values ($1, 'authenticated', 'authenticated', $2, extensions.crypt($3, extensions.gen_salt('bf')),
               case when $4::boolean then now() end, $5::jsonb, $6::jsonb, now(), now(), false)`,
      [
        id,
        fields.email,
        fields.password,
        fields.confirmed,
        JSON.stringify(defaultAppMetadata),
        JSON.stringify({ ...fields.userMetadata, ...identity }),
      ],
    );
    await tx.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
       values ($1, $2, $3::jsonb, 'email', now(), now())`,
      [id, id, JSON.stringify(identity)],
    );
  } catch (error) {
    if ((error as { code?: string }).code === "23505") {
      throw fail(422, "user_already_exists", "User already registered");
    }
    // a trigger rejecting the metadata, say
    throw databaseFailure(stack, failureMessage, error);
  }
  return id;
}

/** GoTrue answers a database error with a fixed message; the cause only goes to the log. */
export function databaseFailure(stack: Stack, message: string, error: unknown): AuthFailure {
  if (stack.config.verbose) console.warn(`auth: ${message}:`, (error as Error).message);
  return fail(500, "unexpected_failure", message);
}

export type UserRow = {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  phone: string | null;
  email_confirmed_at: string | null;
  confirmed_at: string | null;
  recovery_sent_at: string | null;
  /** The address an email change waits to confirm ('' or null when none). */
  email_change: string | null;
  email_change_sent_at: string | null;
  last_sign_in_at: string | null;
  raw_app_meta_data: Record<string, unknown> | null;
  raw_user_meta_data: Record<string, unknown> | null;
  banned_until: string | null;
  banned: boolean;
  identities: unknown[];
  created_at: string;
  updated_at: string;
  is_anonymous: boolean;
};

export const isBanned = "coalesce(banned_until > now(), false)";

export function passwordMatches(param: string): string {
  // crypt() raises on anything but a bcrypt hash (users created without a password)
  return `case when encrypted_password like '$2%'
               then encrypted_password = extensions.crypt(${param}, encrypted_password) else false end`;
}

const userSelect = `
  select u.id, u.aud, u.role, u.email, u.phone, u.email_confirmed_at, u.confirmed_at, u.recovery_sent_at,
         u.email_change, u.email_change_sent_at, u.last_sign_in_at, u.raw_app_meta_data, u.raw_user_meta_data, u.banned_until, u.created_at, u.updated_at,
         u.is_anonymous, ${isBanned} as banned,
         coalesce((select json_agg(json_build_object(
                    'identity_id', i.id, 'id', i.provider_id, 'user_id', i.user_id, 'identity_data', i.identity_data,
                    'provider', i.provider, 'last_sign_in_at', i.last_sign_in_at, 'created_at', i.created_at,
                    'updated_at', i.updated_at, 'email', i.email) order by i.created_at)
                     from auth.identities i where i.user_id = u.id), '[]') as identities
    from auth.users u`;

export async function findUsers(db: Db, where: string, params: unknown[]): Promise<UserRow[]> {
  return (await db.query<UserRow>(`${userSelect} where ${where}`, params)).rows;
}

export async function findUser(db: Db, where: string, params: unknown[]): Promise<UserRow | null> {
  return (await findUsers(db, where, params))[0] ?? null;
}

export async function mustFindUser(db: Db, id: string): Promise<UserRow> {
  const user = await findUser(db, "u.id = $1", [id]);
  if (!user) throw fail(404, "user_not_found", "User not found");
  return user;
}

export async function setMetadata(
  tx: Db,
  userId: string,
  column: "raw_app_meta_data" | "raw_user_meta_data",
  value: object,
): Promise<void> {
  await tx.query(`update auth.users set ${column} = $2::jsonb, updated_at = now() where id = $1`, [userId, JSON.stringify(value)]);
}

/** GoTrue's metadata update: keys are merged, a null value removes its key. */
export function merged(current: Record<string, unknown> | null, updates: Record<string, unknown>): Record<string, unknown> {
  const result = { ...current };
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) delete result[key];
    else result[key] = value;
  }
  return result;
}

/** The user as GoTrue serialises it: optional timestamps are left out when unset. */
export function toUser(user: UserRow): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? "",
    email_confirmed_at: user.email_confirmed_at,
    phone: user.phone ?? "",
    confirmed_at: user.confirmed_at,
    recovery_sent_at: user.recovery_sent_at,
    new_email: user.email_change || null,
    email_change_sent_at: user.email_change_sent_at,
    last_sign_in_at: user.last_sign_in_at,
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    identities: user.identities,
    created_at: user.created_at,
    updated_at: user.updated_at,
    is_anonymous: user.is_anonymous,
    banned_until: user.banned_until,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== null));
}
