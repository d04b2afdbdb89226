import { Link } from "react-router";
import { cx } from "~/lib/ui/cx";

/**
 * A row of links that choose one state of a page kept in its address (a filter, a view, a kind of
 * upload): the current one is marked for assistive technology with `aria-current`.
 */
export function PillNav({
  label,
  items,
  className,
}: {
  label: string;
  items: { to: string; label: string; current: boolean }[];
  className?: string;
}) {
  return (
    <nav aria-label={label} className={cx("flex flex-wrap gap-2", className)}>
      {items.map((item) => (
        <Link
          key={item.to}
          to={item.to}
          aria-current={item.current ? "page" : undefined}
          className={cx(
            "rounded-full border px-4 py-1.5 text-sm font-semibold",
            item.current ? "border-accent bg-accent/15 text-ink" : "border-stage-600 text-ink-muted hover:text-ink",
          )}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
