import type { ReactNode } from "react";
import { cx } from "~/lib/ui/cx";

/**
 * A wide table's box: it scrolls sideways on a narrow screen, and takes focus so a keyboard can scroll it
 * too when nothing inside can be focused (a table of figures).
 */
export function TableScroll({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className={cx(
        "relative overflow-x-auto rounded-2xl border border-stage-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent",
        className,
      )}
    >
      {children}
    </div>
  );
}
