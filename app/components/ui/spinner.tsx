import { cx } from "~/lib/ui/cx";

export function Spinner({ label = "Loading", className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cx("inline-flex items-center gap-2 text-ink-muted", className)}>
      <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-stage-600 border-t-accent" />
      <span className="sr-only">{label}</span>
    </span>
  );
}
