import { useFetcher, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { followPath } from "~/lib/catalog/catalog";
import type { FormReply } from "~/lib/forms/forms";
import { useHydrated } from "~/lib/ui/use-hydrated";

/**
 * Follow state of one artist as the page shows it: while a change is in flight (with JavaScript) the
 * button and the follower count already show its outcome. All follow buttons for an artist share one
 * fetcher, so the count and the button agree.
 */
export function useFollow(artistId: string, isFollowing: boolean, followerCount: number) {
  const fetcher = useFetcher<FormReply>({ key: `follow-${artistId}` });
  const intent = fetcher.formData?.get("intent");
  const following = typeof intent === "string" ? intent === "follow" : isFollowing;
  const change = following === isFollowing ? 0 : following ? 1 : -1;
  return {
    artistId,
    fetcher,
    following,
    followerCount: Math.max(0, followerCount + change),
    pending: fetcher.state !== "idle",
    error: fetcher.data?.formError ?? null,
  };
}

/**
 * Follow / Following: a POST form to the follow route, so it works without JavaScript (the browser
 * comes back to this page); a visitor is sent to log in and brought back here.
 */
export function FollowButton({
  follow,
  artistName,
  size = "md",
  className,
}: {
  follow: ReturnType<typeof useFollow>;
  artistName: string;
  size?: "md" | "lg";
  className?: string;
}) {
  const { fetcher, following, pending, error } = follow;
  const location = useLocation();
  const hydrated = useHydrated();
  return (
    <fetcher.Form method="post" action={followPath(follow.artistId)} className={className}>
      <input type="hidden" name="intent" value={following ? "unfollow" : "follow"} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      {/* Once JavaScript runs, the reply is read in place instead of coming back to the page. */}
      {hydrated ? <input type="hidden" name="fetcher" value="1" /> : null}
      <Button
        type="submit"
        size={size}
        variant={following ? "secondary" : "primary"}
        disabled={pending}
        aria-label={following ? `Following ${artistName}. Unfollow` : `Follow ${artistName}`}
        className="min-w-32"
      >
        <Icon name={following ? "check" : "plus"} className="size-4" />
        {following ? "Following" : "Follow"}
      </Button>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
