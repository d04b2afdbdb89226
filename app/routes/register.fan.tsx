import { data, Form } from "react-router";
import { AuthShell } from "~/components/auth-shell";
import { FormAlert, GenrePicker, HaveAccountLink, SubmitButton, TermsCheckbox } from "~/components/form-controls";
import { Field } from "~/components/ui/field";
import { genres } from "~/lib/constants";
import { parseForm, typedValues } from "~/lib/forms";
import { redirectSignedIn } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import { dashboardPath } from "~/lib/redirects";
import { FanSignUpSchema } from "~/lib/schemas/auth";
import { signUp } from "~/lib/sign-up.server";
import type { Route } from "./+types/register.fan";

export const meta = () =>
  pageMeta("Create a fan account", "Follow independent artists, keep track of what you play and buy straight from the artists.");

export function loader({ context }: Route.LoaderArgs) {
  redirectSignedIn(context, (user) => dashboardPath(user.role));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const values = typedValues(formData, ["email", "username", "favoriteGenres", "terms"]);
  const submission = parseForm(FanSignUpSchema, formData, { arrays: ["favoriteGenres"] });
  if (!submission.success) return data({ errors: submission.errors, formError: null, notice: null, values }, { status: 400 });

  const { email, password, username, favoriteGenres } = submission.value;
  const result = await signUp(request, context, { email, password, role: "fan", metadata: { username, favorite_genres: favoriteGenres } });
  return data({ errors: {}, formError: result.formError, notice: result.notice, values }, { status: result.status });
}

export default function FanSignUp({ actionData }: Route.ComponentProps) {
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : "");

  return (
    <AuthShell title="Create your fan account" subtitle="Follow artists, listen, and buy straight from the people who make the music.">
      <FormAlert tone="success">{actionData?.notice}</FormAlert>
      <Form method="post" action="/register/fan" noValidate className="grid gap-5">
        <FormAlert>{actionData?.formError}</FormAlert>
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={text("email")} error={errors.email} />
        <Field label="Username" name="username" autoComplete="username" required defaultValue={text("username")} error={errors.username} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          hint="At least 8 characters."
          error={errors.password}
        />
        <Field
          label="Confirm password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirmPassword}
        />
        <GenrePicker
          name="favoriteGenres"
          legend="Favorite genres (optional)"
          options={genres}
          selected={([] as string[]).concat(values.favoriteGenres ?? [])}
        />
        <TermsCheckbox defaultChecked={values.terms === "on"} error={errors.terms} />
        <SubmitButton action="/register/fan" pendingLabel="Creating Account...">
          Create Account
        </SubmitButton>
      </Form>
      <HaveAccountLink />
    </AuthShell>
  );
}
