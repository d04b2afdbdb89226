import { href, Link, useLocation } from "react-router";
import { Icon } from "~/components/ui/icon";
import { useRevalidateOnEvents, watchNotifications } from "~/lib/backend/live-activity";
import { useNotices, useOptionalUser } from "~/lib/session/use-user";

/** The most the bell counts; more reads "99+". */
const countedUpTo = 99;

/**
 * The bell: the signed-in user's unread notifications, a link to their page. With JavaScript it listens
 * for new ones through Realtime and reloads the count as each arrives (`data-live` once it listens). On the
 * notifications page itself, which marks what it shows read, it counts nothing.
 */
export function NotificationBell() {
  const user = useOptionalUser();
  const notices = useNotices();
  const { pathname } = useLocation();
  const listening = useRevalidateOnEvents(
    user && notices ? (onNotice) => watchNotifications(notices.backend, user.id, onNotice) : null,
    user && notices ? `${notices.backend.url}:${user.id}` : "signed out",
  );
  if (!user || !notices) return null;
  const unread = pathname === href("/notifications") ? 0 : notices.unread;
  const shown = unread > countedUpTo ? `${countedUpTo}+` : String(unread);
  return (
    <Link
      to={href("/notifications")}
      aria-label={unread > 0 ? `Notifications, ${shown} unread` : "Notifications"}
      data-live={listening ? "" : undefined}
      className="relative inline-flex size-10 shrink-0 items-center justify-center rounded-full text-ink-muted hover:text-ink"
    >
      <Icon name="bell" className="size-6" />
      {unread > 0 ? (
        <span
          aria-hidden="true"
          className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-accent px-1 text-center text-xs font-bold text-stage-950"
        >
          {shown}
        </span>
      ) : null}
    </Link>
  );
}
