import { Form, href } from "react-router";
import { Captcha } from "~/components/account/captcha";
import { AuthShell } from "~/components/auth-shell";
import { FormAlert, SubmitButton } from "~/components/form-controls";
import { GenrePicker, HaveAccountLink, TermsCheckbox, NewPasswordFields } from "~/components/account-fields";
import { Field, TextareaField } from "~/components/ui/field";
import { artistShare, genres } from "~/lib/constants";
import { captchaTokenFrom } from "~/lib/http/captcha";
import { captchaSiteKey } from "~/lib/http/env.server";
import { formFields, parseForm, replyWith } from "~/lib/forms/forms";
import { readForm } from "~/lib/forms/form-body.server";
import { redirectSignedIn } from "~/lib/session/guards.server";
import { pageMeta } from "~/lib/sharing/meta";
import { dashboardPath } from "~/lib/session/redirects";
import { ArtistSignUpSchema } from "~/lib/schemas/auth";
import { signUp } from "./sign-up.server";
import type { Route } from "./+types/register-artist";

export const meta = () =>
  pageMeta(
    "Create an artist account",
    `Sell your music and merch directly to fans and keep ${artistShare.digitalPercent}% of digital sales.`,
  );

export function loader({ context }: Route.LoaderArgs) {
  redirectSignedIn(context, (user) => dashboardPath(user.role));
  return { captchaSiteKey: captchaSiteKey(context) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  const submission = parseForm(ArtistSignUpSchema, formData, { arrays: ["genres"] });
  if (!submission.success) return replyWith(submission.reply, 400);

  const { email, password, artistName, paypalEmail, bio, genres } = submission.value;
  const result = await signUp(request, context, {
    email,
    password,
    role: "artist",
    metadata: { artist_name: artistName, paypal_email: paypalEmail, bio: bio || null, genres },
    captchaToken: captchaTokenFrom(formData),
  });
  return replyWith({ fieldErrors: {}, formError: result.formError, notice: result.notice, values: submission.values }, result.status);
}

export default function ArtistSignUp({ loaderData, actionData }: Route.ComponentProps) {
  const form = formFields(actionData);

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
      <FormAlert tone="success">{form.notice}</FormAlert>
      <Form method="post" action={href("/register/artist")} noValidate className="grid gap-5">
        <FormAlert>{form.formError}</FormAlert>
        <Field label="Email" {...form.field("email")} type="email" autoComplete="email" required />
        <NewPasswordFields form={form} />
        <Field label="Artist name" {...form.field("artistName")} autoComplete="nickname" required />
        <Field
          label="PayPal email"
          {...form.field("paypalEmail")}
          type="email"
          required
          hint="Where we send your earnings. Only you can see it."
        />
        <TextareaField
          id="bio"
          label={
            <>
              Bio <span className="font-normal text-ink-faint">(optional)</span>
            </>
          }
          {...form.field("bio")}
          rows={4}
          placeholder="Tell fans about your sound"
        />
        <GenrePicker name="genres" legend="Genres (optional)" options={genres} selected={form.list("genres")} />
        <TermsCheckbox defaultChecked={form.checked("terms")} error={form.error("terms")} />
        <Captcha siteKey={loaderData.captchaSiteKey} reply={actionData} />
        <SubmitButton action={href("/register/artist")} pendingLabel="Creating Account...">
          Create Account
        </SubmitButton>
      </Form>
      <HaveAccountLink />
    </AuthShell>
  );
}
