import { Link } from "react-router";
import { Icon, type IconName } from "~/components/ui/icon";

/**
 * A header icon that links somewhere and counts something there (the cart's items, unread notifications):
 * the count as a badge over the icon, the whole said in `label` (the badge itself is hidden from screen
 * readers). `extra`: attributes of its own (the bell's `data-live`).
 */
export function CountLink({
  to,
  icon,
  label,
  count,
  extra,
}: {
  to: string;
  icon: IconName;
  label: string;
  count: string | null;
  extra?: Record<`data-${string}`, string | undefined>;
}) {
  return (
    <Link
      to={to}
      aria-label={label}
      {...extra}
      className="relative inline-flex size-10 shrink-0 items-center justify-center rounded-full text-ink-muted hover:text-ink"
    >
      <Icon name={icon} className="size-6" />
      {count ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-accent px-1 text-center text-xs font-bold text-stage-950"
        >
          {count}
        </span>
      ) : null}
    </Link>
  );
}
