import type { User } from "@supabase/supabase-js";
import * as v from "valibot";

export type AccountRole = "artist" | "fan";

/**
 * Who is signed in, as the pages need it. The role the guards check and the name shown come from the
 * profile rows (`account()`); sign-up metadata, which the user may edit (and which keeps the name they
 * signed up with), stands in only where the profile was not read.
 */
export type SessionUser = {
  id: string;
  email: string;
  role: AccountRole | null;
  displayName: string;
  isAdmin: boolean;
  /** The address an email change waits to confirm (a link went to both addresses), if any. */
  pendingEmail: string | null;
};

export const accountRole = (value: unknown): AccountRole | null => (value === "artist" || value === "fan" ? value : null);

/** What `account()` answers: the profile's role and name, or null for an account without a profile. */
const AccountSchema = v.nullable(v.object({ role: v.picklist(["artist", "fan"]), name: v.string() }));
export type Account = { role: AccountRole | null; name: string | null };

/** `account()`'s answer read; anything else (it failed) as no profile. */
export function accountFrom(value: unknown): Account {
  const parsed = v.safeParse(AccountSchema, value);
  return parsed.success && parsed.output ? parsed.output : { role: null, name: null };
}

/**
 * `account`: what `account()` answered: the role the guards check and the profile's name as it is now.
 * Right after signing in or up, where only the sign-up metadata is at hand, it stands in to choose where
 * to go next; the guards there ask the database. An administrator without a profile is "Administrator".
 */
export function toSessionUser(user: User, account?: Account): SessionUser {
  const metadata = user.user_metadata ?? {};
  const isAdmin = user.app_metadata?.role === "admin";
  const role = account ? account.role : accountRole(metadata.role);
  const signedUpAs = role === "artist" ? metadata.artist_name : metadata.username;
  const name = account ? account.name : typeof signedUpAs === "string" ? signedUpAs : null;
  return {
    id: user.id,
    email: user.email ?? "",
    role,
    displayName: name?.trim() ? name : isAdmin ? "Administrator" : ((user.email ?? "").split("@")[0] ?? ""),
    isAdmin,
    pendingEmail: user.new_email || null,
  };
}

/** How a session may have begun from an emailed link (GoTrue's recovery methods in the token's `amr`). */
const recoveryMethods = new Set(["otp", "recovery", "magiclink"]);

const AmrSchema = v.object({ amr: v.optional(v.array(v.object({ method: v.string() })), []) });

/**
 * Whether an access token belongs to a session begun from a reset link. The token is the session's own,
 * already checked with the Auth server this request; only its claims are read here.
 */
export function isRecoverySession(accessToken: string | undefined): boolean {
  const payload = accessToken?.split(".")[1];
  if (!payload) return false;
  try {
    const claims = v.safeParse(AmrSchema, JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))));
    return claims.success && claims.output.amr.some((entry) => recoveryMethods.has(entry.method));
  } catch {
    return false;
  }
}
