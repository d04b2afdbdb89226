import { useId, useState, type ReactNode } from "react";
import { FieldError, Label } from "~/components/ui/field";
import { cx } from "~/lib/ui/cx";

/**
 * A labelled file input that says what it takes (formats and limits) before anything is chosen, with its
 * message underneath. The server judges the file by its bytes whatever `accept` lets through.
 * Without `onFiles` the input is part of the form (its files go with the POST); with it (JavaScript on),
 * chosen or dropped files go to `onFiles` instead and `children` shows them.
 */
export function FilePicker({
  id: idProp,
  name,
  label,
  accept,
  formats,
  multiple = false,
  error,
  onFiles,
  children,
}: {
  /** The input's id, for another label (an avatar to click) to point at it. */
  id?: string;
  name: string;
  label: string;
  accept: string;
  formats: string;
  multiple?: boolean;
  error?: string | null;
  onFiles?: (files: File[]) => void;
  children?: ReactNode;
}) {
  const fallbackId = useId();
  const id = idProp ?? fallbackId;
  const [dragging, setDragging] = useState(false);
  const carriesFiles = (event: React.DragEvent) => onFiles !== undefined && event.dataTransfer.types.includes("Files");
  return (
    <div
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setDragging(false);
        onFiles?.([...event.dataTransfer.files].slice(0, multiple ? undefined : 1));
      }}
    >
      <Label htmlFor={id}>{label}</Label>
      <p id={`${id}-formats`} className="mb-2 text-sm text-ink-faint">
        {formats}
        {onFiles ? ` You can also drop ${multiple ? "files" : "a file"} here.` : null}
      </p>
      <input
        id={id}
        name={onFiles ? undefined : name}
        type="file"
        accept={accept}
        multiple={multiple}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-formats ${id}-error` : `${id}-formats`}
        onChange={
          onFiles
            ? (event) => {
                onFiles([...(event.target.files ?? [])]);
                event.target.value = "";
              }
            : undefined
        }
        className={cx(
          "block w-full rounded-lg border border-dashed bg-stage-900 px-3 py-3 text-sm text-ink-muted file:mr-3 file:rounded-full file:border-0 file:bg-stage-700 file:px-4 file:py-1.5 file:font-semibold file:text-ink",
          dragging ? "border-accent" : "border-stage-600",
        )}
      />
      <FieldError id={`${id}-error`}>{error}</FieldError>
      {children}
    </div>
  );
}
