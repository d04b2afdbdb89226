// The sign-up, password and profile forms' own fields (kept apart from the controls every form uses, so
// pages with a single small form do not carry them).
import { href, Link } from "react-router";
import { Field } from "~/components/ui/field";
import { minimumPasswordLength } from "~/lib/constants";
import type { formFields } from "~/lib/forms/forms";
import { CheckboxField } from "~/components/form-controls";

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
