import { useId, type ComponentProps, type ReactNode } from "react";
import { cx } from "~/lib/ui/cx";

export const inputClasses =
  "block w-full rounded-lg border border-stage-600 bg-stage-900 px-3 py-2.5 text-ink placeholder:text-ink-faint " +
  "hover:border-ink-faint focus-visible:border-accent aria-invalid:border-danger";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cx(inputClasses, className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cx(inputClasses, "min-h-28", className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<"label">) {
  return <label className={cx("mb-1.5 block text-sm font-medium text-ink", className)} {...props} />;
}

/** The message under a field, announced when it appears and tied to the field by aria-describedby. */
export function FieldError({ id, children }: { id: string; children?: ReactNode }) {
  if (!children) return null;
  return (
    <p id={id} role="alert" className="mt-1.5 text-sm text-danger">
      {children}
    </p>
  );
}

/**
 * A labelled input with its hint and error wired up through aria-describedby, so a screen reader reads the
 * message with the field and `aria-invalid` marks it.
 */
export function Field({
  label,
  hint,
  error,
  className,
  ...inputProps
}: ComponentProps<"input"> & { label: ReactNode; hint?: ReactNode; error?: string | null }) {
  const fallbackId = useId();
  const id = inputProps.id ?? fallbackId;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...inputProps} />
      {hint ? (
        <p id={hintId} className="mt-1.5 text-sm text-ink-faint">
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** A labelled textarea with its hint and message wired up like `Field`. */
export function TextareaField({
  label,
  hint,
  error,
  className,
  ...textareaProps
}: ComponentProps<"textarea"> & { label: ReactNode; hint?: ReactNode; error?: string | null }) {
  const fallbackId = useId();
  const id = textareaProps.id ?? fallbackId;
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <Textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...textareaProps} />
      {hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-sm text-ink-faint">
          {hint}
        </p>
      ) : null}
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

/**
 * A labelled select with its message wired up like `Field`: `options` are its values (each its own label, or
 * a value with a label), `placeholder` an empty first choice.
 */
export function SelectField({
  label,
  options,
  placeholder,
  error,
  className,
  ...selectProps
}: ComponentProps<"select"> & {
  label: ReactNode;
  options: readonly (string | { value: string; label: string })[];
  placeholder?: string;
  error?: string | null;
}) {
  const fallbackId = useId();
  const id = selectProps.id ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div className={className}>
      <Label htmlFor={id}>{label}</Label>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        className={inputClasses}
        {...selectProps}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => {
          const { value, label: shown } = typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {shown}
            </option>
          );
        })}
      </select>
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
