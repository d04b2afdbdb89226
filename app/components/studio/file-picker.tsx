import { useId } from "react";
import { FieldError, Label } from "~/components/ui/field";

/**
 * A labelled file input that says what it takes (formats and limits) before anything is chosen, with its
 * message underneath. The server judges the file by its bytes whatever `accept` lets through.
 */
export function FilePicker({
  name,
  label,
  accept,
  formats,
  multiple = false,
  error,
}: {
  name: string;
  label: string;
  accept: string;
  formats: string;
  multiple?: boolean;
  error?: string;
}) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>{label}</Label>
      <p id={`${id}-formats`} className="mb-2 text-sm text-ink-faint">
        {formats}
      </p>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        multiple={multiple}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-formats ${id}-error` : `${id}-formats`}
        className="block w-full rounded-lg border border-dashed border-stage-600 bg-stage-900 px-3 py-3 text-sm text-ink-muted file:mr-3 file:rounded-full file:border-0 file:bg-stage-700 file:px-4 file:py-1.5 file:font-semibold file:text-ink"
      />
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}
