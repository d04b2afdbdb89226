import { useId } from "react";
import { Form } from "react-router";
import { CheckboxField, FormAlert, SubmitButton } from "~/components/form-controls";
import { NewPasswordFields } from "~/components/account-fields";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldError } from "~/components/ui/field";
import { formFields, type FormReply } from "~/lib/forms/forms";
import type { EmailSettings } from "~/lib/schemas/auth";

/**
 * The account's email, password and sessions, each a form of its own that works without JavaScript. A
 * reply carries the intent of the form that sent it, so its messages show beside that form only.
 */
export function AccountSettings({
  email,
  pendingEmail,
  emailConfirmed,
  reply,
  path,
}: {
  email: string;
  pendingEmail: string | null;
  emailConfirmed: boolean;
  reply: FormReply | undefined;
  path: string;
}) {
  const about = (intent: string) => formFields(reply?.values.intent === intent ? reply : undefined);
  const emailForm = about("email");
  const passwordForm = about("password");
  const everywhere = about("sign-out-everywhere");
  return (
    <div className="grid max-w-2xl gap-6">
      <Card>
        <h2 className="text-lg font-semibold">Email address</h2>
        <p className="mt-1 text-sm text-ink-muted">
          You sign in with <strong className="text-ink">{email}</strong>.
        </p>
        {emailConfirmed && !pendingEmail ? (
          <p role="status" className="mt-3 text-sm text-success">
            Your email address is confirmed: you now sign in with {email}.
          </p>
        ) : null}
        {pendingEmail ? (
          <p role="status" className="mt-3 rounded-xl border border-stage-600 px-4 py-3 text-sm text-ink-muted">
            Waiting for confirmation: your email changes to <strong className="text-ink">{pendingEmail}</strong> once you have followed the
            links we sent to both addresses.
          </p>
        ) : null}
        <Form method="post" action={path} noValidate className="mt-4 grid gap-4">
          <input type="hidden" name="intent" value="email" />
          <FormAlert>{emailForm.formError}</FormAlert>
          <FormAlert tone="success">{emailForm.notice}</FormAlert>
          <Field
            label="New email address"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={emailForm.text("email")}
            error={emailForm.error("email")}
          />
          <div className="max-w-xs">
            <SubmitButton action={path} pendingLabel="Sending links...">
              Change email
            </SubmitButton>
          </div>
        </Form>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">Password</h2>
        <Form method="post" action={path} noValidate className="mt-4 grid gap-4">
          <input type="hidden" name="intent" value="password" />
          <FormAlert>{passwordForm.formError}</FormAlert>
          <FormAlert tone="success">{passwordForm.notice}</FormAlert>
          <Field
            label="Current password"
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            error={passwordForm.error("currentPassword")}
          />
          <NewPasswordFields form={passwordForm} label="New password" confirmLabel="Confirm new password" />
          <div className="max-w-xs">
            <SubmitButton action={path} pendingLabel="Saving...">
              Change password
            </SubmitButton>
          </div>
        </Form>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">Signed-in devices</h2>
        <p className="mt-1 text-sm text-ink-muted">
          Lost a phone, or signed in on a shared computer? This signs you out on every device, this one included.
        </p>
        <Form method="post" action={path} className="mt-4">
          <FormAlert>{everywhere.formError}</FormAlert>
          <Button type="submit" name="intent" value="sign-out-everywhere" variant="secondary">
            Sign out everywhere
          </Button>
        </Form>
      </Card>
    </div>
  );
}

/**
 * Which emails come: release mail from the artists the user follows or bought from (on or off, each at once
 * or in a weekly digest), and for an artist their "you sold" mail. Receipts and account mail always come.
 */
export function EmailSettingsForm({
  settings,
  isArtist,
  reply,
  path,
}: {
  settings: EmailSettings;
  isArtist: boolean;
  reply: FormReply | undefined;
  path: string;
}) {
  const form = formFields(reply?.values.intent === "emails" ? reply : undefined);
  const id = useId();
  return (
    <Card>
      <h2 className="text-lg font-semibold">Emails</h2>
      <p className="mt-1 text-sm text-ink-muted">Receipts and messages about your account always come.</p>
      <Form method="post" action={path} className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="emails" />
        <FormAlert>{form.formError}</FormAlert>
        <FormAlert tone="success">{form.notice}</FormAlert>
        <CheckboxField
          name="releaseEmails"
          label="New releases from artists I follow or bought from"
          defaultChecked={settings.release_emails}
        />
        <fieldset className="grid gap-2" aria-describedby={form.error("releaseDigest") ? `${id}-error` : undefined}>
          <legend className="mb-1 text-sm font-semibold text-ink">Release emails come</legend>
          {(
            [
              ["immediate", "On the day (several in one hour come as one email)"],
              ["weekly", "As a weekly digest"],
            ] as const
          ).map(([value, label]) => (
            <div key={value} className="flex items-start gap-3">
              <input
                id={`${id}-${value}`}
                type="radio"
                name="releaseDigest"
                value={value}
                defaultChecked={settings.release_digest === value}
                className="mt-0.5 size-5 shrink-0 accent-accent"
              />
              <label htmlFor={`${id}-${value}`} className="text-sm text-ink-muted">
                {label}
              </label>
            </div>
          ))}
          <FieldError id={`${id}-error`}>{form.error("releaseDigest")}</FieldError>
        </fieldset>
        {isArtist ? <CheckboxField name="saleEmails" label="An email for each sale I make" defaultChecked={settings.sale_emails} /> : null}
        <div>
          <Button type="submit" variant="secondary">
            Save email settings
          </Button>
        </div>
      </Form>
    </Card>
  );
}
