import { href, useLocation } from "react-router";
import { useRevalidateOnEvents } from "~/lib/backend/use-live-revalidation";
import { useNotices, useOptionalUser } from "~/lib/session/use-user";
import { CountLink } from "./count-link";

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
    user && notices
      ? async (onNotice) => (await import("~/lib/backend/live-activity")).watchNotifications(notices.backend, user.id, onNotice)
      : null,
    user && notices ? `${notices.backend.url}:${user.id}` : "signed out",
  );
  if (!user || !notices) return null;
  const unread = pathname === href("/notifications") ? 0 : notices.unread;
  const shown = unread > countedUpTo ? `${countedUpTo}+` : String(unread);
  return (
    <CountLink
      to={href("/notifications")}
      icon="bell"
      label={unread > 0 ? `Notifications, ${shown} unread` : "Notifications"}
      count={unread > 0 ? shown : null}
      extra={{ "data-live": listening ? "" : undefined }}
    />
  );
}
