import { randomBytes } from "node:crypto";
import { json, type Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { type UserRow, createUser, databaseFailure, findUser, findUsers, merged, mustFindUser, setMetadata, toUser } from "./users.ts";
import { fail, isObject, isUuid, positiveInteger, readBody, strongPassword, validEmail } from "./io.ts";
import { setPassword, verifiedClaims } from "./user.ts";

// Admin API (service-role key only)

export async function admin(req: Request, stack: Stack, subpath: string): Promise<Response> {
  const claims = verifiedClaims(req, stack.config);
  if (claims.role !== "service_role" && claims.role !== "supabase_admin") {
    throw fail(403, "not_admin", "User not allowed");
  }
  if (subpath === "/admin/users") {
    if (req.method === "GET") return listUsers(req, stack);
    if (req.method === "POST") return adminCreateUser(req, stack);
    throw fail(404, "not_found", `${req.method} ${subpath} is not supported by the local stack`);
  }
  const id = decodeURIComponent(subpath.slice("/admin/users/".length));
  if (!isUuid(id)) throw fail(400, "validation_failed", "user_id must be an UUID");
  const user = await findUser(stack.db, "u.id = $1", [id]);
  if (!user) throw fail(404, "user_not_found", "User not found");
  if (req.method === "GET") return json(toUser(user));
  if (req.method === "PUT") return adminUpdateUser(req, stack, user);
  if (req.method === "DELETE") {
    // sessions, refresh tokens and identities go with the user (on delete cascade); the browser suite
    // removes the accounts its tests make this way
    await stack.db.query("delete from auth.users where id = $1", [id]).catch((error) => {
      throw databaseFailure(stack, "Database error deleting user", error);
    });
    return json({});
  }
  throw fail(404, "not_found", `${req.method} ${subpath} is not supported by the local stack`);
}

/**
 * Newest first, with GoTrue's X-Total-Count and Link headers (`page` first: the client reads it by position).
 * `filter` is GoTrue's search: a part of the email (as stored, lower case) or of user_metadata.full_name.
 */
async function listUsers(req: Request, stack: Stack): Promise<Response> {
  const params = new URL(req.url).searchParams;
  const page = positiveInteger(params.get("page"), 1);
  const perPage = positiveInteger(params.get("per_page"), 50);
  const filter = params.get("filter") ?? "";
  const pattern = `%${filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matching = `u.deleted_at is null and ($1 = '' or u.email like $2 or u.raw_user_meta_data ->> 'full_name' ilike $2)`;
  const { rows } = await stack.db.query<{ total: number }>(`select count(*)::int as total from auth.users u where ${matching}`, [
    filter,
    pattern,
  ]);
  const total = rows[0].total;
  const users = await findUsers(stack.db, `${matching} order by u.created_at desc, u.id limit $3 offset $4`, [
    filter,
    pattern,
    perPage,
    (page - 1) * perPage,
  ]);
  const lastPage = Math.ceil(total / perPage);
  const pageUrl = (n: number) =>
    `<${stack.config.publicUrl}/auth/v1/admin/users?${new URLSearchParams({ page: String(n), per_page: String(perPage), ...(filter ? { filter } : {}) })}>`;
  const links = [...(page < lastPage ? [`${pageUrl(page + 1)}; rel="next"`] : []), `${pageUrl(lastPage)}; rel="last"`];
  return json({ users: users.map(toUser), aud: "authenticated" }, 200, {
    "x-total-count": String(total),
    link: links.join(", "),
  });
}

async function adminCreateUser(req: Request, stack: Stack): Promise<Response> {
  const body = await readBody(req);
  const email = validEmail(body.email, "Cannot create a user without either an email or phone");
  const bannedFor = banDuration(body.ban_duration);
  const id = await stack.db.transaction(async (tx) => {
    if (await findUser(tx, "u.email = $1", [email])) {
      throw fail(422, "email_exists", "A user with this email address has already been registered");
    }
    const fields = {
      email,
      // GoTrue gives a user created without a password one nobody knows
      password: typeof body.password === "string" && body.password ? body.password : randomBytes(32).toString("base64url"),
      userMetadata: isObject(body.user_metadata) ? body.user_metadata : {},
      confirmed: body.email_confirm === true,
    };
    const id = await createUser(tx, stack, fields, "Database error creating new user");
    await setAdminAttributes(tx, await mustFindUser(tx, id), body, bannedFor);
    return id;
  });
  return json(toUser(await mustFindUser(stack.db, id)));
}

async function adminUpdateUser(req: Request, stack: Stack, user: UserRow): Promise<Response> {
  const body = await readBody(req);
  const bannedFor = banDuration(body.ban_duration);
  const email = typeof body.email === "string" ? validEmail(body.email, "") : null;
  const password = body.password === undefined ? null : strongPassword(body.password);
  await stack.db.transaction(async (tx) => {
    if (body.email_confirm === true) {
      await tx.query("update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1", [user.id]);
    }
    if (password !== null) await setPassword(tx, user.id, password, null);
    if (email !== null && email !== user.email) {
      if (await findUser(tx, "u.email = $1", [email])) {
        throw fail(422, "email_exists", "A user with this email address has already been registered");
      }
      await tx.query("update auth.users set email = $2 where id = $1", [user.id, email]);
      await tx.query(
        `update auth.identities set identity_data = identity_data || jsonb_build_object('email', $2::text)
          where user_id = $1 and provider = 'email'`,
        [user.id, email],
      );
    }
    if (isObject(body.user_metadata)) {
      await setMetadata(tx, user.id, "raw_user_meta_data", merged(user.raw_user_meta_data, body.user_metadata));
    }
    await setAdminAttributes(tx, user, body, bannedFor);
    await tx.query("update auth.users set updated_at = now() where id = $1", [user.id]);
  });
  return json(toUser(await mustFindUser(stack.db, user.id)));
}

/** What an admin may set both when creating and when updating a user. */
async function setAdminAttributes(
  tx: Db,
  user: UserRow,
  body: Record<string, unknown>,
  bannedFor: number | null | undefined,
): Promise<void> {
  if (typeof body.role === "string" && body.role) {
    await tx.query("update auth.users set role = $2 where id = $1", [user.id, body.role]);
  }
  if (isObject(body.app_metadata)) {
    await setMetadata(tx, user.id, "raw_app_meta_data", merged(user.raw_app_meta_data, body.app_metadata));
  }
  if (bannedFor !== undefined) await ban(tx, user.id, bannedFor);
}

/**
 * A ban (null lifts it) also revokes the user's refresh tokens, so no session outlives it; the rows stay,
 * so a refresh attempt answers user_banned as GoTrue does.
 */
async function ban(tx: Db, userId: string, milliseconds: number | null): Promise<void> {
  await tx.query(`update auth.users set banned_until = now() + $2 * interval '1 millisecond' where id = $1`, [userId, milliseconds]);
  if (milliseconds !== null && milliseconds > 0) {
    await tx.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where user_id = $1::text and not revoked`, [userId]);
  }
}

/** `ban_duration` is a Go duration ('876000h', '1h30m'); 'none' lifts the ban. undefined = not asked. */
function banDuration(value: unknown): number | null | undefined {
  if (value === undefined || value === "") return undefined;
  if (value === "none") return null;
  const text = typeof value === "string" ? value : "";
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1e3, m: 6e4, h: 3.6e6 };
  const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|ms|s|m|h)/g;
  const sign = text.startsWith("-") ? -1 : 1;
  const unsigned = text.replace(/^[+-]/, "");
  if (unsigned === "0") return 0;
  if (!unsigned || unsigned.replace(part, "") !== "") {
    throw fail(400, "validation_failed", `invalid format for ban duration: time: invalid duration "${text}"`);
  }
  let total = 0;
  for (const [, amount, unit] of unsigned.matchAll(part)) total += Number(amount) * units[unit];
  return sign * total;
}
