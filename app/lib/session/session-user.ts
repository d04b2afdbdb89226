import type { User } from "@supabase/supabase-js";
import * as v from "valibot";

export type AccountRole = "artist" | "fan";

/**
 * Who is signed in, as the pages need it. The role the guards check comes from the profile rows
 * (`account_role()`); sign-up metadata, which the user may edit, only names them.
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

/**
 * `role`: the one `account_role()` answered. Right after signing in or up, where only the sign-up
 * metadata is at hand, it stands in to choose where to go next; the guards there ask the database.
 */
export function toSessionUser(user: User, role: AccountRole | null = accountRole(user.user_metadata?.role)): SessionUser {
  const metadata = user.user_metadata ?? {};
  const name = role === "artist" ? metadata.artist_name : metadata.username;
  return {
    id: user.id,
    email: user.email ?? "",
    role,
    displayName: typeof name === "string" && name.trim() ? name : ((user.email ?? "").split("@")[0] ?? ""),
    isAdmin: user.app_metadata?.role === "admin",
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
