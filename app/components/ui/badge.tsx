import type { ComponentProps } from "react";
import { cx } from "~/lib/ui/cx";

const tones = {
  neutral: "border-stage-600 bg-stage-800 text-ink-muted",
  danger: "border-danger/40 bg-danger/10 text-danger",
} as const;

/** A small label, e.g. a genre on an artist card; `danger` for something that went wrong (a failed stream). */
export function Badge({ className, tone = "neutral", ...props }: ComponentProps<"span"> & { tone?: keyof typeof tones }) {
  return (
    <span
      className={cx("inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium", tones[tone], className)}
      {...props}
    />
  );
}
