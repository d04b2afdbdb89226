import { Form, href, Link, redirect } from "react-router";
import { AuthShell } from "~/components/auth-shell";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { NewPasswordFields } from "~/components/account-fields";
import { LinkButton } from "~/components/ui/button";
import { passwordResetErrorMessage } from "~/lib/backend/errors";
import { formError, formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { pageMeta } from "~/lib/sharing/meta";
import { dashboardPath } from "~/lib/session/redirects";
import { ResetPasswordSchema } from "~/lib/schemas/auth";
import { isRecoverySession, toSessionUser } from "~/lib/session/session-user";
import { supabaseContext, userContext } from "~/lib/session/session.server";
import type { Route } from "./+types/reset-password";

export const meta = () => pageMeta("Choose a new password", "Set a new password for your account.");

const linkProblem = "This password reset link is invalid or has expired. Please ask for a new one.";

/**
 * The emailed link lands here with a one-time `token_hash` (supabase/templates/recovery.html): verifying it
 * signs the user in for recovery, in whatever browser opened the mail, then a clean redirect drops it from
 * the address bar. Without a valid recovery session there is nothing to do.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const tokenHash = url.searchParams.get("token_hash");
  if (tokenHash) {
    const { error } = await context.get(supabaseContext).auth.verifyOtp({ token_hash: tokenHash, type: "recovery" });
    if (error) {
      console.warn("password reset link refused", error.code, error.message);
      return { canReset: false, problem: linkProblem };
    }
    throw redirect(href("/reset-password"));
  }
  if (url.searchParams.has("error") || url.searchParams.has("error_code")) return { canReset: false, problem: linkProblem };
  const canReset = await inRecovery(context);
  return { canReset, problem: canReset ? null : linkProblem };
}

/**
 * Whether this session was started by a reset link: a password may be set here without the current one
 * only then. Signed in the usual way, the account settings ask for the current password.
 */
async function inRecovery(context: Route.LoaderArgs["context"]): Promise<boolean> {
  if (!context.get(userContext)) return false;
  const { data } = await context.get(supabaseContext).auth.getSession();
  return isRecoverySession(data.session?.access_token);
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(ResetPasswordSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  if (!(await inRecovery(context))) return replyWith(formError(linkProblem), 401);

  const { data: updated, error } = await context.get(supabaseContext).auth.updateUser({ password: submission.value.password });
  if (error || !updated.user) {
    console.warn("password update failed", error?.status, error?.code);
    return replyWith(formError(passwordResetErrorMessage(error ?? {})), error?.status === 429 ? 429 : 400);
  }
  throw redirect(dashboardPath(toSessionUser(updated.user).role));
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const form = formFields(actionData);
  if (!loaderData.canReset) {
    return (
      <AuthShell title="Choose a new password">
        <FormAlert>{loaderData.problem}</FormAlert>
        <LinkButton to={href("/forgot-password")} size="lg" className="w-full">
          Send a new link
        </LinkButton>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Choose a new password" subtitle="Pick something you haven't used here before.">
      <Form method="post" action={href("/reset-password")} noValidate className="grid gap-5">
        <FormAlert>{form.formError}</FormAlert>
        <NewPasswordFields form={form} label="New password" confirmLabel="Confirm new password" />
        <SubmitButton action={href("/reset-password")} pendingLabel="Saving...">
          Save new password
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-ink-muted">
        <Link to={href("/login")} className="text-accent-strong underline-offset-4 hover:underline">
          Back to log in
        </Link>
      </p>
    </AuthShell>
  );
}
