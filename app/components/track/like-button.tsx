import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Icon } from "~/components/ui/icon";
import { trackPath } from "~/lib/catalog/catalog";
import type { FormReply } from "~/lib/forms/forms";
import { useHydrated } from "~/lib/ui/use-hydrated";

/**
 * The heart on a track page: a toggle button (pressed, its heart filled, when liked; its name stays the
 * same, as a toggle's does) in a POST form, so it works without JavaScript; with it the change shows at
 * once and the reply is read in place.
 */
export function LikeButton({ trackId, liked, title }: { trackId: string; liked: boolean; title: string }) {
  const fetcher = useFetcher<FormReply>({ key: `like-${trackId}` });
  const hydrated = useHydrated();
  const intent = fetcher.formData?.get("intent");
  const showingLiked = typeof intent === "string" ? intent === "like" : liked;
  return (
    <fetcher.Form method="post" action={`${trackPath(trackId)}/like`}>
      <input type="hidden" name="intent" value={showingLiked ? "unlike" : "like"} />
      {hydrated ? <input type="hidden" name="fetcher" value="1" /> : null}
      <Button type="submit" size="lg" variant="secondary" aria-pressed={showingLiked} aria-label={`Like ${title}`}>
        <Icon name="heart" className={showingLiked ? "size-5 text-accent" : "size-5 text-ink-faint"} />
        Like
      </Button>
      {fetcher.data?.formError ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {fetcher.data.formError}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
