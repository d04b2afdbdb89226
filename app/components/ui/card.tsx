import type { ComponentProps } from "react";
import { cx } from "~/lib/ui/cx";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return <div className={cx("rounded-2xl border border-stage-700 bg-stage-850 p-5 shadow-lg shadow-black/20", className)} {...props} />;
}
