import type { ComponentProps } from "react";
import { cx } from "~/lib/ui/cx";

/** A small label, e.g. a genre on an artist card. */
export function Badge({ className, ...props }: ComponentProps<"span">) {
  return (
    <span
      className={cx(
        "inline-flex items-center rounded-full border border-stage-600 bg-stage-800 px-2.5 py-0.5 text-xs font-medium text-ink-muted",
        className,
      )}
      {...props}
    />
  );
}
