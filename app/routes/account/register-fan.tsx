import { Form, href, useLocation } from "react-router";
import { Captcha } from "~/components/account/captcha";
import { AuthShell } from "~/components/auth-shell";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { GenrePicker, HaveAccountLink, TermsCheckbox, NewPasswordFields } from "~/components/account-fields";
import { Field } from "~/components/ui/field";
import { genres } from "~/lib/constants";
import { captchaTokenFrom } from "~/lib/http/captcha";
import { captchaSiteKey } from "~/lib/http/env.server";
import { formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { redirectSignedIn } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { dashboardPath, safeRedirectPath } from "~/lib/session/redirects";
import { FanSignUpSchema } from "~/lib/schemas/auth";
import { signUp } from "./sign-up.server";
import type { Route } from "./+types/register-fan";

export const meta = () =>
  pageMeta("Create a fan account", "Follow independent artists, keep track of what you play and buy straight from the artists.");

export function loader({ request, context }: Route.LoaderArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"));
  redirectSignedIn(context, (user) => redirectTo ?? dashboardPath(user.role));
  return { captchaSiteKey: captchaSiteKey(context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(FanSignUpSchema, formData, { arrays: ["favoriteGenres"] });
  if (!submission.success) return replyWith(submission.reply, 400);

  const { email, password, username, favoriteGenres } = submission.value;
  const result = await signUp(request, context, {
    email,
    password,
    role: "fan",
    metadata: { username, favorite_genres: favoriteGenres },
    captchaToken: captchaTokenFrom(formData),
    // Back to where sign-up was asked for (a gift's claim link), a path on this site alone.
    redirectTo: safeRedirectPath(new URL(request.url).searchParams.get("redirectTo")),
  });
  return replyWith({ fieldErrors: {}, formError: result.formError, notice: result.notice, values: submission.values }, result.status);
}

export default function FanSignUp({ loaderData, actionData }: Route.ComponentProps) {
  const form = formFields(actionData);
  // The page it was asked from (?redirectTo=), kept through the form's post.
  const action = `${href("/register/fan")}${useLocation().search}`;

  return (
    <AuthShell title="Create your fan account" subtitle="Follow artists, listen, and buy straight from the people who make the music.">
      <FormAlert tone="success">{form.notice}</FormAlert>
      <Form method="post" action={action} noValidate className="grid gap-5">
        <FormAlert>{form.formError}</FormAlert>
        <Field label="Email" {...form.field("email")} type="email" autoComplete="email" required />
        <Field label="Username" {...form.field("username")} autoComplete="username" required />
        <NewPasswordFields form={form} />
        <GenrePicker name="favoriteGenres" legend="Favorite genres (optional)" options={genres} selected={form.list("favoriteGenres")} />
        <TermsCheckbox defaultChecked={form.checked("terms")} error={form.error("terms")} />
        <Captcha siteKey={loaderData.captchaSiteKey} reply={actionData} />
        <SubmitButton action={href("/register/fan")} pendingLabel="Creating Account...">
          Create Account
        </SubmitButton>
      </Form>
      <HaveAccountLink />
    </AuthShell>
  );
}
