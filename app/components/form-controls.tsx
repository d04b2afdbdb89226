import { useId, type ReactNode } from "react";
import { Form, href, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Field, FieldError } from "~/components/ui/field";
import { minimumPasswordLength } from "~/lib/constants";
import type { formFields } from "~/lib/forms";
import { cx } from "~/lib/cx";

/** A form-wide message (e.g. wrong credentials), announced when it appears. */
export function FormAlert({ children, tone = "error" }: { children?: ReactNode; tone?: "error" | "success" }) {
  if (!children) return null;
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={cx(
        "mb-5 rounded-xl border px-4 py-3 text-sm",
        tone === "error" ? "border-danger/40 bg-danger/10 text-danger" : "border-success/40 bg-success/10 text-success",
      )}
    >
      {children}
    </div>
  );
}

/** The submit button: disabled and relabelled while this form's submission is in flight (with JavaScript). */
export function SubmitButton({ children, pendingLabel, action }: { children: ReactNode; pendingLabel: string; action: string }) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formAction?.split("?")[0] === action;
  return (
    <Button type="submit" size="lg" className="w-full" disabled={pending} aria-disabled={pending || undefined}>
      {pending ? pendingLabel : children}
    </Button>
  );
}

export function CheckboxField({
  name,
  label,
  defaultChecked,
  error,
}: {
  name: string;
  label: ReactNode;
  defaultChecked?: boolean;
  error?: string;
}) {
  const id = useId();
  return (
    <div>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          name={name}
          defaultChecked={defaultChecked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="mt-0.5 size-5 shrink-0 accent-accent"
        />
        <label htmlFor={id} className="text-sm text-ink-muted">
          {label}
        </label>
      </div>
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

/** Genres as toggle chips: real checkboxes, so it works without JavaScript and with a keyboard. */
export function GenrePicker({
  name,
  legend,
  options,
  selected = [],
  hint,
}: {
  name: string;
  legend: string;
  options: readonly string[];
  selected?: string[];
  hint?: string;
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-ink">{legend}</legend>
      {hint ? <p className="mb-2 text-sm text-ink-faint">{hint}</p> : null}
      <div className="flex flex-wrap gap-2">
        {options.map((option) => (
          <label key={option} className="cursor-pointer">
            <input type="checkbox" name={name} value={option} defaultChecked={selected.includes(option)} className="peer sr-only" />
            <span className="inline-flex rounded-full border border-stage-600 bg-stage-850 px-3 py-1.5 text-sm text-ink-muted peer-checked:border-accent peer-checked:bg-accent/15 peer-checked:text-ink peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-amber">
              {option}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function TermsCheckbox({ defaultChecked, error }: { defaultChecked?: boolean; error?: string }) {
  return (
    <CheckboxField
      name="terms"
      defaultChecked={defaultChecked}
      error={error}
      label={
        <>
          I agree to the{" "}
          <Link to={href("/terms")} className="text-accent-strong underline">
            Terms of Use
          </Link>{" "}
          and{" "}
          <Link to={href("/privacy")} className="text-accent-strong underline">
            Privacy Policy
          </Link>
        </>
      }
    />
  );
}

export function HaveAccountLink() {
  return (
    <p className="mt-6 text-center text-sm text-ink-muted">
      Already have an account?{" "}
      <Link to={href("/login")} className="font-semibold text-accent-strong underline-offset-4 hover:underline">
        Log in
      </Link>
    </p>
  );
}

/** A new password and its confirmation (sign-up, reset), with the length rule stated. */
export function NewPasswordFields({
  form,
  label = "Password",
  confirmLabel = "Confirm password",
}: {
  form: ReturnType<typeof formFields>;
  label?: string;
  confirmLabel?: string;
}) {
  return (
    <>
      <Field
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={`At least ${minimumPasswordLength} characters.`}
        error={form.error("password")}
      />
      <Field
        label={confirmLabel}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        error={form.error("confirmPassword")}
      />
    </>
  );
}

/**
 * "Delete this {thing}": a form that posts `intent=delete` with a box to tick first, so a slip deletes
 * nothing. Its message (the unticked box, a refusal) stands in it, not in the page's other forms.
 */
export function DeleteSection({
  thing,
  action,
  form,
  children,
  className,
}: {
  thing: string;
  action: string;
  form: ReturnType<typeof formFields>;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cx("border-danger/40", className)}>
      <h2 className="text-xl font-semibold">Delete this {thing}</h2>
      <p className="mt-1 text-sm text-ink-muted">{children}</p>
      <Form method="post" action={action} noValidate className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="delete" />
        <FormAlert>{form.formError}</FormAlert>
        <CheckboxField name="confirm" label={`I understand that deleting this ${thing} cannot be undone.`} error={form.error("confirm")} />
        <div>
          <Button type="submit" variant="danger">
            Delete {thing}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
