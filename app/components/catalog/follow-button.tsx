import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { artistPath } from "~/lib/catalog";

type FollowReply = { followError: string | null };

/**
 * Follow state of one artist as the page shows it: while a change is in flight (with JavaScript) the
 * button and the follower count already show its outcome. All follow buttons for an artist share one
 * fetcher, so the count and the button agree.
 */
export function useFollow(artistId: string, isFollowing: boolean, followerCount: number) {
  const fetcher = useFetcher<FollowReply>({ key: `follow-${artistId}` });
  const intent = fetcher.formData?.get("intent");
  const following = typeof intent === "string" ? intent === "follow" : isFollowing;
  const change = following === isFollowing ? 0 : following ? 1 : -1;
  return {
    artistId,
    fetcher,
    following,
    followerCount: Math.max(0, followerCount + change),
    pending: fetcher.state !== "idle",
    error: fetcher.data?.followError ?? null,
  };
}

/**
 * Follow / Following: a POST form to the artist's page (its action follows or unfollows), so it works
 * without JavaScript; a visitor is sent to log in and brought back to the artist.
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
  return (
    <fetcher.Form method="post" action={artistPath(follow.artistId)} className={className}>
      <input type="hidden" name="intent" value={following ? "unfollow" : "follow"} />
      <Button
        type="submit"
        size={size}
        variant={following ? "secondary" : "primary"}
        disabled={pending}
        aria-label={following ? `Following ${artistName}. Unfollow` : `Follow ${artistName}`}
        className="min-w-32"
      >
        {following ? (
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
            <path
              fillRule="evenodd"
              d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.58l7.3-7.3a1 1 0 0 1 1.4 0Z"
              clipRule="evenodd"
            />
          </svg>
        ) : (
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
            <path d="M10.75 4.75a.75.75 0 0 0-1.5 0v4.5h-4.5a.75.75 0 0 0 0 1.5h4.5v4.5a.75.75 0 0 0 1.5 0v-4.5h4.5a.75.75 0 0 0 0-1.5h-4.5v-4.5Z" />
          </svg>
        )}
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
