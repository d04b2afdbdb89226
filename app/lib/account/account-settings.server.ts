import { serializeCookieHeader } from "@supabase/ssr";
import { href, redirect, type RouterContextProvider } from "react-router";
import { emailChangeErrorMessage, isWrongCurrentPassword, passwordResetErrorMessage } from "~/lib/backend/errors";
import { formError, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { read, refusedWrite } from "~/lib/backend/backend.server";
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  EmailSettingsRowSchema,
  EmailSettingsSchema,
  type EmailSettings,
} from "~/lib/schemas/auth";
import type { SessionUser } from "~/lib/session/session-user";
import { supabaseContext } from "~/lib/session/session.server";
import { rememberCookieName, sessionCookieOptions } from "~/lib/backend/supabase.server";

// The account settings every signed-in user has (the artist's Artist Profile Settings, the fan's account
// section): change the password (the current one required), change the email (a link to each address),
// sign out on every device, and which emails come (release mail, at once or weekly; an artist's sales). Auth
// checks each again: the current password, both confirmations, the session; the database, whose settings they are.

type Context = Readonly<RouterContextProvider>;

/** Each form of the page posts its intent; the reply names it, so its messages show beside that form. */
type AccountIntent = "email" | "password" | "sign-out-everywhere" | "emails";

/** Until a user chooses, every email comes, each release mail at once. */
const everyEmail: EmailSettings = { release_emails: true, release_digest: "immediate", sale_emails: true };

/** The user's email settings (the row-level security keeps it to their own). */
export async function readEmailSettings(context: Context, userId: string): Promise<EmailSettings> {
  const settings = read(
    await context
      .get(supabaseContext)
      .from("email_settings")
      .select("release_emails, release_digest, sale_emails")
      .eq("user_id", userId)
      .maybeSingle(),
    { what: "email settings", schema: EmailSettingsRowSchema },
  );
  if (settings.status === "failed") throw new Error(settings.message);
  return settings.status === "found" ? settings.data : everyEmail;
}

const withIntent = (reply: FormReply, intent: AccountIntent): FormReply => ({ ...reply, values: { ...reply.values, intent } });

/**
 * The last link of an email change (PKCE) comes back here with a one-time code: exchanging it signs the
 * browser in with the changed account. Either way the page then shows where things stand.
 */
export async function finishEmailChange(request: Request, context: Context, path: string): Promise<void> {
  const code = new URL(request.url).searchParams.get("code");
  if (!code) return;
  const { error } = await context.get(supabaseContext).auth.exchangeCodeForSession(code);
  if (error) console.warn("email change link: the code was refused", error.code, error.message);
  throw redirect(`${path}?email=confirmed`);
}

export async function accountSettingsAction(request: Request, context: Context, user: SessionUser, path: string) {
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const supabase = context.get(supabaseContext);

  if (intent === "sign-out-everywhere") {
    // Every session of this account ends, this one included; their refresh tokens go with them.
    const { error } = await supabase.auth.signOut({ scope: "global" });
    if (error) {
      console.error("signing out everywhere failed", error);
      return replyWith(withIntent(formError("We couldn't sign you out everywhere. Please try again."), intent), 502);
    }
    throw redirect(href("/login"), {
      headers: { "Set-Cookie": serializeCookieHeader(rememberCookieName, "", { ...sessionCookieOptions(request, false), maxAge: 0 }) },
    });
  }

  if (intent === "emails") {
    const submission = parseForm(EmailSettingsSchema, formData);
    if (!submission.success) return replyWith(withIntent(submission.reply, intent), 400);
    const { releaseEmails, releaseDigest, saleEmails } = submission.value;
    const { error } = await supabase.rpc("save_email_settings", {
      release_emails: releaseEmails !== undefined,
      release_digest: releaseDigest,
      sale_emails: saleEmails !== undefined,
    });
    if (error) return refusedWrite(error, { what: "email settings", values: { ...submission.values, intent } });
    return replyWith({ fieldErrors: {}, formError: null, values: { intent }, notice: "Email settings saved." }, 200);
  }

  if (intent === "email") {
    const submission = parseForm(ChangeEmailSchema, formData);
    if (!submission.success) return replyWith(withIntent(submission.reply, intent), 400);
    const { email } = submission.value;
    const refuse = (message: string, status: number) =>
      replyWith({ fieldErrors: { email: message }, formError: null, values: { ...submission.values, intent } }, status);
    if (email.toLowerCase() === user.email.toLowerCase()) return refuse("That is already your email address", 400);
    const { error } = await supabase.auth.updateUser({ email }, { emailRedirectTo: new URL(path, request.url).href });
    if (error) {
      console.warn("email change refused", error.status, error.code);
      return refuse(emailChangeErrorMessage(error), error.status === 429 ? 429 : 400);
    }
    const notice = `We sent a confirmation link to ${user.email} and one to ${email}. Your email changes once you have followed both.`;
    return replyWith({ fieldErrors: {}, formError: null, values: { intent }, notice }, 200);
  }

  const submission = parseForm(ChangePasswordSchema, formData);
  if (!submission.success) return replyWith(withIntent(submission.reply, "password"), 400);
  const { error } = await supabase.auth.updateUser({
    password: submission.value.password,
    current_password: submission.value.currentPassword,
  });
  if (error) {
    console.warn("password change refused", error.status, error.code);
    const fieldErrors = isWrongCurrentPassword(error)
      ? { currentPassword: "Your current password is not right" }
      : { password: passwordResetErrorMessage(error) };
    return replyWith({ fieldErrors, formError: null, values: { intent: "password" } }, error.status === 429 ? 429 : 400);
  }
  // Auth ends the account's other sessions when the password changes; this one stays.
  const notice = "Password changed. Every other device has been signed out.";
  return replyWith({ fieldErrors: {}, formError: null, values: { intent: "password" }, notice }, 200);
}
