import { data, Form } from "react-router";
import { AuthShell } from "~/components/auth-shell";
import { FormAlert, GenrePicker, HaveAccountLink, SubmitButton, TermsCheckbox } from "~/components/form-controls";
import { Field, Label, Textarea } from "~/components/ui/field";
import { artistShare, genres } from "~/lib/constants";
import { parseForm, typedValues } from "~/lib/forms";
import { redirectSignedIn } from "~/lib/guards.server";
import { pageMeta } from "~/lib/meta";
import { dashboardPath } from "~/lib/redirects";
import { ArtistSignUpSchema } from "~/lib/schemas/auth";
import { signUp } from "~/lib/sign-up.server";
import type { Route } from "./+types/register.artist";

export const meta = () =>
  pageMeta(
    "Create an artist account",
    `Sell your music and merch directly to fans and keep ${artistShare.digitalPercent}% of digital sales.`,
  );

export function loader({ context }: Route.LoaderArgs) {
  redirectSignedIn(context, (user) => dashboardPath(user.role));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await request.formData();
  const values = typedValues(formData, ["email", "artistName", "paypalEmail", "bio", "genres", "terms"]);
  const submission = parseForm(ArtistSignUpSchema, formData, { arrays: ["genres"] });
  if (!submission.success) return data({ errors: submission.errors, formError: null, notice: null, values }, { status: 400 });

  const { email, password, artistName, paypalEmail, bio, genres } = submission.value;
  const result = await signUp(request, context, {
    email,
    password,
    role: "artist",
    metadata: { artist_name: artistName, paypal_email: paypalEmail, bio: bio || null, genres },
  });
  return data({ errors: {}, formError: result.formError, notice: result.notice, values }, { status: result.status });
}

export default function ArtistSignUp({ actionData }: Route.ComponentProps) {
  const errors: Record<string, string | undefined> = actionData?.errors ?? {};
  const values = actionData?.values ?? {};
  const text = (name: string) => (typeof values[name] === "string" ? (values[name] as string) : "");
  const selectedGenres = ([] as string[]).concat(values.genres ?? []);

  return (
    <AuthShell
      title="Create your artist account"
      subtitle={
        <>
          Sell your music and merch directly to fans. You keep <strong className="text-ink">{artistShare.digitalPercent}%</strong> of every
          digital sale.
        </>
      }
    >
      <FormAlert tone="success">{actionData?.notice}</FormAlert>
      <Form method="post" action="/register/artist" noValidate className="grid gap-5">
        <FormAlert>{actionData?.formError}</FormAlert>
        <Field label="Email" name="email" type="email" autoComplete="email" required defaultValue={text("email")} error={errors.email} />
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
        <Field
          label="Artist name"
          name="artistName"
          autoComplete="nickname"
          required
          defaultValue={text("artistName")}
          error={errors.artistName}
        />
        <Field
          label="PayPal email"
          name="paypalEmail"
          type="email"
          required
          hint="Where we send your earnings. Only you can see it."
          defaultValue={text("paypalEmail")}
          error={errors.paypalEmail}
        />
        <div>
          <Label htmlFor="bio">
            Bio <span className="font-normal text-ink-faint">(optional)</span>
          </Label>
          <Textarea id="bio" name="bio" rows={4} defaultValue={text("bio")} placeholder="Tell fans about your sound" />
        </div>
        <GenrePicker name="genres" legend="Genres (optional)" options={genres} selected={selectedGenres} />
        <TermsCheckbox defaultChecked={values.terms === "on"} error={errors.terms} />
        <SubmitButton action="/register/artist" pendingLabel="Creating Account...">
          Create Account
        </SubmitButton>
      </Form>
      <HaveAccountLink />
    </AuthShell>
  );
}
