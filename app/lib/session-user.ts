import type { User } from "@supabase/supabase-js";

export type AccountRole = "artist" | "fan";

/** Who is signed in, as the pages need it. Role and name come from sign-up metadata and only choose UI. */
export type SessionUser = {
  id: string;
  email: string;
  role: AccountRole | null;
  displayName: string;
  isAdmin: boolean;
  /** The address an email change waits to confirm (a link went to both addresses), if any. */
  pendingEmail: string | null;
};

export function toSessionUser(user: User): SessionUser {
  const metadata = user.user_metadata ?? {};
  const role = metadata.role === "artist" || metadata.role === "fan" ? metadata.role : null;
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
