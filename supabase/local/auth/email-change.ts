import { randomBytes, randomUUID } from "node:crypto";
import type { Stack } from "../context.ts";
import type { Db } from "../db.ts";
import { deliver, escape } from "../outbox.ts";
import { fail, digest } from "./io.ts";
import { redirectTarget } from "./redirects.ts";
import { authCodeRedirect } from "./sessions.ts";
import { type UserRow, findUser } from "./users.ts";

// Changing a signed-in user's email as GoTrue does with secure email change on (its default): PUT /user
// with a new address sends a link to the current address and one to the new; the change is made once both
// are followed. Until then the user keeps their address and shows the pending one as `new_email`. With
// PKCE (what @supabase/ssr uses) the last link answers with an auth code for /token?grant_type=pkce.

// GoTrue's MAILER_OTP_EXP default.
const emailChangeLinkSeconds = 86_400;

const halfConfirmedMessage = "Confirmation link accepted. Please proceed to confirm link sent to the other email";

export async function requestEmailChange(
  tx: Db,
  stack: Stack,
  req: Request,
  user: UserRow,
  newEmail: string,
  pkce: { challenge: string; method: string } | null,
): Promise<void> {
  const taken = await findUser(tx, "u.email = $1 and u.id <> $2", [newEmail, user.id]);
  if (taken) throw fail(422, "email_exists", "A user with this email address has already been registered");
  // Only hashes are stored; the links carry the tokens. The prefix tells /verify which flow it is.
  const prefix = pkce ? "pkce_" : "";
  const current = prefix + randomBytes(28).toString("hex");
  const next = prefix + randomBytes(28).toString("hex");
  await tx.query(
    `update auth.users set email_change = $2, email_change_token_current = $3, email_change_token_new = $4,
            email_change_confirm_status = 0, email_change_sent_at = now(), updated_at = now()
      where id = $1`,
    [user.id, newEmail, digest(current), digest(next)],
  );
  if (pkce) {
    await tx.query("delete from auth.flow_state where user_id = $1 and authentication_method = 'email_change'", [user.id]);
    await tx.query(
      `insert into auth.flow_state (user_id, auth_code, code_challenge_method, code_challenge, provider_type, authentication_method)
       values ($1, $2, $3, $4, 'email_change', 'email_change')`,
      [user.id, randomUUID(), pkce.method, pkce.challenge],
    );
  }
  const redirectTo = redirectTarget(stack.config, new URL(req.url).searchParams.get("redirect_to"), req.headers.get("referer"));
  const link = (token: string) =>
    `${stack.config.publicUrl}/auth/v1/verify?${new URLSearchParams({ token, type: "email_change", redirect_to: redirectTo })}`;
  for (const [to, token] of [
    [user.email ?? "", current],
    [newEmail, next],
  ] as const) {
    const url = link(token);
    deliver(stack, {
      to,
      subject: "Confirm Email Change",
      text: `Follow this link to confirm the update of your email from ${user.email} to ${newEmail}:\n${url}\n`,
      html: `<h2>Confirm Change of Email</h2>
<p>Follow this link to confirm the update of your email from ${escape(user.email ?? "")} to ${escape(newEmail)}:</p>
<p><a href="${escape(url)}">Change Email</a></p>`,
      link: url,
    });
  }
}

/**
 * One of the two links followed. The first is acknowledged with GoTrue's message; the second makes the
 * change and answers like a sign-in: an auth code (PKCE) or the session in the fragment (implicit), which
 * `session` makes. Returns where to send the browser.
 */
export async function confirmEmailChange(
  tx: Db,
  token: string,
  redirectTo: string,
  session: (userId: string) => Promise<URLSearchParams>,
): Promise<string> {
  const hash = digest(token);
  const { rows } = await tx.query<{ id: string; other_pending: boolean; banned: boolean }>(
    `update auth.users
        set email_change_token_current = case when email_change_token_current = $1 then '' else email_change_token_current end,
            email_change_token_new = case when email_change_token_new = $1 then '' else email_change_token_new end,
            email_change_confirm_status = 1, updated_at = now()
      where $1 in (email_change_token_current, email_change_token_new)
        and email_change_sent_at > now() - $2 * interval '1 second'
      returning id, (email_change_token_current <> '' or email_change_token_new <> '') as other_pending,
                coalesce(banned_until > now(), false) as banned`,
    [hash, emailChangeLinkSeconds],
  );
  const user = rows[0];
  if (!user) throw fail(403, "otp_expired", "Email link is invalid or has expired");
  if (user.banned) throw fail(403, "user_banned", "User is banned");
  if (user.other_pending) {
    const url = new URL(redirectTo);
    url.hash = new URLSearchParams({ message: halfConfirmedMessage }).toString();
    return url.toString();
  }
  try {
    await tx.query(
      `update auth.users set email = email_change, email_change = '', email_change_confirm_status = 0,
              email_change_sent_at = null, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
        where id = $1`,
      [user.id],
    );
  } catch (error) {
    // Someone signed up with the address in between.
    if ((error as { code?: string }).code === "23505") {
      throw fail(422, "email_exists", "A user with this email address has already been registered");
    }
    throw error;
  }
  await tx.query(
    `update auth.identities i set identity_data = i.identity_data || jsonb_build_object('email', u.email), updated_at = now()
       from auth.users u where u.id = i.user_id and i.user_id = $1 and i.provider = 'email'`,
    [user.id],
  );
  if (token.startsWith("pkce_")) return authCodeRedirect(tx, user.id, "email_change", redirectTo);
  return `${redirectTo}#${await session(user.id)}`;
}
