import { data, href, Link } from "react-router";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { Badge } from "~/components/ui/badge";
import { LinkButton } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { readOrThrow } from "~/lib/backend/backend.server";
import { albumPath, artistPath, fanPath, trackPath } from "~/lib/catalog/catalog";
import { formatDate, formatMoney, formatTimeAgo, requestLocale } from "~/lib/format";
import { uncached } from "~/lib/http/http-cache";
import { NotificationsSchema, type Notification } from "~/lib/schemas/notifications";
import { requireUser } from "~/lib/session/guards.server";
import { supabaseContext } from "~/lib/session/session.server";
import { pageMeta } from "~/lib/sharing/meta";
import type { Route } from "./+types/notifications";

// The bell's page: what happened for the signed-in user in the last 90 days, newest first, 30 a page.
// Seeing them marks them read, in the same backend call; the header's bell hears new ones live.

const perPage = 30;

export const meta = () => pageMeta("Notifications", "New releases, replies, sales and followers.");

export async function loader({ request, context }: Route.LoaderArgs) {
  requireUser(request, context);
  const before = new URL(request.url).searchParams.get("before");
  const notifications = readOrThrow(
    await context
      .get(supabaseContext)
      .rpc("read_notifications", { before: before && !Number.isNaN(Date.parse(before)) ? before : undefined, max_count: perPage }),
    { what: "notifications", schema: NotificationsSchema },
  );
  const older = notifications.length === perPage ? notifications.at(-1)!.created_at : null;
  return data({ notifications, older, paged: before !== null, now: Date.now(), locale: requestLocale(request) }, { headers: uncached });
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { notifications, older, paged, now } = loaderData;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="mb-6 text-3xl font-bold">Notifications</h1>
      {notifications.length === 0 ? (
        <EmptyState
          title={paged ? "Nothing older" : "Nothing new yet"}
          action={<LinkButton to={href("/discover")}>Find artists to follow</LinkButton>}
        >
          New releases from artists you follow or bought from, replies to your comments, and for artists their sales and new followers show
          up here.
        </EmptyState>
      ) : (
        <ul className="grid gap-2">
          {notifications.map((notification) => (
            <li
              key={notification.id}
              className={`rounded-2xl border p-4 ${notification.unread ? "border-accent/60 bg-stage-800" : "border-stage-700 bg-stage-850"}`}
            >
              <NotificationText notification={notification} locale={loaderData.locale} />
              <p className="mt-1 flex items-center gap-2 text-sm text-ink-faint">
                {notification.unread ? <Badge>New</Badge> : null}
                <time dateTime={notification.created_at}>{formatTimeAgo(notification.created_at, now)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
      {older ? (
        <p className="mt-6">
          <LinkButton to={`${href("/notifications")}?${new URLSearchParams({ before: older })}`} variant="secondary">
            Older notifications
          </LinkButton>
        </p>
      ) : null}
    </div>
  );
}

const strong = "font-semibold text-ink hover:text-accent";

/** One notice in words, linking to what it speaks of; what is gone since is said to be gone. */
function NotificationText({ notification: n, locale }: { notification: Notification; locale: string }) {
  const actor =
    n.actor && n.actor_id ? (
      <Link to={n.actor_is_artist ? artistPath(n.actor_id) : fanPath(n.actor_id)} className={strong}>
        {n.actor}
      </Link>
    ) : (
      "Someone"
    );
  const items = n.order?.items?.join(", ") ?? "An item";
  switch (n.kind) {
    case "release":
      return n.release ? (
        <p>
          <Link to={artistPath(n.release.artist_id)} className={strong}>
            {n.release.artist_name}
          </Link>{" "}
          released{" "}
          <Link to={albumPath(n.release.id)} className={strong}>
            {n.release.title}
          </Link>{" "}
          ({n.release.kind === "album" ? "album" : "single"}).
        </p>
      ) : (
        <p className="text-ink-muted">A release you were told of is no longer available.</p>
      );
    case "moved":
      return n.release ? (
        <p>
          <Link to={albumPath(n.release.id)} className={strong}>
            {n.release.title}
          </Link>
          , which you pre-ordered from {n.release.artist_name}, moved to {formatDate(n.release.release_date, locale)}.
        </p>
      ) : (
        <p className="text-ink-muted">A pre-order you were told of is no longer available.</p>
      );
    case "reply":
      return n.comment ? (
        <p>
          {actor} replied to your comment on{" "}
          <Link to={`${trackPath(n.comment.track_id)}#comments`} className={strong}>
            {n.comment.track_title}
          </Link>
          : “{n.comment.content}”
        </p>
      ) : (
        <p className="text-ink-muted">A reply to your comment was removed.</p>
      );
    case "follower":
      return <p>{actor} followed you.</p>;
    case "member":
      return (
        <p>
          {actor} became a member.{" "}
          <Link to={href("/dashboard/artist/memberships")} className={strong}>
            Your members
          </Link>
        </p>
      );
    case "sale":
      return (
        <p>
          You sold <span className="font-semibold text-ink">{items}</span>
          {n.order?.gift ? ", bought as a gift" : null}
          {n.order?.share != null ? <>: your share is {formatMoney(n.order.share, n.order.currency)}</> : null}.{" "}
          <Link to={href("/dashboard/artist/payments")} className={strong}>
            Your sales
          </Link>
        </p>
      );
    case "shipped":
      return (
        <p>
          <span className="font-semibold text-ink">{items}</span> is on its way to you.{" "}
          <Link to={href("/dashboard/fan/purchased")} className={strong}>
            Your purchases
          </Link>
        </p>
      );
  }
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
