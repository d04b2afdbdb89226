import { Form, href, Link } from "react-router";
import { Captcha } from "~/components/account/captcha";
import { AuthShell } from "~/components/auth-shell";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { Field } from "~/components/ui/field";
import { captchaTokenFrom } from "~/lib/http/captcha";
import { captchaSiteKey } from "~/lib/http/env.server";
import { passwordResetErrorMessage } from "~/lib/backend/errors";
import { formError, formFields, parseForm, replyWith, type FormReply } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { pageMeta } from "~/lib/sharing/meta";
import { ForgotPasswordSchema } from "~/lib/schemas/auth";
import { redirectSignedIn } from "~/lib/session/guards.server";
import { accountSettingsPath, dashboardPath } from "~/lib/session/redirects";
import { supabaseContext } from "~/lib/session/session.server";
import type { Route } from "./+types/forgot-password";

export const meta = () => pageMeta("Forgot your password?", "Get a link to choose a new password for your account.");

const sentNotice = "If an account exists for that email, we've sent a link to reset your password. It works once, for one hour.";

/** A signed-in user changes their password in their account settings (or their dashboard says where). */
export function loader({ context }: Route.LoaderArgs) {
  redirectSignedIn(context, (user) => accountSettingsPath(user.role) ?? dashboardPath(user.role));
  return { captchaSiteKey: captchaSiteKey(context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(ForgotPasswordSchema, formData);
  if (!submission.success) return replyWith(submission.reply, 400);
  const { values } = submission;

  const supabase = context.get(supabaseContext);
  const { error } = await supabase.auth.resetPasswordForEmail(submission.value.email, {
    redirectTo: new URL(href("/reset-password"), request.url).toString(),
    captchaToken: captchaTokenFrom(formData),
  });
  // Whether the email has an account is never revealed: the same notice either way. Only a failed security
  // check, a rate limit or an outage is worth telling.
  if (error?.code === "captcha_failed") return replyWith(formError(passwordResetErrorMessage(error), values), 400);
  if (error && (error.status === 429 || (error.status ?? 0) >= 500)) {
    console.warn("password reset request failed", error.status, error.code);
    return replyWith(formError(passwordResetErrorMessage(error), values), error.status === 429 ? 429 : 503);
  }
  return { fieldErrors: {}, formError: null, notice: sentNotice, values } satisfies FormReply;
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const form = formFields(actionData);
  return (
    <AuthShell title="Forgot your password?" subtitle="Enter the email you signed up with and we'll send you a link to choose a new one.">
      <Form method="post" action={href("/forgot-password")} noValidate className="grid gap-5">
        <FormAlert>{form.formError}</FormAlert>
        <FormAlert tone="success">{form.notice}</FormAlert>
        <Field label="Email" {...form.field("email")} type="email" autoComplete="email" required />
        <Captcha siteKey={loaderData.captchaSiteKey} reply={actionData} />
        <SubmitButton action={href("/forgot-password")} pendingLabel="Sending...">
          Send reset link
        </SubmitButton>
      </Form>
      <p className="mt-6 text-center text-sm text-ink-muted">
        Remembered it?{" "}
        <Link to={href("/login")} className="font-semibold text-accent-strong underline-offset-4 hover:underline">
          Log in
        </Link>
      </p>
    </AuthShell>
  );
}
