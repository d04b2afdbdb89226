import type { ComponentProps } from "react";
import { Link } from "react-router";
import { cx } from "~/lib/ui/cx";

type Variant = "primary" | "secondary" | "ghost" | "danger";
type Size = "sm" | "md" | "lg";

const base =
  "inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors select-none " +
  "disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60";

const variants: Record<Variant, string> = {
  primary: "bg-accent text-accent-ink hover:bg-accent-strong",
  secondary: "border border-stage-600 bg-stage-800 text-ink hover:border-ink-faint hover:bg-stage-700",
  ghost: "text-ink-muted hover:bg-stage-800 hover:text-ink",
  danger: "bg-danger text-stage-950 hover:brightness-110",
};

const sizes: Record<Size, string> = {
  sm: "h-8 px-3 text-sm",
  md: "h-10 px-5 text-sm",
  lg: "h-12 px-7 text-base",
};

export function buttonClasses({ variant = "primary", size = "md" }: { variant?: Variant; size?: Size } = {}) {
  return cx(base, variants[variant], sizes[size]);
}

type StyleProps = { variant?: Variant; size?: Size };

export function Button({ variant, size, className, type = "button", ...props }: ComponentProps<"button"> & StyleProps) {
  return <button type={type} className={cx(buttonClasses({ variant, size }), className)} {...props} />;
}

/** A link styled as a button: for navigation, never for actions. */
export function LinkButton({ variant, size, className, ...props }: ComponentProps<typeof Link> & StyleProps) {
  return <Link className={cx(buttonClasses({ variant, size }), className)} {...props} />;
}
