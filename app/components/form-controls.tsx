import { useId, type ReactNode } from "react";
import { useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { FieldError } from "~/components/ui/field";
import { cx } from "~/lib/ui/cx";
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
export function SubmitButton({
  children,
  pendingLabel,
  action,
  intent,
}: {
  children: ReactNode;
  pendingLabel: string;
  action: string;
  /** Where forms of one page post to one action: the `intent` of this button's form. */
  intent?: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formAction?.split("?")[0] === action &&
    (intent === undefined || navigation.formData?.get("intent") === intent);
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
